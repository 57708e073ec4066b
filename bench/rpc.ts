/**
 * RPC URL benchmark (`npm run bench -- rpc`): what a user's tests cost through chainform's RPC URLs, against the
 * same chain's anvil directly, for this checkout ("new") and, side by side in the same run, for an older one ("old",
 * and "oldNoHop": the same with `CHAINFORM_NATIVE_RPC=off`) when it is built at `BENCH_RPC_OLD` (default
 * /tmp/old-main: `git worktree add --detach /tmp/old-main 60cd631`, node_modules hard-linked, `npm run build`);
 * without it the old columns are left out, and the output says so.
 *
 * Each service runs in a child process (bench/support/rpc-service.mjs: the built service, as `chainform serve` runs
 * it) with one environment whose chain runs; the loads run in this process, in this order:
 * 1. the Foundry fork-test suite of test/foundry-suite, `forge test --fork-url` against anvil and the Public RPC URL;
 * 2. a viem script of `BENCH_RPC_VIEM_CALLS` (5,000) sequential mixed calls: reads, `eth_call`, `eth_estimateGas`,
 *    and sends (signed locally, as a test suite does through the Public RPC) each followed by its receipt;
 * 3. single-method loads (autocannon, 1 and 16 connections, and over WebSocket with `BENCH_RPC_WS=1`);
 * 4. 20,000 sequential calls through one URL of a service with the default limit (no 429 may come back);
 * 5. the read-heavy shape (bench/support/fork-reads.ts): a `forge test --fork-url` suite reading 7,500 accounts of a
 *    forked upstream, against a plain anvil forking it and an environment forking it;
 * 6. the write-heavy shape (bench/support/uniswap-swaps.ts): Uniswap V2's swaps sent raw with their receipts, on a
 *    service that keeps its data on disk.
 * `BENCH_RPC_SHAPES` (compute: 1 and 2, loads: 3 and 4, reads, writes; all by default) picks what runs.
 *
 * This 2-core machine is shared and its speed drifts, so anvil and the URL run in turns (alternating which goes
 * first) and every ratio is taken within its turn, against the anvil run beside it; figures are medians over
 * `BENCH_RPC_ROUNDS` (5) turns of `BENCH_RPC_SECONDS` (2) for the loads, `BENCH_RPC_VIEM_TURNS` (4) for the viem script
 * and `BENCH_RPC_FORGE_RUNS` (3) for the suite. Between two runs of 3 turns the single-method ratios moved by 0.1 to
 * 0.2 here; more turns narrow the median, not what it measures.
 * The last line is one JSON object with the figures, their ratios (time: URL / anvil; throughput: URL / anvil; p99:
 * URL - anvil) and the targets.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { forgeProject } from "../test/helpers/forge";
import { foundrySuiteSources, SUITE_TESTS } from "../test/foundry-suite/load";
import { createPublicClient, createWalletClient, http, privateKeyToAccount } from "../test/helpers/viem";
import { cannon, sequential, wsCannon, type Load } from "./support/rpc-loads";
import { inTurns, round2, startService, timeRatio, type Service, type Variant } from "./support/rpc-turns";
import { median } from "./support/stats";
import { READ_TESTS, ACCOUNTS_PER_TEST, startForkReads, type ForkReads } from "./support/fork-reads";
import { SWAPS, deployUniswap, swaps } from "./support/uniswap-swaps";

const SECONDS = Number(process.env.BENCH_RPC_SECONDS ?? 2);
const ROUNDS = Number(process.env.BENCH_RPC_ROUNDS ?? 5);
const VIEM_TURNS = Number(process.env.BENCH_RPC_VIEM_TURNS ?? 4);
const FORGE_RUNS = Number(process.env.BENCH_RPC_FORGE_RUNS ?? 3);
const VIEM_CALLS = Number(process.env.BENCH_RPC_VIEM_CALLS ?? 5_000);
const SEQUENTIAL_CALLS = 20_000;
const READ_RUNS = Number(process.env.BENCH_RPC_READ_RUNS ?? 3);
const SWAP_TURNS = Number(process.env.BENCH_RPC_SWAP_TURNS ?? 6);
/** Swaps per chunk of the write-heavy shape's turns (the sides alternate chunk by chunk). */
const SWAP_CHUNK = 10;
/** The shapes to measure (`BENCH_RPC_SHAPES`, comma-separated; all by default). */
const SHAPES = new Set((process.env.BENCH_RPC_SHAPES ?? "compute,reads,writes,loads").split(",").map((shape) => shape.trim()));
const OLD_ROOT = process.env.BENCH_RPC_OLD ?? "/tmp/old-main";
/** The Foundry test accounts' first key: rpc-service.mjs funds its address (0xf39f...2266). */
const SENDER_KEY: `0x${string}` = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";

