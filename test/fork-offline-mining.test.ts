/**
 * Offline forks that mine for as long as the user wants (docs/forking.md): a fork created live records what a chain
 * needs to build blocks past the fork point (the EIP-2935 ring, the system contracts, the coinbase, the fee history,
 * the blocks BLOCKHASH reaches). The same workload (fund a fresh account, deploy, call, transfer with `cast send` and
 * no gas price, mine 20 blocks, move time, snapshot and revert) runs live, then with the upstream gone on a fresh data
 * dir with the same results; the restarted live data dir keeps its state; both go on to mine 200 more blocks and take
 * new transactions offline. Against real anvil, on an upstream anvil with real history.
 */
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Environment } from "../lib/api";
import { runCast } from "./helpers/cast";
import { call, rpc, adminRpc } from "./helpers/http";
import { DEPLOYER, TOKEN, startForkUpstream, type ForkUpstream } from "./helpers/fork-upstream";
import { environmentsPath, serviceRuns, type TestService } from "./helpers/service";
import { encodeDeployData, encodeFunctionData } from "./helpers/viem";

/** A fresh account (anvil's well-known first test key): the upstream never saw it. */
const FRESH_KEY = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";
const FRESH = "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266";
const RECEIVER = "0x00000000000000000000000000000000000fe5a1";
const SLUG = "offline-mining";
const HISTORY_CONTRACT = "0x0000F90827F1C53a10cb7A02335B175320002935";

let upstream: ForkUpstream;
let root: string;
let cacheDir: string;
const { start, stop, closeAll } = serviceRuns();

async function create(service: TestService): Promise<Environment> {
  const result = await call(service, "POST", environmentsPath(service), {
    as: "alice",
    body: { display_name: "offline mining", slug: SLUG, network_configs: [{ network_id: "1" }] },
  });
  if (result.status !== 200) throw new Error(`create failed: ${result.text}`);
  return result.body as Environment;
}

const cast = (...args: string[]) => runCast(args, 120_000);

const balanceOf = (url: string, token: string, holder: string) =>
  rpc<string>(url, "eth_call", [
    { to: token, data: encodeFunctionData({ abi: TOKEN.abi, functionName: "balanceOf", args: [holder] }) },
    "latest",
  ]).then(BigInt);

/** What the workload saw: the same on every run of the same fork. */
interface Results {
  readonly forkPoint: string;
  readonly token: string;
  readonly deployStatus: string;
  readonly supply: bigint;
  readonly transferStatus: string;
  readonly receiverTokens: bigint;
  readonly upstreamDeployerTokens: bigint;
  readonly headAfterMining: bigint;
  readonly movedSeconds: boolean;
  readonly revertedTo: bigint;
  readonly receiverEthAfterRevert: bigint;
  /** The hash of the block before the fork point: from the block, from BLOCKHASH and from the EIP-2935 contract. */
  readonly parentHashes: readonly string[];
}

/**
 * BLOCKHASH of the block `word` (hex, 32 bytes) as the EVM's opcode answers it: init code run by `eth_call` that
 * returns a zero byte and then the hash (PUSH32 word BLOCKHASH PUSH1 1 MSTORE PUSH1 33 PUSH1 0 RETURN). The zero byte
 * comes first because returned code may not begin with 0xEF (EIP-3541), which one hash in 256 does.
 */
async function blockHashByOpcode(url: string, word: string): Promise<string> {
  const returned = await rpc<string>(url, "eth_call", [{ data: `0x7f${word}4060015260216000f3` }, "latest"]);
  expect(returned.slice(0, 4)).toBe("0x00");
  return `0x${returned.slice(4)}`;
}

