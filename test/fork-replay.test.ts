/**
 * Record and replay (docs/forking.md): a service forking a live upstream records every answer in the fork cache;
 * with the upstream gone, a new service run with `offline` answers the same reads with the same bytes, and a read
 * nobody recorded is a JSON-RPC error naming the method, the account and the block, never a silent zero. A forked
 * Virtual Environment's local changes survive restarts, with its upstream and with recordings only.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Environment } from "../lib/api";
import { call, adminRpc } from "./helpers/http";
import { ALICE, BOB, DEPLOYER, TOKEN, startForkUpstream, type ForkUpstream } from "./helpers/fork-upstream";
import { environmentsPath, serviceRuns, type TestService } from "./helpers/service";
import { encodeFunctionData } from "./helpers/viem";

const CAROL = "0x00000000000000000000000000000000000ca201";
const NOBODY = "0x000000000000000000000000000000000000dead";
const hex = (n: bigint) => `0x${n.toString(16)}`;

let upstream: ForkUpstream;
let root: string;
let cacheDir: string;
let block: bigint;
const { start, stop, closeAll } = serviceRuns();

async function create(service: TestService, networkConfig: Record<string, unknown>): Promise<Environment> {
  const result = await call(service, "POST", environmentsPath(service), {
    as: "alice",
    body: { display_name: "replay", network_configs: [{ network_id: "1", ...networkConfig }] },
  });
  if (result.status !== 200) throw new Error(`create failed: ${result.text}`);
  return result.body as Environment;
}

async function environmentOf(service: TestService): Promise<Environment> {
  return (await call(service, "GET", environmentsPath(service), { as: "alice" })).body.environments[0];
}

/** One call's answer as the bytes the RPC URL sent. */
async function raw(url: string, method: string, params: unknown[]): Promise<string> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 7, method, params }),
  });
  return response.text();
}

const balanceOfCall = (holder: string) => ({
  to: upstream.history.token,
  data: encodeFunctionData({ abi: TOKEN.abi, functionName: "balanceOf", args: [holder] }),
});

/** Reads of state no local change touches: they must answer the same bytes live and replayed. */
const READS: [string, () => unknown[]][] = [
  ["eth_getCode", () => [upstream.history.token, "latest"]],
  ["eth_call", () => [balanceOfCall(BOB), "latest"]],
  ["eth_call", () => [balanceOfCall(DEPLOYER), "latest"]],
  ["eth_getStorageAt", () => [upstream.history.token, "0x0", "latest"]],
  ["eth_getBalance", () => [DEPLOYER, "latest"]],
  ["eth_getTransactionCount", () => [DEPLOYER, "latest"]],
  ["eth_getBlockByNumber", () => [hex(block), false]],
  ["eth_chainId", () => []],
];

async function readAll(url: string): Promise<string[]> {
  const answers: string[] = [];
  for (const [method, params] of READS) answers.push(await raw(url, method, params()));
  return answers;
}

async function tokenBalance(url: string, holder: string): Promise<bigint> {
  const answer = JSON.parse(await raw(url, "eth_call", [balanceOfCall(holder), "latest"]));
  if (answer.error) throw new Error(answer.error.message);
  return BigInt(answer.result);
}

/** Local changes: an ERC-20 balance written into the upstream's token, and a transaction mined on the fork. */
async function changeLocally(url: string): Promise<void> {
  expect(JSON.parse(await raw(url, "tenderly_setErc20Balance", [upstream.history.token, CAROL, "0x2a"])).result).toBeNull();
  await raw(url, "tenderly_setBalance", [ALICE, "0xde0b6b3a7640000"]);
  const data = encodeFunctionData({ abi: TOKEN.abi, functionName: "transfer", args: [CAROL, 5n] });
  const receipt = JSON.parse(await raw(url, "eth_sendTransactionSync", [{ from: ALICE, to: upstream.history.token, data }]));
  expect(receipt.result.status).toBe("0x1");
}

async function expectLocalChanges(url: string): Promise<void> {
  expect(await tokenBalance(url, CAROL)).toBe(47n);
  expect(await tokenBalance(url, ALICE)).toBe(95n);
}

beforeAll(async () => {
  upstream = await startForkUpstream();
  block = upstream.history.aliceFunded;
  root = mkdtempSync(join(tmpdir(), "chainform-fork-replay-"));
  cacheDir = join(root, "fork-cache");
});
afterAll(async () => {
  await closeAll();
  await upstream?.close();
  rmSync(root, { recursive: true, force: true });
});

