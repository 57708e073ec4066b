/**
 * Offline, a transaction that would read an account nobody recorded (ether to a fresh address, a deploy) is answered
 * at once with a JSON-RPC error naming what was never recorded, as a read is (docs/forking.md): it never sits in the
 * chain's pool (where anvil would keep it unmined, and `eth_sendTransactionSync` would wait for it until its
 * timeout), it holds up none of the sender's later transactions, and nothing records or journals it. Every way a
 * transaction is sent is covered: `eth_sendTransaction`, `eth_sendTransactionSync`, `eth_sendRawTransaction` on the
 * Admin RPC URL, and the API's send-transaction endpoint. Against real anvil, forking an upstream anvil recorded live.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { NOT_RECORDED } from "../lib/service/chains/fork";
import { adminRpc, call } from "./helpers/http";
import { ALICE, TOKEN, startForkUpstream, type ForkUpstream } from "./helpers/fork-upstream";
import { ENVIRONMENTS, recordsOf, type CreatedEnvironment } from "./helpers/fixtures";
import { startTestService, type TestService } from "./helpers/service";
import { encodeDeployData, encodeFunctionData, privateKeyToAccount } from "./helpers/viem";

jest.setTimeout(240_000);

/** anvil's well-known first test key: its account is funded on the environment, and signs raw transactions. */
const SIGNER_KEY = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";
const SIGNER = privateKeyToAccount(SIGNER_KEY);
/** An address neither the upstream nor the live run ever read. */
const NOBODY = "0x00000000000000000000000000000000000fe5a1";
/** How long a refused send may take on a loaded machine (anvil's own wait for a receipt is 30 s). */
const PROMPT_MS = 10_000;

let upstream: ForkUpstream;
let root: string;
let offline: TestService;
let environment: CreatedEnvironment;
let url: string;
const running: TestService[] = [];

const accounts = [ALICE, SIGNER.address.toLowerCase()].map((address) => ({ address, balance: "0x56bc75e2d63100000" }));

async function create(service: TestService): Promise<CreatedEnvironment> {
  const created = await call(service, "POST", ENVIRONMENTS, {
    as: "alice",
    body: { display_name: "offline sends", slug: "offline-sends", network_configs: [{ network_id: "1", accounts }] },
  });
  if (created.status !== 200) throw new Error(`create: ${created.status} ${created.text}`);
  return created.body as CreatedEnvironment;
}

/** One JSON-RPC call: its whole answer, and how long it took. */
async function ask(method: string, params: unknown[]): Promise<{ result?: any; error?: { code: number; message: string }; ms: number }> {
  const started = Date.now();
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 7, method, params }),
  });
  return { ...((await response.json()) as object), ms: Date.now() - started };
}

async function rpc<T = any>(method: string, params: unknown[] = []): Promise<T> {
  const answer = await ask(method, params);
  if (answer.error) throw new Error(`${method}: ${answer.error.message}`);
  return answer.result as T;
}

/** The sender's next transaction is mined at once: nothing it sent before holds it up. */
async function nextIsMined(from: string): Promise<void> {
  const head = BigInt(await rpc<string>("eth_blockNumber"));
  const receipt = await rpc("eth_sendTransactionSync", [{ from, to: ALICE, value: "0x1" }]);
  expect([receipt.status, BigInt(receipt.blockNumber)]).toEqual(["0x1", head + 1n]);
}

async function poolIsEmpty(): Promise<void> {
  const status = await rpc<{ pending: string; queued: string }>("txpool_status");
  expect([BigInt(status.pending), BigInt(status.queued)]).toEqual([0n, 0n]);
}

const NEVER_RECORDED =
  /^the transaction was not sent: never recorded: eth_get\w+ of account 0x[0-9a-f]{40} at block \d+ of network 1; the service is offline/;

beforeAll(async () => {
  upstream = await startForkUpstream();
  root = mkdtempSync(join(tmpdir(), "chainform-fork-sends-"));
  const cacheDir = join(root, "fork-cache");
  // Recorded live: the fork point, its block inputs, and the funded accounts.
  const live = await startTestService({ dataDir: join(root, "live"), forkUrls: { "1": upstream.url }, forkCacheDir: cacheDir });
  const recorded = await create(live);
  // A read of ALICE's tokens records the token's code and her slot, for the transfers offline.
  const read = await fetch(adminRpc(recorded, 0), {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "eth_call",
      params: [
        { to: upstream.history.token, data: encodeFunctionData({ abi: TOKEN.abi, functionName: "balanceOf", args: [ALICE] }) },
        "latest",
      ],
    }),
  });
  expect(BigInt(((await read.json()) as { result: string }).result)).toBe(300n);
  await live.close();
  await upstream.close();
  offline = await startTestService({ dataDir: join(root, "offline"), forkCacheDir: cacheDir, offline: true });
  running.push(offline);
  environment = await create(offline);
  url = adminRpc(environment, 0);
});

