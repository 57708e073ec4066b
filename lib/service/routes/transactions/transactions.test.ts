import { startTestService, type TestService } from "../../../../test/helpers/service";
import { call, expectErrorBody } from "../../../../test/helpers/http";
import type { Transaction } from "../../../spec";
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
    hash: `0x${n.toString(16).padStart(64, "0")}`,
    vnet_id: vnetId,
    network_id: "1",
    block_number: `0x${n.toString(16)}`,
    from: ALICE,
    to: BOB,
    value: "0x1",
    input: "0x",
    gas_used: "0x5208",
    status: "success",
    category: "transaction",
    kind: "call",
    contract_address: null,
    logs: [],
    created_at: new Date(1_700_000_000_000 + n * 1000).toISOString(),
    ...overrides,
  };
}

beforeAll(async () => {
  service = await startTestService({ createChainEngine: () => new NoChainEngine() });
  environment = (await call(service, "POST", base, { as: "alice", body: { display_name: "tx", network_configs: [{ network_id: "1" }, { network_id: "10" }] } })).body;
  instancePath = `${base}/${environment.id}/instance/${environment.active_instance.id}`;
  const [mainnet, optimism] = environment.active_instance.vnets.map((v) => v.id);
  const store = service.app.service.store;
  for (let n = 1; n <= 30; n++) store.recordTransaction(record(n % 2 ? mainnet : optimism, n));
  store.recordTransaction(record(mainnet, 31, { status: "failed", from: BOB.toUpperCase().replace("0X", "0x"), to: null, kind: "create", contract_address: ALICE }));
  store.recordTransaction(record(optimism, 32, { category: "cheatcode" }));
  store.recordTransaction(record(optimism, 32, { category: "cheatcode", gas_used: "0x1" })); // recorded again: updated, not duplicated
  store.recordTransaction(record("00000000-0000-4000-8000-000000000000", 33)); // a vnet that does not exist: ignored
});
afterAll(() => service.close());

describe("GET .../instance/{instanceId}/transactions", () => {
  test("lists across the instance's vnets, newest first, 20 per page", async () => {
    const { status, body } = await call(service, "GET", `${instancePath}/transactions`, { as: "bob" });
    expect(status).toBe(200);
    expect(body.transactions).toHaveLength(20);
    expect(body.transactions[0].hash).toBe(record("", 32).hash);
    expect(body.transactions[0].gas_used).toBe("0x1");
    const all = await call(service, "GET", `${instancePath}/transactions?perPage=100`, { as: "bob" });
    expect(all.body.transactions).toHaveLength(32);
    const page2 = await call(service, "GET", `${instancePath}/transactions?page=2&perPage=10`, { as: "bob" });
    expect(page2.body.transactions.map((t: Transaction) => t.hash)).toEqual(all.body.transactions.slice(10, 20).map((t: Transaction) => t.hash));
  });

  test.each([
    ["status=failed", 1],
    ["category=cheatcode", 1],
    ["kind=create", 1],
    [`from=${BOB}`, 1],
    [`from=${ALICE.toUpperCase().replace("0X", "0x")}`, 31],
    [`to=${BOB}&status=success&category=transaction&kind=call`, 30],
  ])("filters by %s", async (query, count) => {
    const { status, body } = await call(service, "GET", `${instancePath}/transactions?perPage=100&${query}`, { as: "alice" });
    expect(status).toBe(200);
    expect(body.transactions).toHaveLength(count);
  });

  test.each(["status=pending", "category=x", "kind=delegate", "from=0x12", "to=abc", "page=0", "perPage=101", "colour=red"])("400 for %s", async (query) => {
    expectErrorBody(await call(service, "GET", `${instancePath}/transactions?${query}`, { as: "alice" }), 400, "bad_request");
  });

  test("404 rid:vnet for an unknown environment or instance; 404 for an outsider; 401 anonymous", async () => {
    const wrongInstance = await call(service, "GET", `${base}/${environment.id}/instance/00000000-0000-4000-8000-000000000000/transactions`, { as: "alice" });
    expectErrorBody(wrongInstance, 404, "resource_not_found");
    expect(wrongInstance.body.error.data.rid).toBe("rid:vnet");
    expectErrorBody(await call(service, "GET", `${base}/00000000-0000-4000-8000-000000000000/instance/${environment.active_instance.id}/transactions`, { as: "alice" }), 404, "resource_not_found");
    expectErrorBody(await call(service, "GET", `${instancePath}/transactions`, { as: "outsider" }), 404, "resource_not_found");
    expectErrorBody(await call(service, "GET", `${instancePath}/transactions`, { as: "carol" }), 403, "insufficient_permissions");
    expectErrorBody(await call(service, "GET", `${instancePath}/transactions`), 401, "unauthorized");
  });
});

