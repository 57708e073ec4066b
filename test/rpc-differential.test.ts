/**
 * The RPC URLs answer what anvil's own HTTP port answers (docs/service.md "RPC URLs"): every request of a corpus
 * (valid calls, malformed params, batches, notifications, odd ids, bodies padded with whitespace) is sent as the
 * same bytes to an environment's Admin RPC URL and to the HTTP port of the anvil behind it, and the answers must be
 * the same JSON. Through the Public RPC URL, `eth_`, `net_` and `web3_` methods answer the same, every other method
 * is -32601. A body that is not UTF-8 JSON is the spec's -32700, as anvil's is.
 */
import type { Environment } from "../lib/api";
import type { BackendChainEngine } from "../lib/service/chains/engine";
import { startTestService, type TestService } from "./helpers/service";
import { call } from "./helpers/http";

const ADDRESS = "0x000000000000000000000000000000000000beef";
const HASH = "0x" + "00".repeat(32);
const json = (value: unknown) => JSON.stringify(value);
const req = (id: unknown, method: string, params?: unknown) => ({ jsonrpc: "2.0", id, method, ...(params !== undefined && { params }) });

/** The corpus: a name and the exact bytes sent. */
const CORPUS: readonly (readonly [string, string | Buffer])[] = [
  ["eth_chainId", json(req(1, "eth_chainId", []))],
  ["eth_chainId without params", json(req(1, "eth_chainId"))],
  ["eth_blockNumber, string id", json(req("abc", "eth_blockNumber", []))],
  ["eth_getBalance", json(req(2, "eth_getBalance", [ADDRESS, "latest"]))],
  ["eth_getBalance, one param short", json(req(3, "eth_getBalance", [ADDRESS]))],
  ["eth_getBalance, no params", json(req(4, "eth_getBalance", []))],
  ["eth_getBalance, params left out", json(req(5, "eth_getBalance"))],
  ["eth_getBalance, params an object", json(req(6, "eth_getBalance", { address: ADDRESS }))],
  ["eth_getBalance, a bad address", json(req(7, "eth_getBalance", ["0x12", "latest"]))],
  ["eth_getBlockByNumber", json(req(8, "eth_getBlockByNumber", ["0x0", false]))],
  ["eth_getBlockByNumber, the flag left out", json(req(9, "eth_getBlockByNumber", ["latest"]))],
  ["eth_getLogs with blockHash and fromBlock", json(req(10, "eth_getLogs", [{ blockHash: HASH, fromBlock: "0x0" }]))],
  ["eth_getTransactionByHash, a short hash", json(req(11, "eth_getTransactionByHash", ["0x12"]))],
  ["eth_call, bad data", json(req(12, "eth_call", [{ to: ADDRESS, data: "0xzz" }, "latest"]))],
  ["eth_call to an empty account", json(req(13, "eth_call", [{ to: ADDRESS, data: "0x" }, "latest"]))],
  ["eth_estimateGas", json(req(14, "eth_estimateGas", [{ to: ADDRESS, value: "0x0" }]))],
  ["eth_getCode", json(req(15, "eth_getCode", [ADDRESS, "latest"]))],
  ["eth_gasPrice", json(req(16, "eth_gasPrice", []))],
  ["eth_feeHistory, bad count", json(req(17, "eth_feeHistory", ["zz", "latest", []]))],
  ["net_version", json(req(18, "net_version", []))],
  ["web3_clientVersion", json(req(19, "web3_clientVersion", []))],
  ["web3_sha3", json(req(20, "web3_sha3", ["0x68656c6c6f"]))],
  ["an unknown eth_ method", json(req(21, "eth_noSuchMethod", []))],
  ["an unknown method", json(req(22, "foo_bar", []))],
  ["anvil_nodeInfo", json(req(23, "anvil_nodeInfo", []))],
  ["anvil_setBalance to what it is", json(req(24, "anvil_setBalance", [ADDRESS, "0x0"]))],
  ["anvil_setBalance, a param short", json(req(25, "anvil_setBalance", [ADDRESS]))],
  ["id 0", json(req(0, "eth_chainId", []))],
  ["id -1", json(req(-1, "eth_chainId", []))],
  ["id 1.5", json(req(1.5, "eth_chainId", []))],
  ["id null", json(req(null, "eth_chainId", []))],
  ["id empty string", json(req("", "eth_chainId", []))],
  ["id with an escape", '{"jsonrpc":"2.0","id":"a\\"b","method":"eth_chainId","params":[]}'],
  ["id with a non-ASCII character", json(req("é∑", "eth_chainId", []))],
  ["a batch", json([req(1, "eth_chainId", []), req("two", "eth_blockNumber", [])])],
  ["a batch with malformed params", json([req(1, "eth_getBalance", [ADDRESS]), req(2, "eth_chainId", [])])],
  ["a batch of one", json([req(1, "net_version", [])])],
  ["a batch with an unknown method", json([req(1, "eth_chainId", []), req(2, "eth_noSuchMethod", [])])],
  ["leading whitespace", "   \n\t" + json(req(30, "eth_chainId", []))],
  ["trailing whitespace", json(req(31, "eth_chainId", [])) + " ".repeat(200)],
  ["whitespace inside", '{ "jsonrpc" : "2.0" , "id" : 32 , "method" : "eth_chainId" , "params" : [ ] }'],
  ["a padded batch", "\n" + json([req(33, "eth_chainId", [])]) + "\r\n"],
  ["a notification", json({ jsonrpc: "2.0", method: "eth_chainId", params: [] })],
  ["a notification with malformed params", json({ jsonrpc: "2.0", method: "eth_getBalance" })],
  ["a batch with a notification", json([{ jsonrpc: "2.0", method: "eth_chainId" }, req(34, "eth_chainId", [])])],
  [
    "a batch of notifications",
    json([
      { jsonrpc: "2.0", method: "eth_chainId" },
      { jsonrpc: "2.0", method: "net_version" },
    ]),
  ],
  ["params null", json(req(35, "eth_getBalance", null))],
  ["params a string", json(req(36, "eth_chainId", "x"))],
  ["jsonrpc 1.0", json({ ...req(37, "eth_chainId", []), jsonrpc: "1.0" })],
  ["no jsonrpc member", json({ id: 38, method: "eth_chainId", params: [] })],
  ["a method that is not a string", json(req(39, 5 as unknown as string, []))],
  ["a member of the caller's own", json({ ...req(40, "eth_chainId", []), extra: 1 })],
  ["id true", json(req(true, "eth_chainId", []))],
  ["an empty batch", "[]"],
  ["a batch with an entry that is not an object", json([req(41, "eth_chainId", []), 5])],
  ["a batch with an invalid object entry first", json([{ ...req(42, "eth_chainId", []), extra: 1 }, req(43, "eth_chainId", [])])],
  ["a number", "42"],
  // Writes take the parsed path to anvil's IPC socket; a malformed one is asked again on the HTTP port, alone.
  ["eth_sendRawTransaction, not a transaction", json(req(44, "eth_sendRawTransaction", ["0x1234"]))],
  ["eth_sendRawTransaction, params left out", json(req(45, "eth_sendRawTransaction"))],
  ["anvil_setNonce, a param short", json(req(46, "anvil_setNonce", [ADDRESS]))],
  [
    "a batch of a write and a malformed write",
    json([req(47, "anvil_setBalance", [ADDRESS, "0x0"]), req(48, "anvil_setBalance", [ADDRESS]), req(49, "eth_chainId", [])]),
  ],
];

