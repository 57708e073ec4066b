/**
 * No call can freeze a chain (docs/service.md "RPC URLs"): what reaches anvil is JSON the service wrote, never the
 * caller's bytes. anvil's IPC socket stalls on whitespace left after a request and drops frames that are not UTF-8;
 * each of the requests below once froze a chain for every caller, sent once to a Public RPC URL. Each is now
 * answered or refused within 5 s, and the chain answers the next call, Admin writes included. Over WebSocket too.
 */
import WebSocket from "ws";
import type { Environment } from "../lib/api";
import { startTestService, type TestService } from "./helpers/service";
import { call } from "./helpers/http";

const WITHIN_MS = 5_000;
const ADDRESS = "0x000000000000000000000000000000000000c0de";
const chainId = (id: number) => JSON.stringify({ jsonrpc: "2.0", id, method: "eth_chainId", params: [] });

/** The three freezing requests of a chain: trailing spaces, leading spaces, a batch with invalid UTF-8. */
const FREEZERS: readonly (readonly [string, Buffer, unknown])[] = [
  ["200 spaces after a call", Buffer.from(chainId(1) + " ".repeat(200)), { jsonrpc: "2.0", id: 1, result: "0x1b9f" }],
  ["spaces before a call", Buffer.from(" ".repeat(64) + chainId(2)), { jsonrpc: "2.0", id: 2, result: "0x1b9f" }],
  [
    "a batch with invalid UTF-8",
    Buffer.concat([
      Buffer.from(`[${chainId(3)},{"jsonrpc":"2.0","id":4,"method":"web3_sha3","params":["`),
      Buffer.from([0xff, 0xc3]),
      Buffer.from('"]}]'),
    ]),
    { jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error: the body is not JSON" } },
  ],
];

let service: TestService;
let environment: Environment;
const urlOf = (name: string) => environment.active_instance.vnets[0].rpcs.find((r) => r.name === name)!.url;

/** POSTs a body; fails if no answer comes within 5 s. */
async function post(url: string, body: string | Buffer): Promise<unknown> {
  const response = await fetch(url, { method: "POST", body, signal: AbortSignal.timeout(WITHIN_MS) });
  return response.json();
}

/** The chain answers a read and an Admin write after it, each within 5 s. */
async function expectChainAnswers(balance: string): Promise<void> {
  expect(await post(urlOf("Public RPC"), chainId(10))).toEqual({ jsonrpc: "2.0", id: 10, result: "0x1b9f" });
  const write = JSON.stringify({ jsonrpc: "2.0", id: 11, method: "anvil_setBalance", params: [ADDRESS, balance] });
  expect(await post(urlOf("Admin RPC"), write)).toEqual({ jsonrpc: "2.0", id: 11, result: null });
  const read = JSON.stringify({ jsonrpc: "2.0", id: 12, method: "eth_getBalance", params: [ADDRESS, "latest"] });
  expect(await post(urlOf("Public RPC"), read)).toEqual({ jsonrpc: "2.0", id: 12, result: balance });
}

beforeAll(async () => {
  service = await startTestService();
  environment = (
    await call(service, "POST", "/public/v1/account/acme/project/demo/environments", {
      as: "alice",
      body: { display_name: "canonical bodies", network_configs: [{ network_id: "1", chain_config_overrides: { chain_id: "7071" } }] },
    })
  ).body;
  await expectChainAnswers("0x1");
});
afterAll(() => service?.close());

test.each(FREEZERS)("%s, to a Public RPC URL: answered within 5 s, and the chain answers the next calls", async (_name, body, answer) => {
  expect(await post(urlOf("Public RPC"), body)).toEqual(answer);
  await expectChainAnswers(`0x${(Math.floor(Math.random() * 1e9) + 2).toString(16)}`);
});

test("the three at once, many times over, on kept-alive connections: every one answered, and the chain still answers", async () => {
  const answers = await Promise.all(
    Array.from({ length: 30 }, (_, i) => FREEZERS[i % FREEZERS.length]).map(([, body]) => post(urlOf("Public RPC"), body)),
  );
  expect(answers).toHaveLength(30);
  await expectChainAnswers("0x7");
});

test("over the Public websocket RPC: padded messages and a binary one that is not UTF-8 are answered, then the next call", async () => {
  const socket = new WebSocket(urlOf("Public websocket RPC"));
  await new Promise((resolve, reject) => socket.once("open", resolve).once("error", reject));
  const answers: unknown[] = [];
  const next = () =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("no answer within 5 s")), WITHIN_MS);
      socket.once("message", (data) => {
        clearTimeout(timer);
        resolve(JSON.parse(data.toString()));
      });
    });
  try {
    for (const [, body] of FREEZERS.slice(0, 2)) {
      socket.send(body.toString());
      answers.push(await next());
    }
    socket.send(FREEZERS[2][1], { binary: true });
    answers.push(await next());
    socket.send(chainId(20));
    answers.push(await next());
    expect(answers).toEqual([...FREEZERS.map(([, , answer]) => answer), { jsonrpc: "2.0", id: 20, result: "0x1b9f" }]);
  } finally {
    socket.close();
  }
});