const LOADS: Load[] = [
  { name: "blockNumber16", method: "eth_blockNumber", params: [], connections: 16 },
  { name: "blockNumber1", method: "eth_blockNumber", params: [], connections: 1 },
  { name: "getBalance16", method: "eth_getBalance", params: ["0x00000000000000000000000000000000000a11ce", "latest"], connections: 16 },
  { name: "getBalance1", method: "eth_getBalance", params: ["0x00000000000000000000000000000000000a11ce", "latest"], connections: 1 },
  ...(process.env.BENCH_RPC_WS === "1"
    ? [
        { name: "wsBlockNumber16", method: "eth_blockNumber", params: [], connections: 16, transport: "ws" as const },
        { name: "wsBlockNumber1", method: "eth_blockNumber", params: [], connections: 1, transport: "ws" as const },
      ]
    : []),
];

/** The Foundry suite's time through each URL (ms, medians), and whether every run passed. */
async function foundrySuite(service: Service): Promise<{ anvilMs: number; publicMs: number; ratio: number; passed: boolean }> {
  const project = await forgeProject(foundrySuiteSources());
  let passed = true;
  try {
    await project.forge(["build"]);
    await project.forge(["test", "--fork-url", service.anvil]); // the first run writes forge's caches: not timed
    const times = await inTurns(service, FORGE_RUNS * 2, async (url) => {
      const started = performance.now();
      const result = await project
        .forge(["test", "--fork-url", url])
        .catch((error: { stdout?: string; stderr?: string }) => ({ stdout: `${error.stdout ?? ""}${error.stderr ?? ""}`, failed: true }));
      const ms = performance.now() - started;
      if ("failed" in result || !new RegExp(`${SUITE_TESTS} tests passed, 0 failed`).test(result.stdout)) {
        passed = false;
        console.log(`forge test --fork-url ${url} failed:\n${result.stdout.slice(-2000)}`);
      }
      return ms;
    });
    const ratios = times.public.map((ms, i) => ms / times.anvil[i]);
    return { anvilMs: Math.round(median(times.anvil)), publicMs: Math.round(median(times.public)), ratio: round2(median(ratios)), passed };
  } finally {
    await project.close();
  }
}

/**
 * A test script's calls through viem, one after another until `count` calls were made: the block number, a balance,
 * an `eth_call` (to the identity precompile), an `eth_estimateGas` of a transfer, and every other turn a transfer
 * signed locally and sent, then its receipt. Returns the time taken (ms).
 */
async function viemScript(url: string, count: number): Promise<number> {
  let calls = 0;
  const transport = http(url, { onFetchRequest: () => void (calls += 1), retryCount: 0 });
  const client = createPublicClient({ transport });
  const account = privateKeyToAccount(SENDER_KEY);
  const wallet = createWalletClient({ account, transport });
  const to = "0x000000000000000000000000000000000000beef";
  const started = performance.now();
  for (let turn = 0; calls < count; turn += 1) {
    await client.getBlockNumber({ cacheTime: 0 });
    await client.getBalance({ address: to });
    await client.call({ to: "0x0000000000000000000000000000000000000004", data: "0x1234" });
    await client.estimateGas({ account, to, value: 1n });
    if (turn % 2 === 0) {
      const hash = await wallet.sendTransaction({ chain: null, to, value: 1n });
      // Asked until it is mined: anvil mines each transaction at once, but its receipt may come a moment later.
      const receipt = await receiptOf(client, hash);
      if (receipt.status !== "success") throw new Error(`transfer ${hash} through ${url} failed`);
    }
  }
  return performance.now() - started;
}

