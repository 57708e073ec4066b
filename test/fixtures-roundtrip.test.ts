/**
 * Environments as fixtures across two services and in place, over HTTP against real anvil chains: an environment
 * exported from one service and imported into another answers the same chain ids, code, storage, balances, nonces
 * and block numbers, with the same transaction records and verified contracts, under new ids and new secrets; the
 * file carries no secret of the service it came from. A clone starts from its source's current state, and a write on
 * either never shows in the other.
 */
import { readFixture } from "../lib/service/environment-files";
import { call, expectErrorBody, rpc, adminRpc } from "./helpers/http";
import { startTestService, type TestService } from "./helpers/service";
import {
  ENVIRONMENTS,
  chainFacts,
  createEnvironment,
  deployStore,
  exportFixture,
  importFixture,
  recordsOf,
  send,
  setCall,
  verifiedSource,
  verifyStore,
  type CreatedEnvironment,
} from "./helpers/fixtures";

jest.setTimeout(240_000);

let source: TestService;
let target: TestService;
let environment: CreatedEnvironment;
const contracts: string[][] = [];

beforeAll(async () => {
  [source, target] = await Promise.all([startTestService(), startTestService()]);
  environment = await createEnvironment(source, "Protocol", [{ network_id: "1" }, { network_id: "8453", chain_id: "845399" }]);
  for (const index of [0, 1]) {
    const address = await deployStore(source, environment, index, 7 + index);
    await verifyStore(environment, index, address);
    contracts.push([address]);
  }
});

afterAll(async () => {
  await Promise.all([source?.close(), target?.close()]);
});

const factsOf = (env: CreatedEnvironment) => Promise.all([0, 1].map((i) => chainFacts(adminRpc(env, i), contracts[i])));

test("export and import across two services: the same chains, records and verified contracts under new ids and secrets", async () => {
  const before = await factsOf(environment);
  expect((before[0][contracts[0][0]] as { slot0: string }).slot0).toBe(`0x${"0".repeat(63)}7`);
  const file = await exportFixture(source, environment.id);

  // No secret of the source service is in it: not its access keys, not an Admin RPC secret.
  const content = readFixture(file, "export");
  const everything = JSON.stringify({ ...content, vnets: content.vnets.map((v) => ({ ...v, state: v.state.toString("utf8") })) });
  for (const key of Object.values(source.keys)) expect(everything).not.toContain(key);
  for (const vnet of environment.active_instance.vnets) {
    const secret = vnet.rpcs
      .find((r) => r.name === "Admin RPC")!
      .url.split("/")
      .pop()!;
    expect(everything).not.toContain(secret);
  }

  const imported = await importFixture(target, file);
  expect([imported.status, imported.body?.error?.message]).toEqual([201, undefined]);
  const copy = imported.body as CreatedEnvironment;
  expect(copy.slug).toBe(environment.slug);
  expect(copy.display_name).toBe(environment.display_name);
  expect(copy.id).not.toBe(environment.id);
  const oldIds = environment.active_instance.vnets.map((v) => v.id);
  for (const [i, vnet] of copy.active_instance.vnets.entries()) {
    expect(oldIds).not.toContain(vnet.id);
    expect(adminRpc(copy, i)).not.toBe(adminRpc(environment, i));
    expect(adminRpc(copy, i).startsWith(target.baseUrl)).toBe(true);
  }
  expect(await factsOf(copy)).toEqual(before);
  expect(await recordsOf(target, copy)).toEqual(await recordsOf(source, environment));
  for (const i of [0, 1]) {
    const verified = await verifiedSource(copy, i, contracts[i][0]);
    expect(verified).toEqual(await verifiedSource(environment, i, contracts[i][0]));
    expect(JSON.stringify(verified)).toContain("contract Store");
  }
  // The copy takes writes of its own.
  await send(adminRpc(copy, 0), { to: contracts[0][0], data: setCall(99) });
  expect(await rpc(adminRpc(copy, 0), "eth_getStorageAt", [contracts[0][0], "0x0", "latest"])).toBe(`0x${"0".repeat(62)}63`);
  expect(await rpc(adminRpc(environment, 0), "eth_getStorageAt", [contracts[0][0], "0x0", "latest"])).toBe(`0x${"0".repeat(63)}7`);
});

