// The service with its default chain engine (anvil): transactions sent through the API are recorded and listed,
// simulations run and are saved, and the RPC URLs answer JSON-RPC.
import { startTestService, type TestService } from "../../test/helpers/service";
import { call } from "../../test/helpers/http";

let service: TestService;
let environment: { id: string; active_instance: { id: string; vnets: { id: string; rpcs: { url: string }[] }[] } };
const base = "/public/v1/account/acme/project/demo/environments";
const RICH = `0x${"11".repeat(20)}`;
const OTHER = `0x${"22".repeat(20)}`;

beforeAll(async () => {
  service = await startTestService();
  environment = (
    await call(service, "POST", base, {
      as: "alice",
      body: {
        display_name: "anvil",
        network_configs: [
          {
            network_id: "8453",
            chain_config_overrides: { chain_id: "845300" },
            accounts: [{ address: RICH, balance: "0xde0b6b3a7640000" }],
          },
        ],
      },
    })
  ).body;
});
afterAll(() => service.close());

test("the Public RPC answers with the overridden chain id; the Admin RPC too", async () => {
  const [admin, pub] = environment.active_instance.vnets[0].rpcs.map((r) => r.url);
  const answer = await fetch(pub, { method: "POST", body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId" }) });
  expect(await answer.json()).toEqual({ jsonrpc: "2.0", id: 1, result: `0x${(845300).toString(16)}` });
  const batch = await fetch(admin, {
    method: "POST",
    body: JSON.stringify([
      { jsonrpc: "2.0", id: 1, method: "eth_chainId" },
      { jsonrpc: "2.0", id: 2, method: "eth_blockNumber" },
    ]),
  });
  expect(((await batch.json()) as { id: number }[]).map((r) => r.id).sort()).toEqual([1, 2]);
});

test("a transaction sent through the API is recorded: list and get return it", async () => {
  const instance = `${base}/${environment.id}/instance/${environment.active_instance.id}`;
  const vnetId = environment.active_instance.vnets[0].id;
  const sent = await call(service, "POST", `${instance}/vnet/${vnetId}/transactions`, {
    as: "alice",
    body: { callArgs: { from: RICH, to: OTHER, value: "0x3e8" } },
  });
  expect(sent.status).toBe(200);
  // The documented record, bare (docs/service.md "Transaction record").
  expect(sent.body).toMatchObject({
    vnet_id: vnetId,
    from: RICH,
    to: OTHER,
    status: "success",
    category: "write",
    kind: "blockchain",
    origin: "api",
    reverted: false,
  });
  expect(sent.body.tx_hash).toMatch(/^0x[0-9a-f]{64}$/);
  const listed = await call(service, "GET", `${instance}/transactions?from=${RICH}`, { as: "bob" });
  expect(listed.body.map((t: { tx_hash: string }) => t.tx_hash)).toContain(sent.body.tx_hash);
  const got = await call(service, "GET", `${instance}/transactions/${sent.body.tx_hash}`, { as: "bob" });
  expect(got.status).toBe(200);
  expect(got.body).toEqual(sent.body);
});

test("simulations: instance and vnet level run; a project simulation with save is listed", async () => {
  const instance = `${base}/${environment.id}/instance/${environment.active_instance.id}`;
  const vnetId = environment.active_instance.vnets[0].id;
  const onInstance = await call(service, "POST", `${instance}/vnet/${vnetId}/transactions/simulate`, {
    as: "alice",
    body: { callArgs: { from: RICH, to: OTHER, value: "0x1" } },
  });
  expect(onInstance.status).toBe(200);
  expect(onInstance.body.status).toBe(true);
  expect(Array.isArray(onInstance.body.stateChanges)).toBe(true);
  const onVnet = await call(service, "POST", `/v1/account/acme/project/demo/vnets/${vnetId}/transactions/simulate`, {
    as: "alice",
    body: { callArgs: { from: RICH, to: OTHER } },
  });
  expect(onVnet.status).toBe(200);
  expect(onVnet.body.blockNumber).toMatch(/^0x[0-9a-f]+$/);
  const project = await call(service, "POST", "/v1/account/acme/project/demo/simulate", {
    as: "alice",
    body: { network_id: "1", from: RICH, to: OTHER, value: "0x0", save: true },
  });
  expect(project.status).toBe(200);
  expect(project.body.simulation.id).toMatch(/^[0-9a-f-]{36}$/);
  const unsaved = await call(service, "POST", "/v1/account/acme/project/demo/simulate", {
    as: "alice",
    body: { network_id: "1", from: RICH, to: OTHER },
  });
  expect(unsaved.status).toBe(200);
  const list = await call(service, "GET", "/v1/account/acme/project/demo/simulations", { as: "bob" });
  expect(list.body.simulations.map((s: { id: string }) => s.id)).toEqual([project.body.simulation.id]);
}, 60_000);

test("the Public RPC answers eth_accounts with [] even after anvil_impersonateAccount on the Admin RPC", async () => {
  const [admin, pub] = environment.active_instance.vnets[0].rpcs.map((r) => r.url);
  const rpc = async (url: string, method: string, params: unknown[] = []) =>
    (await (await fetch(url, { method: "POST", body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }) })).json()) as {
      result?: unknown;
    };
  expect((await rpc(admin, "anvil_impersonateAccount", [OTHER])).result).toBeNull();
  expect((await rpc(admin, "eth_accounts")).result).toContain(OTHER);
  expect((await rpc(pub, "eth_accounts")).result).toEqual([]);
  const batch = await fetch(pub, {
    method: "POST",
    body: JSON.stringify([
      { jsonrpc: "2.0", id: 1, method: "eth_accounts" },
      { jsonrpc: "2.0", id: 2, method: "eth_chainId" },
    ]),
  });
  expect(((await batch.json()) as { id: number; result: unknown }[]).find((a) => a.id === 1)!.result).toEqual([]);
});

test("a chain id above 2^53 is exact end to end: eth_chainId answers it", async () => {
  const created = await call(service, "POST", base, {
    as: "alice",
    body: {
      display_name: "big chain id",
      network_configs: [{ network_id: "1", chain_config_overrides: { chain_id: "9007199254740993" } }],
    },
  });
  expect(created.status).toBe(200);
  const pub = created.body.active_instance.vnets[0].rpcs.find((r: { name: string }) => r.name === "Public RPC").url;
  const answer = await fetch(pub, { method: "POST", body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId" }) });
  expect(await answer.json()).toEqual({ jsonrpc: "2.0", id: 1, result: `0x${9007199254740993n.toString(16)}` });
}, 60_000);