describe("GET .../transactions/{txHash}", () => {
  test("returns { transaction }; hashes match case-insensitively", async () => {
    const hash = record("", 31).hash;
    const { status, body } = await call(service, "GET", `${instancePath}/transactions/${hash.toUpperCase().replace("0X", "0x")}`, { as: "alice" });
    expect(status).toBe(200);
    expect(body.transaction).toMatchObject({ hash, status: "failed", kind: "create", to: null, contract_address: ALICE });
  });

  test("404 for an unknown hash, 400 for a malformed one", async () => {
    expectErrorBody(await call(service, "GET", `${instancePath}/transactions/0x${"f".repeat(64)}`, { as: "alice" }), 404, "resource_not_found");
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
    expectErrorBody(await call(service, "POST", vnetPath(), { as: "alice", body: { callArgs: { from: ALICE, value: 1 } } }), 400, "bad_request");
    expectErrorBody(await call(service, "POST", `${vnetPath()}/simulate`, { as: "alice", body: { blockNumber: "latest" } }), 400, "bad_request");
    const other = `${instancePath}/vnet/00000000-0000-4000-8000-000000000000/transactions`;
    expectErrorBody(await call(service, "POST", other, { as: "alice", body: { callArgs: { from: ALICE } } }), 404, "resource_not_found");
    expectErrorBody(await call(service, "POST", vnetPath(), { as: "bob", body: { callArgs: { from: ALICE } } }), 403, "insufficient_permissions");
    expectErrorBody(await call(service, "POST", `${vnetPath()}/simulate`, { body: { callArgs: { from: ALICE } } }), 401, "unauthorized");
  });
});

describe("simulations without a chain engine", () => {
  const project = "/v1/account/acme/project/demo";

  test("project simulate: 402 for a valid request, 400 for an unsupported network or a bad body", async () => {
    expectErrorBody(await call(service, "POST", `${project}/simulate`, { as: "alice", body: { network_id: "1", from: ALICE, to: BOB, input: "0x" } }), 402, "request_failed");
    const unsupported = await call(service, "POST", `${project}/simulate`, { as: "alice", body: { network_id: "777", from: ALICE } });
    expectErrorBody(unsupported, 400, "bad_request");
    expect(unsupported.body.error.data).toMatchObject({ field: "/network_id", rid: "rid:network" });
    expectErrorBody(await call(service, "POST", `${project}/simulate`, { as: "alice", body: { network_id: "1", from: ALICE, gas: "21000" } }), 400, "bad_request");
    expectErrorBody(await call(service, "POST", `${project}/simulate`, { as: "bob", body: { network_id: "1", from: ALICE } }), 403, "insufficient_permissions");
  });

  test("list simulations: empty, paginated, 400 for bad pages, 404 outsider", async () => {
    const { status, body } = await call(service, "GET", `${project}/simulations?page=1&perPage=5`, { as: "bob" });
    expect(status).toBe(200);
    expect(body).toEqual({ simulations: [] });
    expectErrorBody(await call(service, "GET", `${project}/simulations?perPage=0`, { as: "bob" }), 400, "bad_request");
    expectErrorBody(await call(service, "GET", `${project}/simulations`, { as: "outsider" }), 404, "resource_not_found");
  });

  test("vnet simulate: 402 for a vnet of the project, 404 for one of another project or unknown", async () => {
    const vnetId = environment.active_instance.vnets[0].id;
    expectErrorBody(await call(service, "POST", `${project}/vnets/${vnetId}/transactions/simulate`, { as: "alice", body: { callArgs: { from: ALICE } } }), 402, "request_failed");
    const elsewhere = await call(service, "POST", `/v1/account/alice/project/sandbox/vnets/${vnetId}/transactions/simulate`, { as: "alice", body: {} });
    expectErrorBody(elsewhere, 404, "resource_not_found");
    expect(elsewhere.body.error.data.rid).toBe("rid:vnet");
    expectErrorBody(await call(service, "POST", `${project}/vnets/not-a-uuid/transactions/simulate`, { as: "alice", body: {} }), 400, "bad_request");
  });
});