/** Funds a fresh account, deploys, calls, transfers (cast, no gas price), mines 20, moves time, snapshots, reverts. */
async function workload(url: string, forkPoint: string): Promise<Results> {
  const parent = BigInt(forkPoint) - 1n;
  const word = parent.toString(16).padStart(64, "0");
  const parentHashes = [
    (await rpc(url, "eth_getBlockByNumber", [`0x${parent.toString(16)}`, false])).hash,
    await blockHashByOpcode(url, word),
    await rpc(url, "eth_call", [{ from: RECEIVER, to: HISTORY_CONTRACT, data: `0x${word}` }, "latest"]),
  ];
  await rpc(url, "tenderly_setBalance", [FRESH, "0x56bc75e2d63100000"]);
  // First, at the fork point itself: a fee estimate reads the fee history of the blocks before the fork.
  await cast("send", "--rpc-url", url, "--private-key", FRESH_KEY, RECEIVER, "--value", "3");
  const deployed = await rpc(url, "eth_sendTransactionSync", [
    { from: FRESH, data: encodeDeployData({ abi: TOKEN.abi, bytecode: TOKEN.bytecode, args: ["Offline", "OFF", 18, 1000n] }) },
  ]);
  const token = deployed.contractAddress as string;
  const supply = BigInt(
    await rpc<string>(url, "eth_call", [
      { to: token, data: encodeFunctionData({ abi: TOKEN.abi, functionName: "totalSupply", args: [] }) },
      "latest",
    ]),
  );
  // A signed transaction with no gas price: cast asks eth_feeHistory, which reaches back before the fork point.
  await cast("send", "--rpc-url", url, "--private-key", FRESH_KEY, token, "transfer(address,uint256)", RECEIVER, "25");
  const transfer = await rpc(url, "eth_getTransactionReceipt", [
    (await rpc(url, "eth_getBlockByNumber", ["latest", false])).transactions[0],
  ]);
  const receiverTokens = await balanceOf(url, token, RECEIVER);
  const upstreamDeployerTokens = await balanceOf(url, upstream.history.token, DEPLOYER);
  await rpc(url, "anvil_mine", ["0x14"]);
  const headAfterMining = BigInt(await rpc<string>(url, "eth_blockNumber"));
  const before = BigInt((await rpc(url, "eth_getBlockByNumber", ["latest", false])).timestamp);
  await rpc(url, "evm_increaseTime", ["0x15180"]);
  await rpc(url, "evm_mine");
  const after = BigInt((await rpc(url, "eth_getBlockByNumber", ["latest", false])).timestamp);
  const snapshot = await rpc<string>(url, "evm_snapshot");
  const snapshotHead = BigInt(await rpc<string>(url, "eth_blockNumber"));
  await rpc(url, "eth_sendTransactionSync", [{ from: FRESH, to: RECEIVER, value: "0xde0b6b3a7640000" }]);
  await rpc(url, "anvil_mine", ["0x3"]);
  expect(await rpc(url, "evm_revert", [snapshot])).toBe(true);
  return {
    forkPoint,
    token,
    deployStatus: deployed.status,
    supply,
    transferStatus: transfer.status,
    receiverTokens,
    upstreamDeployerTokens,
    headAfterMining,
    movedSeconds: after - before >= 86_400n,
    revertedTo: BigInt(await rpc<string>(url, "eth_blockNumber")) - snapshotHead,
    receiverEthAfterRevert: BigInt(await rpc<string>(url, "eth_getBalance", [RECEIVER, "latest"])),
    parentHashes,
  };
}

/**
 * Offline, with nothing read live beyond the workload: every block before the fork point has its hash from BLOCKHASH
 * and from the EIP-2935 contract; then 200 more blocks and new transactions (hashes nobody recorded).
 */
async function goOn(url: string, forkPoint: bigint): Promise<void> {
  for (let n = 0n; n < forkPoint; n++) {
    const word = n.toString(16).padStart(64, "0");
    const fromOpcode = await blockHashByOpcode(url, word);
    expect(fromOpcode).not.toBe(`0x${"0".repeat(64)}`);
    expect(await rpc(url, "eth_call", [{ from: RECEIVER, to: HISTORY_CONTRACT, data: `0x${word}` }, "latest"])).toBe(fromOpcode);
  }
  const head = BigInt(await rpc<string>(url, "eth_blockNumber"));
  await rpc(url, "anvil_mine", ["0xc8"]);
  expect(BigInt(await rpc<string>(url, "eth_blockNumber"))).toBe(head + 200n);
  const receipt = await rpc(url, "eth_sendTransactionSync", [{ from: FRESH, to: RECEIVER, value: "0x2a" }]);
  expect(receipt.status).toBe("0x1");
  expect(BigInt(receipt.blockNumber)).toBe(head + 201n);
  await cast("send", "--rpc-url", url, "--private-key", FRESH_KEY, RECEIVER, "--value", "7");
  expect(BigInt(await rpc<string>(url, "eth_blockNumber"))).toBe(head + 202n);
}

beforeAll(async () => {
  upstream = await startForkUpstream();
  root = mkdtempSync(join(tmpdir(), "chainform-fork-offline-"));
  cacheDir = join(root, "fork-cache");
});
afterAll(async () => {
  await closeAll();
  await upstream?.close();
  rmSync(root, { recursive: true, force: true });
});

