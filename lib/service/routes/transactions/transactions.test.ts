import { startTestService, type TestService } from "../../../../test/helpers/service";
import { call, expectErrorBody } from "../../../../test/helpers/http";
import type { Transaction } from "../../../api";
import { NoChainEngine } from "../../no-chain-engine";

// Without a chain engine: transaction records come from the store's ChainHost side (as the engine reports
// them); sending and simulating answer 402.
let service: TestService;
let environment: { id: string; active_instance: { id: string; vnets: { id: string }[] } };
let instancePath: string;
const base = "/public/v1/account/acme/project/demo/environments";
const ALICE = `0x${"a1".repeat(20)}`;
const BOB = `0x${"b2".repeat(20)}`;

function record(vnetId: string, n: number, overrides: Partial<Transaction> = {}): Transaction {
  return {
    id: `00000000-0000-4000-8000-${n.toString().padStart(12, "0")}`,
    vnet_id: vnetId,
    origin: "rpc",
    category: "write",
    kind: "blockchain",
    status: "success",
    error_reason: null,
    reverted: false,
    rpc_method: "eth_sendRawTransaction",
    created_at: new Date(1_700_000_000_000 + n * 1000).toISOString(),
    dashboard_url: "",
    block_number: `0x${n.toString(16)}`,
    block_hash: `0x${"b".repeat(63)}${n % 10}`,
    tx_hash: `0x${n.toString(16).padStart(64, "0")}`,
    tx_index: "0x0",
    from: ALICE,
    to: BOB,
    input: "0x",
    nonce: `0x${n.toString(16)}`,
    value: "0x1",
    gas: "0x5208",
    gas_price: null,
    max_priority_fee_per_gas: "0x1",
    max_fee_per_gas: "0x2",
    type: "0x2",
    function_name: null,
    gas_used: "0x5208",
    ...overrides,
  };
}

beforeAll(async () => {
  service = await startTestService({ createChainEngine: () => new NoChainEngine() });
  environment = (
    await call(service, "POST", base, {
      as: "alice",
      body: { display_name: "tx", network_configs: [{ network_id: "1" }, { network_id: "10" }] },
    })
  ).body;
  instancePath = `${base}/${environment.id}/instance/${environment.active_instance.id}`;
  const [mainnet, optimism] = environment.active_instance.vnets.map((v) => v.id);
  const store = service.app.service.store;
  for (let n = 1; n <= 30; n++) store.records.recordTransaction(record(n % 2 ? mainnet : optimism, n));
  store.records.recordTransaction(
    record(mainnet, 31, {
      status: "failed",
      reverted: true,
      error_reason: "execution reverted",
      from: BOB.toUpperCase().replace("0X", "0x"),
      to: null,
      contract_address: ALICE,
    }),
  );
  store.records.recordTransaction(record(optimism, 32, { kind: "cheatcode", rpc_method: "tenderly_setBalance" }));
  store.records.recordTransaction(record(optimism, 32, { kind: "cheatcode", rpc_method: "tenderly_setBalance", value: "0x2" })); // recorded again: updated, not duplicated
  store.records.recordTransaction(record("00000000-0000-4000-8000-000000000000", 33)); // a vnet that does not exist: ignored
});
afterAll(() => service.close());