/** Bodies that are not UTF-8 JSON: both answer -32700 (the messages are each one's own). */
const NOT_JSON: readonly (readonly [string, string | Buffer])[] = [
  [
    "invalid UTF-8 in a batch",
    Buffer.concat([
      Buffer.from('[{"jsonrpc":"2.0","id":1,"method":"web3_sha3","params":["'),
      Buffer.from([0xff, 0xfe]),
      Buffer.from('"]}]'),
    ]),
  ],
  [
    "invalid UTF-8 in a call",
    Buffer.concat([Buffer.from('{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":["'), Buffer.from([0xc3]), Buffer.from('"]}')]),
  ],
  ["truncated JSON", '{"jsonrpc":"2.0","id":1,'],
];

let service: TestService;
let environment: Environment;
let anvilUrl: string;
const urlOf = (name: string) => environment.active_instance.vnets[0].rpcs.find((r) => r.name === name)!.url;

async function post(url: string, body: string | Buffer): Promise<{ status: number; json: any }> {
  const response = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body });
  const text = await response.text();
  return { status: response.status, json: text === "" ? "" : JSON.parse(text) };
}

beforeAll(async () => {
  service = await startTestService();
  environment = (
    await call(service, "POST", "/public/v1/account/acme/project/demo/environments", {
      as: "alice",
      body: { display_name: "differential", network_configs: [{ network_id: "1", chain_config_overrides: { chain_id: "7041" } }] },
    })
  ).body;
  await post(urlOf("Admin RPC"), json(req(1, "eth_chainId", [])));
  const engine = service.app.service.engine as BackendChainEngine;
  anvilUrl = engine.runningNode(environment.active_instance.vnets[0].id)!.rpc.url;
});
afterAll(() => service?.close());