test("an import takes another slug and name; a taken slug is refused as a create's is, and nothing is created", async () => {
  const file = await exportFixture(source, environment.id);
  const renamed = await importFixture(target, file, { slug: "protocol-b", display_name: "Protocol B" });
  expect(renamed.status).toBe(201);
  expect([renamed.body.slug, renamed.body.display_name]).toEqual(["protocol-b", "Protocol B"]);
  const count = (await call(target, "GET", `${ENVIRONMENTS}?perPage=100`, { as: "alice" })).body.environments.length;
  const taken = await importFixture(target, file, { slug: "protocol-b" });
  expect(taken.status).toBe(400);
  expect(taken.body.error.data).toMatchObject({ field: "/slug", environment_id: renamed.body.id });
  expect(taken.body.error.message).toContain("protocol-b");
  expect((await call(target, "GET", `${ENVIRONMENTS}?perPage=100`, { as: "alice" })).body.environments).toHaveLength(count);
  // A read-only key may export (a fixture holds no secret) but not import.
  const asBob = await fetch(`${source.baseUrl}${ENVIRONMENTS}/${environment.id}/export`, { headers: source.headersOf("bob") });
  expect(asBob.status).toBe(200);
  const bobImport = await fetch(`${target.baseUrl}${ENVIRONMENTS}/import`, {
    method: "POST",
    headers: { ...target.headersOf("bob"), "content-type": "application/octet-stream" },
    body: file,
  });
  expect(bobImport.status).toBe(403);
  const unknown = await fetch(`${source.baseUrl}${ENVIRONMENTS}/00000000-0000-4000-8000-000000000000/export`, {
    headers: source.headersOf("alice"),
  });
  expect(unknown.status).toBe(404);
});

test("a clone starts from the source's current state and then lives on its own, both ways", async () => {
  const address = contracts[1][0];
  await send(adminRpc(environment, 1), { to: address, data: setCall(5) });
  const cloned = await call(source, "POST", `${ENVIRONMENTS}/${environment.id}/clone`, {
    as: "alice",
    body: { display_name: "Protocol clone" },
  });
  expect([cloned.status, cloned.body?.error?.message]).toEqual([201, undefined]);
  const clone = cloned.body as CreatedEnvironment;
  expect(clone.slug).toBe("protocol-clone");
  expect(await factsOf(clone)).toEqual(await factsOf(environment));
  expect(await recordsOf(source, clone)).toEqual(await recordsOf(source, environment));
  const slot = (value: number) => `0x${value.toString(16).padStart(64, "0")}`;
  await send(adminRpc(clone, 1), { to: address, data: setCall(11) });
  expect(await rpc(adminRpc(environment, 1), "eth_getStorageAt", [address, "0x0", "latest"])).toBe(slot(5));
  await send(adminRpc(environment, 1), { to: address, data: setCall(12) });
  expect(await rpc(adminRpc(clone, 1), "eth_getStorageAt", [address, "0x0", "latest"])).toBe(slot(11));
  expect(await rpc(adminRpc(environment, 1), "eth_getStorageAt", [address, "0x0", "latest"])).toBe(slot(12));
  // A clone's records are its own too.
  expect((await recordsOf(source, clone)).length).toBe((await recordsOf(source, environment)).length);

  const again = await call(source, "POST", `${ENVIRONMENTS}/${environment.id}/clone`, {
    as: "alice",
    body: { display_name: "Protocol clone" },
  });
  expect([again.status, again.body.slug]).toEqual([201, "protocol-clone-2"]);
  const taken = await call(source, "POST", `${ENVIRONMENTS}/${environment.id}/clone`, {
    as: "alice",
    body: { display_name: "x", slug: "protocol-clone" },
  });
  expectErrorBody(taken, 400, "bad_request");
  expect(taken.body.error.data.field).toBe("/slug");
  expectErrorBody(
    await call(source, "POST", `${ENVIRONMENTS}/${environment.id}/clone`, { as: "bob", body: { display_name: "x" } }),
    403,
    "insufficient_permissions",
  );
  const missing = await call(source, "POST", `${ENVIRONMENTS}/00000000-0000-4000-8000-000000000000/clone`, {
    as: "alice",
    body: { display_name: "x" },
  });
  expectErrorBody(missing, 404, "resource_not_found");
});