describe("GET .../instance/{instanceId}/transactions", () => {
  test("lists across the instance's vnets as a bare array of documented records, newest first, 20 per page", async () => {
    const { status, body } = await call(service, "GET", `${instancePath}/transactions`, { as: "bob" });
    expect(status).toBe(200);
    expect(Array.isArray(body)).toBe(true);
    expect(body).toHaveLength(20);
    expect(body[0].tx_hash).toBe(record("", 32).tx_hash);
    expect(body[0].value).toBe("0x2");
    expect(body[0].dashboard_url).toBe(`${service.baseUrl}/explorer/${body[0].vnet_id}/tx/${body[0].tx_hash}`);
    for (const field of [
      "id",
      "vnet_id",
      "origin",
      "category",
      "kind",
      "status",
      "error_reason",
      "reverted",
      "rpc_method",
      "created_at",
      "dashboard_url",
      "block_number",
      "block_hash",
      "tx_hash",
      "tx_index",
      "from",
      "to",
      "input",
      "nonce",
      "value",
      "gas",
      "gas_price",
      "max_priority_fee_per_gas",
      "max_fee_per_gas",
      "type",
      "function_name",
    ]) {
      expect(body[0]).toHaveProperty(field);
    }
    expect(body[0]).not.toHaveProperty("hash");
    const all = await call(service, "GET", `${instancePath}/transactions?perPage=100`, { as: "bob" });
    expect(all.body).toHaveLength(32);
    const page2 = await call(service, "GET", `${instancePath}/transactions?page=2&perPage=10`, { as: "bob" });
    expect(page2.body.map((t: Transaction) => t.tx_hash)).toEqual(all.body.slice(10, 20).map((t: Transaction) => t.tx_hash));
  });

  test.each([
    ["status=failed", 1],
    ["kind=cheatcode", 1],
    ["status=pending", 0],
    ["category=read", 0],
    [`from=${BOB}`, 1],
    [`from=${ALICE.toUpperCase().replace("0X", "0x")}`, 31],
    [`to=${BOB}&status=success&category=write&kind=blockchain`, 30],
  ])("filters by %s", async (query, count) => {
    const { status, body } = await call(service, "GET", `${instancePath}/transactions?perPage=100&${query}`, { as: "alice" });
    expect(status).toBe(200);
    expect(body).toHaveLength(count);
  });

  test.each([
    "status=ok",
    "category=x",
    "category=transaction",
    "kind=delegate",
    "kind=call",
    "from=0x12",
    "to=abc",
    "page=0",
    "perPage=101",
    "colour=red",
  ])("400 for %s", async (query) => {
    expectErrorBody(await call(service, "GET", `${instancePath}/transactions?${query}`, { as: "alice" }), 400, "bad_request");
  });

  test("404 rid:vnet for an unknown environment or instance; 404 for an outsider; 401 anonymous", async () => {
    const wrongInstance = await call(
      service,
      "GET",
      `${base}/${environment.id}/instance/00000000-0000-4000-8000-000000000000/transactions`,
      { as: "alice" },
    );
    expectErrorBody(wrongInstance, 404, "resource_not_found");
    expect(wrongInstance.body.error.data.rid).toBe("rid:vnet");
    expectErrorBody(
      await call(service, "GET", `${base}/00000000-0000-4000-8000-000000000000/instance/${environment.active_instance.id}/transactions`, {
        as: "alice",
      }),
      404,
      "resource_not_found",
    );
    expectErrorBody(await call(service, "GET", `${instancePath}/transactions`, { as: "outsider" }), 404, "resource_not_found");
    expectErrorBody(await call(service, "GET", `${instancePath}/transactions`, { as: "carol" }), 403, "insufficient_permissions");
    expectErrorBody(await call(service, "GET", `${instancePath}/transactions`), 401, "unauthorized");
  });
});

describe("GET .../transactions/{txHash}", () => {
  test("returns the record bare; hashes match case-insensitively", async () => {
    const hash = record("", 31).tx_hash;
    const { status, body } = await call(service, "GET", `${instancePath}/transactions/${hash.toUpperCase().replace("0X", "0x")}`, {
      as: "alice",
    });
    expect(status).toBe(200);
    expect(body).toMatchObject({
      tx_hash: hash,
      status: "failed",
      reverted: true,
      error_reason: "execution reverted",
      kind: "blockchain",
      to: null,
      contract_address: ALICE,
    });
  });

  test("404 for an unknown hash, 400 for a malformed one", async () => {
    expectErrorBody(
      await call(service, "GET", `${instancePath}/transactions/0x${"f".repeat(64)}`, { as: "alice" }),
      404,
      "resource_not_found",
    );
    expectErrorBody(await call(service, "GET", `${instancePath}/transactions/0x1234`, { as: "alice" }), 400, "bad_request");
  });
});

describe("POST .../vnet/{vnetId}/transactions and .../transactions/simulate without a chain engine", () => {
  const vnetPath = () => `${instancePath}/vnet/${environment.active_instance.vnets[0].id}/transactions`;

  test("402 request_failed naming the missing chain engine", async () => {
    const send = await call(service, "POST", vnetPath(), { as: "alice", body: { callArgs: { from: ALICE, to: BOB, value: "0x1" } } });
    expectErrorBody(send, 402, "request_failed");
    expect(send.body.error.message).toContain("no chain engine");
    const simulate = await call(service, "POST", `${vnetPath()}/simulate`, { as: "alice", body: { callArgs: { from: ALICE } } });
    expectErrorBody(simulate, 402, "request_failed");
  });

  test("400 for bad bodies, 404 for a vnet of another instance, 403 read-only, 401 anonymous", async () => {
    expectErrorBody(await call(service, "POST", vnetPath(), { as: "alice", body: { callArgs: { to: BOB } } }), 400, "bad_request");
    expectErrorBody(
      await call(service, "POST", vnetPath(), { as: "alice", body: { callArgs: { from: ALICE, value: 1 } } }),
      400,
      "bad_request",
    );
    expectErrorBody(
      await call(service, "POST", `${vnetPath()}/simulate`, { as: "alice", body: { blockNumber: "latest" } }),
      400,
      "bad_request",
    );
    const other = `${instancePath}/vnet/00000000-0000-4000-8000-000000000000/transactions`;
    expectErrorBody(await call(service, "POST", other, { as: "alice", body: { callArgs: { from: ALICE } } }), 404, "resource_not_found");
    expectErrorBody(
      await call(service, "POST", vnetPath(), { as: "bob", body: { callArgs: { from: ALICE } } }),
      403,
      "insufficient_permissions",
    );
    expectErrorBody(await call(service, "POST", `${vnetPath()}/simulate`, { body: { callArgs: { from: ALICE } } }), 401, "unauthorized");
  });
});