describe("through the Admin RPC URL", () => {
  test.each(CORPUS)("%s: the same answer as anvil's HTTP port", async (_name, body) => {
    const [ours, anvil] = [await post(urlOf("Admin RPC"), body), await post(anvilUrl, body)];
    expect(ours).toEqual(anvil);
  });

  test.each(NOT_JSON)("%s: the spec's -32700 (anvil's HTTP port refuses it too, with -32600)", async (_name, body) => {
    const [ours, anvil] = [await post(urlOf("Admin RPC"), body), await post(anvilUrl, body)];
    expect(ours).toEqual({
      status: 200,
      json: { jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error: the body is not JSON" } },
    });
    expect(anvil.json).toEqual({ jsonrpc: "2.0", id: null, error: { code: -32600, message: "Invalid request" } });
  });
});

describe("through the Public RPC URL", () => {
  /** Whether the Public RPC takes a method: `eth_`, `net_` and `web3_` ones. */
  const isPublic = (method: unknown) => typeof method === "string" && /^(eth|net|web3)_/.test(method);
  /** The Public RPC's answer where anvil answers `answer` to one of the `sent` requests: -32601 for a method it does not take. */
  function publicAnswer(sent: any[], answer: any): any {
    if (answer?.error?.code === -32600) return answer;
    const request = sent.find((r) => r !== null && typeof r === "object" && r.id === answer.id && r.id !== undefined);
    if (!request || isPublic(request.method)) return answer;
    return {
      jsonrpc: "2.0",
      id: answer.id,
      error: {
        code: -32601,
        message: `the method ${request.method} does not exist or is not available on the Public RPC (use the Admin RPC)`,
      },
    };
  }

  test.each(CORPUS)("%s: anvil's answer for eth_, net_, web3_ methods, -32601 for the rest", async (_name, body) => {
    const [ours, anvil] = [await post(urlOf("Public RPC"), body), await post(anvilUrl, body)];
    const sent = JSON.parse(body.toString());
    const requests = Array.isArray(sent) ? sent : [sent];
    const expected = Array.isArray(anvil.json)
      ? anvil.json.map((a: any) => publicAnswer(requests, a))
      : anvil.json === ""
        ? ""
        : publicAnswer(requests, anvil.json);
    expect(ours).toEqual({ status: anvil.status, json: expected });
  });
});
