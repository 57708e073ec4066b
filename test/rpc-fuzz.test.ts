/**
 * A property-based fuzz of the RPC pipeline (fast-check) against the real service and a real anvil chain, over HTTP
 * and WebSocket: hostile JSON (deep nesting, objects where strings go, `__proto__` members, huge numbers, invalid
 * UTF-8, batches of all of these). Whatever comes in, the service stays up and every answer is well-formed JSON-RPC
 * (or the spec's error body for what is no call at all). `FC_NUM_RUNS` raises the count for a longer run by hand.
 */
import { isUtf8 } from "node:buffer";
import fc from "fast-check";
import { startTestService, type TestService } from "./helpers/service";
import { CollectingSocket, createEnvironment, isRpcAnswer, post, rpcText, urlOf } from "./helpers/rpc-callers";
import type { Environment } from "../lib/api";

const RUNS = Number(process.env.FC_NUM_RUNS ?? 60);

/** Methods a caller may name: real reads, subscriptions and filters, admin methods the Public URL refuses, made-up ones. */
const method = fc.oneof(
  fc.constantFrom(
    "eth_chainId",
    "eth_blockNumber",
    "eth_getBalance",
    "eth_call",
    "eth_getLogs",
    "eth_subscribe",
    "eth_unsubscribe",
    "eth_newFilter",
    "eth_newPendingTransactionFilter",
    "eth_uninstallFilter",
    "eth_getFilterChanges",
    "net_version",
    "anvil_setBalance",
    "evm_mine",
    "ETH_CHAINID",
    "eth_chainId\u0000",
  ),
  fc.string({ maxLength: 40 }),
);

/** A value nested `depth` deep, as arrays or objects. */
const deep = fc
  .tuple(fc.integer({ min: 100, max: 8_000 }), fc.boolean())
  .map(([depth, arrays]) => (arrays ? "[".repeat(depth) + "]".repeat(depth) : '{"a":'.repeat(depth) + "1" + "}".repeat(depth)));

/** Hostile JSON values as text: huge numbers, `__proto__`, objects with toString, strings, nesting. */
const value: fc.Arbitrary<string> = fc.oneof(
  fc.json({ maxDepth: 4 }),
  deep,
  fc.constantFrom(
    "1e400",
    "-1e400",
    "123456789012345678901234567890123456789",
    "0.0000000000000000000000000000001",
    '{"__proto__":{"polluted":1}}',
    '{"toString":1,"valueOf":2}',
    '{"constructor":{"prototype":{"x":1}}}',
    '"0x' + "f".repeat(10_000) + '"',
    "null",
    "[]",
    "{}",
  ),
);

/** One request's text: its members drawn from hostile values, sometimes missing, sometimes extra. */
const request = fc
  .record({
    jsonrpc: fc.oneof(fc.constant('"2.0"'), value),
    id: fc.oneof(
      fc.integer().map(String),
      fc.string({ maxLength: 8 }).map((s) => JSON.stringify(s)),
      value,
    ),
    method: fc.oneof(
      method.map((m) => JSON.stringify(m)),
      value,
    ),
    params: fc.oneof(
      fc.array(value, { maxLength: 4 }).map((items) => `[${items.join(",")}]`),
      value,
    ),
    extra: fc.option(fc.constantFrom('"__proto__":{"x":1}', '"extra":1', '"id":2'), { nil: undefined }),
  })
  .map(
    ({ jsonrpc, id, method, params, extra }) =>
      `{"jsonrpc":${jsonrpc},"id":${id},"method":${method},"params":${params}${extra ? `,${extra}` : ""}}`,
  );

/** A body: one request, a batch, bare hostile JSON, or bytes that are not UTF-8 JSON. */
const body: fc.Arbitrary<Buffer> = fc.oneof(
  request.map((text) => Buffer.from(text)),
  fc.array(fc.oneof(request, value), { minLength: 0, maxLength: 20 }).map((items) => Buffer.from(`[${items.join(",")}]`)),
  value.map((text) => Buffer.from(text)),
  fc
    .uint8Array({ maxLength: 200 })
    .map((bytes) => Buffer.concat([Buffer.from('{"jsonrpc":"2.0","id":1,"method":"'), Buffer.from(bytes), Buffer.from('"}')])),
  fc.constantFrom(
    Buffer.from([0xff, 0xfe, 0x7b, 0x7d]),
    Buffer.from('{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":["\xc3\x28"]}', "latin1"),
  ),
);

/** Whether a body's parsed answer is well-formed JSON-RPC: one answer, or a non-empty batch of them. */
function wellFormed(answer: unknown): boolean {
  if (Array.isArray(answer)) return answer.length > 0 && answer.every(isRpcAnswer);
  return isRpcAnswer(answer);
}

let service: TestService;
let environment: Environment;
beforeAll(async () => {
  service = await startTestService();
  environment = await createEnvironment(service, "fuzzed", "7701");
});
afterAll(() => service.close());

const stillUp = async () => expect((await post(urlOf(environment, "Public RPC"), rpcText("up", "eth_chainId"))).json.result).toBe("0x1e15");

test(`HTTP: ${RUNS} hostile bodies to the Public RPC URL; each answer is JSON-RPC (or nothing for notifications)`, async () => {
  await fc.assert(
    fc.asyncProperty(body, async (bytes) => {
      const answer = await post(urlOf(environment, "Public RPC"), bytes);
      if (answer.status === 204) return answer.text === "";
      return answer.status === 200 && wellFormed(answer.json);
    }),
    { numRuns: RUNS },
  );
  await stillUp();
}, 600_000);

test(`WebSocket: ${RUNS} hostile messages on one connection; every message that comes back is JSON-RPC`, async () => {
  const socket = await CollectingSocket.open(urlOf(environment, "Public websocket RPC"));
  let sentinel = 0;
  await fc.assert(
    fc.asyncProperty(body, async (bytes) => {
      // A text frame must be UTF-8 (else the WebSocket protocol closes the connection): other bytes go as binary.
      socket.socket.send(isUtf8(bytes) ? bytes.toString() : bytes, { binary: !isUtf8(bytes) });
      // A call after it: its answer comes once the message before it has been read (answers to calls may come later).
      sentinel += 1;
      const answer = await socket.request(rpcText(`sentinel-${sentinel}`, "eth_chainId"), `sentinel-${sentinel}`);
      return answer !== null && socket.closedWith === null;
    }),
    { numRuns: RUNS },
  );
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const notifications = socket.messages.filter((m) => !Array.isArray(m) && m.method === "eth_subscription");
  const answers = socket.messages.filter((m) => !notifications.includes(m));
  expect(answers.filter((m) => !wellFormed(m))).toEqual([]);
  socket.close();
  await stillUp();
}, 600_000);