describe("simulations without a chain engine", () => {
  const project = "/v1/account/acme/project/demo";

  test("project simulate: 402 for a valid request, 400 for an unsupported network or a bad body", async () => {
    expectErrorBody(
      await call(service, "POST", `${project}/simulate`, { as: "alice", body: { network_id: "1", from: ALICE, to: BOB, input: "0x" } }),
      402,
      "request_failed",
    );
    const unsupported = await call(service, "POST", `${project}/simulate`, { as: "alice", body: { network_id: "777", from: ALICE } });
    expectErrorBody(unsupported, 400, "bad_request");
    expect(unsupported.body.error.data).toMatchObject({ field: "/network_id", rid: "rid:network" });
    expectErrorBody(
      await call(service, "POST", `${project}/simulate`, { as: "alice", body: { network_id: "1", from: ALICE, gas: "21000" } }),
      400,
      "bad_request",
    );
    expectErrorBody(
      await call(service, "POST", `${project}/simulate`, { as: "bob", body: { network_id: "1", from: ALICE } }),
      403,
      "insufficient_permissions",
    );
  });

  test("list simulations: empty, paginated, 400 for bad pages, 404 outsider", async () => {
    const { status, body } = await call(service, "GET", `${project}/simulations?page=1&perPage=5`, { as: "bob" });
    expect(status).toBe(200);
    expect(body).toEqual({ simulations: [] });
    expectErrorBody(await call(service, "GET", `${project}/simulations?perPage=0`, { as: "bob" }), 400, "bad_request");
    expectErrorBody(await call(service, "GET", `${project}/simulations`, { as: "outsider" }), 404, "resource_not_found");
  });

  test("simulation bodies are optional: no body, {} and a project simulate without from or network_id pass validation (402 here)", async () => {
    const vnetId = environment.active_instance.vnets[0].id;
    const vnetSimulate = `${project}/vnets/${vnetId}/transactions/simulate`;
    expectErrorBody(await call(service, "POST", vnetSimulate, { as: "alice" }), 402, "request_failed");
    expectErrorBody(await call(service, "POST", vnetSimulate, { as: "alice", body: {} }), 402, "request_failed");
    const instanceSimulate = `${instancePath}/vnet/${vnetId}/transactions/simulate`;
    expectErrorBody(await call(service, "POST", instanceSimulate, { as: "alice" }), 402, "request_failed");
    // The environment-instance simulate documents blockOverrides.time.
    expectErrorBody(
      await call(service, "POST", instanceSimulate, { as: "alice", body: { blockOverrides: { time: "0x64" } } }),
      402,
      "request_failed",
    );
    expectErrorBody(
      await call(service, "POST", `${project}/simulate`, { as: "alice", body: { network_id: "1", to: BOB } }),
      402,
      "request_failed",
    );
    expectErrorBody(await call(service, "POST", `${project}/simulate`, { as: "alice" }), 402, "request_failed");
    // Bodies that require fields still need them.
    expectErrorBody(await call(service, "POST", `${instancePath}/vnet/${vnetId}/transactions`, { as: "alice" }), 400, "bad_request");
  });

  test("vnet simulate: 402 for a vnet of the project, 404 for one of another project or unknown", async () => {
    const vnetId = environment.active_instance.vnets[0].id;
    expectErrorBody(
      await call(service, "POST", `${project}/vnets/${vnetId}/transactions/simulate`, { as: "alice", body: { callArgs: { from: ALICE } } }),
      402,
      "request_failed",
    );
    const elsewhere = await call(service, "POST", `/v1/account/alice/project/sandbox/vnets/${vnetId}/transactions/simulate`, {
      as: "alice",
      body: {},
    });
    expectErrorBody(elsewhere, 404, "resource_not_found");
    expect(elsewhere.body.error.data.rid).toBe("rid:vnet");
    expectErrorBody(
      await call(service, "POST", `${project}/vnets/not-a-uuid/transactions/simulate`, { as: "alice", body: {} }),
      400,
      "bad_request",
    );
  });
});