afterAll(async () => {
  for (const service of running) await service.close();
  await upstream?.close();
  rmSync(root, { recursive: true, force: true });
});

const DEPLOY = encodeDeployData({ abi: TOKEN.abi, bytecode: TOKEN.bytecode, args: ["Off", "OFF", 18, 1n] });

test.each([
  ["eth_sendTransaction", "ether to a fresh address", { to: NOBODY, value: "0x2a" }],
  ["eth_sendTransactionSync", "ether to a fresh address", { to: NOBODY, value: "0x2a" }],
  ["eth_sendTransactionSync", "a deploy (a new address)", { data: DEPLOY }],
  ["eth_sendTransaction", "ether to a fresh address with its gas given", { to: NOBODY, value: "0x2a", gas: "0x5208" }],
])("offline, %s of %s is a named error at once; nothing stays in the pool, nothing is recorded", async (method, _what, tx) => {
  const head = await rpc<string>("eth_blockNumber");
  const records = await recordsOf(offline, environment);
  const answer = await ask(method, [{ from: ALICE, ...tx }]);
  expect(answer.result).toBeUndefined();
  expect(answer.error).toEqual({ code: NOT_RECORDED, message: expect.stringMatching(NEVER_RECORDED) });
  expect(answer.ms).toBeLessThan(PROMPT_MS);
  await poolIsEmpty();
  expect(await rpc<string>("eth_blockNumber")).toBe(head);
  expect(await recordsOf(offline, environment)).toEqual(records);
  await nextIsMined(ALICE);
});

test("offline, eth_sendRawTransaction to an account never recorded is a named error at once; the signer's next one is mined", async () => {
  const nonce = Number(await rpc<string>("eth_getTransactionCount", [SIGNER.address, "latest"]));
  const signed = await SIGNER.signTransaction({
    chainId: 1,
    nonce,
    to: NOBODY,
    value: 42n,
    gas: 21_000n,
    maxFeePerGas: 100_000_000_000n,
    maxPriorityFeePerGas: 1n,
  });
  const answer = await ask("eth_sendRawTransaction", [signed]);
  expect(answer.error?.message).toMatch(NEVER_RECORDED);
  expect(answer.ms).toBeLessThan(PROMPT_MS);
  await poolIsEmpty();
  // The same nonce is free: the refused transaction took nothing.
  expect(Number(await rpc<string>("eth_getTransactionCount", [SIGNER.address, "pending"]))).toBe(nonce);
  await nextIsMined(SIGNER.address);
});

test("offline, the API's send-transaction endpoint answers 400 naming what was never recorded, with gas given or not", async () => {
  const vnet = environment.active_instance.vnets[0];
  const path = `${ENVIRONMENTS}/${environment.id}/instance/${environment.active_instance.id}/vnet/${vnet.id}/transactions`;
  const before = await recordsOf(offline, environment);
  for (const gas of [undefined, "0x5208"]) {
    const started = Date.now();
    const sent = await call(offline, "POST", path, {
      as: "alice",
      body: { callArgs: { from: ALICE, to: NOBODY, value: "0x2a", ...(gas && { gas }) } },
    });
    expect([sent.status, sent.body?.error?.message]).toEqual([400, expect.stringMatching(NEVER_RECORDED)]);
    expect(Date.now() - started).toBeLessThan(PROMPT_MS);
  }
  await poolIsEmpty();
  expect(await recordsOf(offline, environment)).toEqual(before);
  await nextIsMined(ALICE);
});

test("offline, a transaction that reads only what was recorded is sent and mined as before, and a reverting one still mines", async () => {
  const token = upstream.history.token;
  const head = BigInt(await rpc<string>("eth_blockNumber"));
  // ALICE holds 300 tokens at the fork point: a transfer to herself reads only her recorded slot.
  const ok = await rpc("eth_sendTransactionSync", [
    { from: ALICE, to: token, data: encodeFunctionData({ abi: TOKEN.abi, functionName: "transfer", args: [ALICE, 1n] }) },
  ]);
  // More than she holds reverts: the check lets the chain say so, and the reverted transaction is mined.
  const reverted = await rpc("eth_sendTransactionSync", [
    {
      from: ALICE,
      to: token,
      gas: "0x30000",
      data: encodeFunctionData({ abi: TOKEN.abi, functionName: "transfer", args: [ALICE, 10n ** 30n] }),
    },
  ]);
  expect([ok.status, reverted.status, BigInt(reverted.blockNumber)]).toEqual(["0x1", "0x0", head + 2n]);
  await poolIsEmpty();
});