test("recorded live, replayed offline with the upstream gone: the same bytes; a read never recorded is a named error; local changes survive restarts", async () => {
  const liveDir = join(root, "live");
  const live = await start({ dataDir: liveDir, forkUrls: { "1": upstream.url }, forkCacheDir: cacheDir });
  const environment = await create(live, { block_number: hex(block) });
  const recorded = await readAll(adminRpc(environment));
  expect(JSON.parse(recorded[1]!).result).toBe(`0x${"0".repeat(64)}`); // BOB had nothing at this block
  expect(BigInt(JSON.parse(recorded[2]!).result)).toBe(900n);
  await changeLocally(adminRpc(environment));
  await expectLocalChanges(adminRpc(environment));
  await stop(live);
  // The recordings are a file CI can cache, keyed by network and block, beside the blocks environments pinned.
  expect(readdirSync(join(cacheDir, "1")).sort()).toEqual([`${block}.json`, "pins.json"]);

  // Restart with the upstream: local changes kept.
  const restarted = await start({ dataDir: liveDir, forkUrls: { "1": upstream.url }, forkCacheDir: cacheDir });
  await expectLocalChanges(adminRpc(await environmentOf(restarted)));
  await stop(restarted);

  // The upstream goes away for good.
  const before = upstream.methods.length;
  await upstream.close();

  // Restart from recordings only: local changes kept, the same reads answer the same bytes.
  const offline = await start({ dataDir: liveDir, forkCacheDir: cacheDir, offline: true });
  const offlineUrl = adminRpc(await environmentOf(offline));
  await expectLocalChanges(offlineUrl);
  await stop(offline);

  // Restarted with no fork settings at all, the vnet stays the fork it was (from its recordings), not a fresh chain.
  const unset = await start({ dataDir: liveDir, forkCacheDir: cacheDir });
  const unsetUrl = adminRpc(await environmentOf(unset));
  await expectLocalChanges(unsetUrl);
  expect(await tokenBalance(unsetUrl, DEPLOYER)).toBe(900n);
  const unknown = JSON.parse(await raw(unsetUrl, "eth_getBalance", [NOBODY, "latest"]));
  expect(unknown.error.message).toMatch(/no upstream is configured for network 1 \(--fork 1=URL\)/);
  await stop(unset);

  // A new service (its own data dir) creates the same fork from the recordings: the same bytes.
  const replay = await start({ dataDir: join(root, "replay"), forkUrls: { "1": upstream.url }, forkCacheDir: cacheDir, offline: true });
  const pinned = await create(replay, {});
  expect(pinned.networks[0].block_number).toBe(hex(block)); // offline, the newest recorded block is the head
  const replayUrl = adminRpc(pinned);
  expect(await readAll(replayUrl)).toEqual(recorded);

  // What nobody read live has no answer: an error naming method, account and block, not a zero balance.
  const missing = JSON.parse(await raw(replayUrl, "eth_getBalance", [NOBODY, "latest"]));
  expect(missing.result).toBeUndefined();
  expect(missing.error.message).toMatch(new RegExp(`never recorded: eth_get\\w+ of account ${NOBODY} at block ${block} of network 1`, "i"));
  expect(missing.error.message).toMatch(/offline/);
  const unread = JSON.parse(await raw(replayUrl, "eth_call", [balanceOfCall(NOBODY), "latest"]));
  expect(unread.error.message).toMatch(
    new RegExp(`never recorded: eth_getStorageAt of account ${upstream.history.token} slot 0x[0-9a-f]+ at block ${block}`, "i"),
  );
  const slot = JSON.parse(await raw(replayUrl, "eth_getStorageAt", [upstream.history.token, "0x77", "latest"]));
  expect(slot.error.message).toMatch(
    new RegExp(`never recorded: eth_getStorageAt of account ${upstream.history.token} slot 0x77 at block ${block} of network 1`, "i"),
  );
  // A block never recorded cannot be forked offline, and says so before anything is made.
  const other = await call(replay, "POST", environmentsPath(replay), {
    as: "alice",
    body: { display_name: "other", network_configs: [{ network_id: "1", block_number: hex(block + 1n) }] },
  });
  expect(other.status).toBe(502);
  expect(other.body.error.message).toMatch(new RegExp(`network 1 has no recordings at block ${block + 1n} and the service is offline`));
  expect(upstream.methods.length).toBe(before);
});

test("an unreachable upstream (not offline) serves recorded reads and names the network for the rest", async () => {
  expect(existsSync(join(cacheDir, "1", `${block}.json`))).toBe(true);
  const service = await start({ dataDir: join(root, "unreachable"), forkUrls: { "1": upstream.url }, forkCacheDir: cacheDir });
  const environment = await create(service, { block_number: hex(block) });
  const url = adminRpc(environment);
  expect(await tokenBalance(url, DEPLOYER)).toBe(900n);
  const missing = JSON.parse(await raw(url, "eth_getBalance", [NOBODY, "latest"]));
  expect(missing.error.message).toMatch(/never recorded: .* the upstream of network 1 cannot be reached/);
  expect(missing.error.message).not.toMatch(/sk-upstream|127\.0\.0\.1/);
});