test("a fork recorded live mines, deploys, transacts, moves time, snapshots and reverts offline, the same as live, and goes on for 200 more blocks", async () => {
  const liveDir = join(root, "live");
  const live = await start({ dataDir: liveDir, forkUrls: { "1": upstream.url }, forkCacheDir: cacheDir });
  const created = await create(live);
  const forkPoint = created.networks[0].block_number;
  expect(BigInt(forkPoint)).toBe(upstream.history.head);
  const recorded = await workload(adminRpc(created), forkPoint);
  expect(recorded).toMatchObject({ deployStatus: "0x1", supply: 1000n, transferStatus: "0x1", receiverTokens: 25n, movedSeconds: true });
  expect(recorded.upstreamDeployerTokens).toBe(650n);
  expect(recorded.revertedTo).toBe(0n);
  expect(recorded.receiverEthAfterRevert).toBe(3n);
  expect(new Set(recorded.parentHashes).size).toBe(1);
  expect(recorded.parentHashes[0]).toMatch(/^0x[0-9a-f]{64}$/);
  const liveHead = BigInt(await rpc<string>(adminRpc(created), "eth_blockNumber"));
  // Another environment records a newer block of the same network: offline, ours must not pin that one.
  await upstream.node.rpc.request("anvil_mine", ["0x1"]);
  const newer = await call(live, "POST", environmentsPath(live), {
    as: "alice",
    body: { display_name: "newer", network_configs: [{ network_id: "1" }] },
  });
  expect(BigInt(newer.body.networks[0].block_number)).toBe(upstream.history.head + 1n);
  await stop(live);

  // The upstream is gone for good.
  await upstream.close();
  const asked = upstream.methods.length;

  // A fresh data dir, offline: the same environment (no block_number) forks the block it pinned live, not the newest
  // recorded one.
  const freshLog = join(root, "fresh.log");
  const fresh = await start({
    dataDir: join(root, "fresh"),
    forkCacheDir: cacheDir,
    offline: true,
    logger: { level: "info", file: freshLog },
  });
  const again = await create(fresh);
  expect(again.networks[0].block_number).toBe(forkPoint);

  expect(await workload(adminRpc(again), again.networks[0].block_number)).toEqual(recorded);
  await goOn(adminRpc(again), BigInt(forkPoint));
  await stop(fresh);
  // The log says which block was chosen, and why.
  expect(readFileSync(freshLog, "utf8")).toContain(
    `no block_number given: forking network 1 at block ${BigInt(forkPoint)}, the block this environment pinned when it last ran with its upstream`,
  );

  // The live data dir restarted offline: its chain is where the live run left it, and goes on.
  const restarted = await start({ dataDir: liveDir, forkCacheDir: cacheDir, offline: true });
  const listed = (await call(restarted, "GET", environmentsPath(restarted), { as: "alice" })).body.environments as Environment[];
  const environment = listed.find((e) => e.slug === SLUG)!;
  const url = adminRpc(environment);
  expect(BigInt(await rpc<string>(url, "eth_blockNumber"))).toBe(liveHead);
  expect(await balanceOf(url, recorded.token, RECEIVER)).toBe(25n);
  await goOn(url, BigInt(forkPoint));
  await stop(restarted);
  expect(upstream.methods.length).toBe(asked);

  // The recordings hold the whole EIP-2935 ring as one answer, and no upstream URL or key.
  const file = readFileSync(join(cacheDir, "1", `${BigInt(forkPoint)}.json`), "utf8");
  expect(file).toContain('"eth_call [{\\"to\\":\\"0x0000f90827f1c53a10cb7a02335b175320002935\\"');
  expect(file).not.toMatch(/sk-upstream|127\.0\.0\.1/);
}, 300_000);

test("recordings made before the ring was recorded still mine offline: the history contract reads as empty, logged once, never a crash", async () => {
  // The first test's recordings, stripped of what block inputs add about the history contract (as an old recording).
  const [file] = readdirSync(join(cacheDir, "1")).filter((name) => /^\d+\.json$/.test(name) && name !== "pins.json");
  const recording = JSON.parse(readFileSync(join(cacheDir, "1", file!), "utf8")) as { answers: Record<string, unknown> };
  const old = mkdtempSync(join(root, "old-cache-"));
  const answers = Object.fromEntries(
    Object.entries(recording.answers).filter(
      ([key]) => !key.startsWith("chainform:") && !key.toLowerCase().includes(HISTORY_CONTRACT.toLowerCase()),
    ),
  );
  expect(Object.keys(answers).length).toBeLessThan(Object.keys(recording.answers).length);
  mkdirSync(join(old, "1"));
  writeFileSync(join(old, "1", file!), JSON.stringify({ ...recording, answers }));
  const log = join(root, "old.log");
  const service = await start({ dataDir: join(root, "old"), forkCacheDir: old, offline: true, logger: { level: "info", file: log } });
  const url = adminRpc(await create(service));
  const head = BigInt(await rpc<string>(url, "eth_blockNumber"));
  await rpc(url, "anvil_mine", ["0x12c"]);
  expect(BigInt(await rpc<string>(url, "eth_blockNumber"))).toBe(head + 300n);
  await stop(service);
  const warnings = readFileSync(log, "utf8")
    .split("\n")
    .filter((line) => line.includes("predate the recording of the block-hash history"));
  expect(warnings).toHaveLength(1);
}, 120_000);