/** A transaction's receipt, asked for until it comes (at most 10 s). */
async function receiptOf(
  client: ReturnType<typeof createPublicClient>,
  hash: `0x${string}`,
): Promise<Awaited<ReturnType<ReturnType<typeof createPublicClient>["getTransactionReceipt"]>>> {
  const deadline = performance.now() + 10_000;
  for (;;) {
    try {
      return await client.getTransactionReceipt({ hash });
    } catch (error) {
      if (performance.now() > deadline) throw new Error(`no receipt for ${hash} in 10 s: ${(error as Error).message.split("\n")[0]}`);
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  }
}

/** A time ratio's figures: medians of both sides (ms) and of the ratios within a turn, every turn's ratio. */
type TimeFigures = ReturnType<typeof timeRatio>;

/** Everything measured of one variant (a shape left out by `BENCH_RPC_SHAPES` is absent). */
interface Figures {
  foundry?: { anvilMs: number; publicMs: number; ratio: number; passed: boolean };
  viem?: { calls: number; anvilMs: number; publicMs: number; ratio: number };
  reads?: TimeFigures & { tests: number; accounts: number; coldAnvilMs: number; coldPublicMs: number; passed: boolean };
  writes?: TimeFigures & { swaps: number };
  loads?: Record<string, { anvilRps: number; publicRps: number; throughput: number; low: number; high: number; p99ExtraMs: number }>;
  sequential429?: number;
  sequentialMs?: number;
  hop?: unknown;
}

/** The compute-heavy shape (the Foundry suite and the viem script) and the single-method loads, on one service. */
async function measureCompute(variant: Variant, figures: Figures): Promise<void> {
  const service = await startService(variant, 1e12);
  try {
    if (SHAPES.has("compute")) {
      const foundry = (figures.foundry = await foundrySuite(service));
      console.log(
        `[${variant.name}] forge test --fork-url (${SUITE_TESTS} tests, medians of ${FORGE_RUNS}): anvil ${foundry.anvilMs} ms, ` +
          `Public RPC ${foundry.publicMs} ms (${foundry.ratio}x)${foundry.passed ? "" : ", SOME RUNS FAILED"}`,
      );
      const viem = { calls: VIEM_CALLS, ...timeRatio(await inTurns(service, VIEM_TURNS, (url) => viemScript(url, VIEM_CALLS))) };
      figures.viem = viem;
      console.log(
        `[${variant.name}] viem script, ${VIEM_CALLS} sequential mixed calls: anvil ${viem.anvilMs} ms, Public RPC ${viem.publicMs} ms (${viem.ratio}x)`,
      );
    }
    if (!SHAPES.has("loads")) return;
    const loads: NonNullable<Figures["loads"]> = (figures.loads = {});
    for (const load of LOADS) {
      const measure = load.transport === "ws" ? wsCannon : cannon;
      await measure(service.public, { ...load, connections: 4 }, SECONDS); // warm up
      const runs = await inTurns(service, ROUNDS, (url) => measure(url, load, SECONDS));
      const each = runs.public.map((run, i) => run.rps / runs.anvil[i].rps);
      loads[load.name] = {
        anvilRps: Math.round(median(runs.anvil.map((run) => run.rps))),
        publicRps: Math.round(median(runs.public.map((run) => run.rps))),
        throughput: round2(median(each)),
        low: round2(Math.min(...each)),
        high: round2(Math.max(...each)),
        p99ExtraMs: round2(median(runs.public.map((run) => run.p99)) - median(runs.anvil.map((run) => run.p99))),
      };
      const f = loads[load.name];
      console.log(
        `[${variant.name}] ${load.method}${load.transport === "ws" ? " over WebSocket" : ""}, ${load.connections} connection(s): ` +
          `anvil ${f.anvilRps}/s, Public RPC ${f.publicRps}/s (${f.throughput}, ${f.low}-${f.high}), p99 +${f.p99ExtraMs} ms`,
      );
    }
    figures.hop = (await service.cpu()).hop;
    await service.stop(); // one chain at a time: the next service's
    const limited = await startService(variant);
    try {
      const seq = await sequential(limited.public, SEQUENTIAL_CALLS);
      console.log(
        `[${variant.name}] ${SEQUENTIAL_CALLS} sequential eth_blockNumber (default limit): ${seq.tooMany} answered 429, ` +
          `${seq.other} other failures, ${(seq.ms / 1000).toFixed(1)} s`,
      );
      figures.sequential429 = seq.tooMany;
      figures.sequentialMs = Math.round(seq.ms);
    } finally {
      await limited.stop();
    }
  } finally {
    await service.stop().catch(() => undefined);
  }
}

/**
 * The read-heavy shape: the fork-reads suite against a plain anvil forking the upstream and against the Public RPC
 * of an environment forking it. The first run of each (forge and both chains reading the upstream for the first
 * time) is reported apart ("cold"); the turns after it read what each chain already holds, as a suite run again does.
 */
async function measureReads(variant: Variant, reads: ForkReads): Promise<Figures["reads"]> {
  const service = await startService(variant, 1e12, { BENCH_RPC_FORK_URL: reads.upstreamUrl });
  try {
    const targets = { anvil: reads.anvilUrl, public: service.public };
    let passed = true;
    const run = async (url: string) => {
      const result = await reads.run(url);
      passed &&= result.passed;
      return result.ms;
    };
    const coldAnvilMs = Math.round(await run(targets.anvil));
    const coldPublicMs = Math.round(await run(targets.public));
    const figures = {
      tests: READ_TESTS,
      accounts: READ_TESTS * ACCOUNTS_PER_TEST,
      coldAnvilMs,
      coldPublicMs,
      ...timeRatio(await inTurns(targets, READ_RUNS * 2, run)),
      passed,
    };
    console.log(
      `[${variant.name}] read-heavy fork suite (${READ_TESTS} tests x ${ACCOUNTS_PER_TEST} accounts, medians of ${READ_RUNS * 2}): anvil ${figures.anvilMs} ms, ` +
        `Public RPC ${figures.publicMs} ms (${figures.ratio}x; ${figures.ratios.join(", ")}); cold: ${coldAnvilMs} and ${coldPublicMs} ms${passed ? "" : ", SOME RUNS FAILED"}`,
    );
    return figures;
  } finally {
    await service.stop();
  }
}

/** The write-heavy shape: Uniswap V2's swaps, sent raw with their receipts, on a service that keeps its data on disk. */
async function measureWrites(variant: Variant): Promise<Figures["writes"]> {
  const dataDir = mkdtempSync(join(tmpdir(), "chainform-bench-rpc-"));
  const service = await startService(variant, 1e12, { BENCH_RPC_DATA_DIR: dataDir });
  try {
    const at = await deployUniswap(service.public, SENDER_KEY);
    await swaps(service.anvil, SENDER_KEY, at); // warm up both sides' code paths
    await swaps(service.public, SENDER_KEY, at);
    // Each turn's 100 swaps go in chunks of 10, the two sides alternating chunk by chunk: a turn of one side lasts
    // about half a second, about as long as the machine's load holds still (a turn of 100 at once moved 0.7 to 3.2).
    const chunked = async (turn: number) => {
      const times = { anvil: 0, public: 0 };
      for (let chunk = 0; chunk < SWAPS / SWAP_CHUNK; chunk += 1) {
        const order = (turn + chunk) % 2 === 0 ? (["anvil", "public"] as const) : (["public", "anvil"] as const);
        for (const side of order) times[side] += await swaps(service[side], SENDER_KEY, at, SWAP_CHUNK);
      }
      return times;
    };
    const turns: { anvil: number[]; public: number[] } = { anvil: [], public: [] };
    for (let turn = 0; turn < SWAP_TURNS; turn += 1) {
      const times = await chunked(turn);
      turns.anvil.push(times.anvil);
      turns.public.push(times.public);
    }
    const figures = { swaps: SWAPS, ...timeRatio(turns) };
    console.log(
      `[${variant.name}] write-heavy Uniswap V2 (${SWAPS} swaps sent raw, each with its receipt, medians of ${SWAP_TURNS}): anvil ${figures.anvilMs} ms, ` +
        `Public RPC ${figures.publicMs} ms (${figures.ratio}x; ${figures.ratios.join(", ")})`,
    );
    return figures;
  } finally {
    await service.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function measureVariant(variant: Variant, reads: ForkReads | null): Promise<Figures> {
  const figures: Figures = {};
  if (SHAPES.has("compute") || SHAPES.has("loads")) await measureCompute(variant, figures);
  if (reads) figures.reads = await measureReads(variant, reads);
  if (SHAPES.has("writes")) figures.writes = await measureWrites(variant);
  return figures;
}

async function main(): Promise<void> {
  const variants: Variant[] = [{ name: "new" }];
  const oldBuilt = existsSync(`${OLD_ROOT}/dist/service/listen.js`);
  if (oldBuilt) variants.push({ name: "old", root: OLD_ROOT }, { name: "oldNoHop", root: OLD_ROOT, env: { CHAINFORM_NATIVE_RPC: "off" } });
  else console.log(`old columns left out: no built checkout at ${OLD_ROOT} (BENCH_RPC_OLD); see this file's header`);
  const reads = SHAPES.has("reads") ? await startForkReads() : null;
  const results: Partial<Record<Variant["name"], Figures>> = {};
  try {
    for (const variant of variants) results[variant.name] = await measureVariant(variant, reads);
  } finally {
    await reads?.close();
  }

  const ratios: Record<string, number> = {};
  for (const [name, f] of Object.entries(results) as [string, Figures][]) {
    if (f.foundry) ratios[`${name}ForgeVsAnvil`] = f.foundry.ratio;
    if (f.viem) ratios[`${name}ViemVsAnvil`] = f.viem.ratio;
    if (f.reads) ratios[`${name}ReadHeavyVsAnvil`] = f.reads.ratio;
    if (f.writes) ratios[`${name}WriteHeavyVsAnvil`] = f.writes.ratio;
    for (const [load, l] of Object.entries(f.loads ?? {})) {
      ratios[`${name}${load[0].toUpperCase()}${load.slice(1)}Throughput`] = l.throughput;
      ratios[`${name}${load[0].toUpperCase()}${load.slice(1)}P99ExtraMs`] = l.p99ExtraMs;
    }
  }
  const mine = results.new!;
  const loads = Object.entries(mine.loads ?? {});
  const met = {
    forge: mine.foundry ? mine.foundry.passed && mine.foundry.ratio <= 1.15 : null,
    viem: mine.viem ? mine.viem.ratio <= 1.5 : null,
    readHeavy: mine.reads ? mine.reads.passed && mine.reads.ratio <= 1.15 : null,
    writeHeavy: mine.writes ? mine.writes.ratio <= 1.15 : null,
    throughput16: mine.loads ? loads.every(([name, l]) => !name.endsWith("16") || l.throughput >= 0.55) : null,
    throughput1: mine.loads ? loads.every(([name, l]) => !name.endsWith("1") || l.throughput >= 0.45) : null,
    p99: mine.loads ? loads.every(([, l]) => l.p99ExtraMs <= 2) : null,
    sequential429: mine.sequential429 === undefined ? null : mine.sequential429 === 0,
  };
  console.log(
    JSON.stringify({
      benchmark: "rpc",
      shapes: [...SHAPES],
      load: loadavg().map((n) => round2(n)),
      seconds: SECONDS,
      rounds: ROUNDS,
      viemTurns: VIEM_TURNS,
      forgeRuns: FORGE_RUNS,
      readRuns: READ_RUNS,
      swapTurns: SWAP_TURNS,
      variants: results,
      oldRoot: oldBuilt ? OLD_ROOT : null,
      ratios,
      targets: {
        forgeVsAnvil: 1.15,
        readHeavyVsAnvil: 1.15,
        writeHeavyVsAnvil: 1.15,
        viemVsAnvil: 1.5,
        throughput16: 0.55,
        throughput1: 0.45,
        p99ExtraMs: 2,
        sequential429: 0,
      },
      met,
    }),
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
