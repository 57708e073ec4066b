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
 * 4. 20,000 sequential calls through one URL of a service with the default limit (no 429 may come back).
 *
 * This 2-core machine is shared and its speed drifts, so anvil and the URL run in turns (alternating which goes
 * first) and every ratio is taken within its turn, against the anvil run beside it; figures are medians over
 * `BENCH_RPC_ROUNDS` (5) turns of `BENCH_RPC_SECONDS` (2) for the loads, `BENCH_RPC_VIEM_TURNS` (4) for the viem script
 * and `BENCH_RPC_FORGE_RUNS` (3) for the suite. Between two runs of 3 turns the single-method ratios moved by 0.1 to
 * 0.2 here; more turns narrow the median, not what it measures.
 * The last line is one JSON object with the figures, their ratios (time: URL / anvil; throughput: URL / anvil; p99:
 * URL - anvil) and the targets.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createInterface } from "node:readline";
import { request as httpRequest, Agent } from "node:http";
import WebSocket from "ws";
import { forgeProject } from "../test/helpers/forge";
import { foundrySuiteSources, SUITE_TESTS } from "../test/foundry-suite/load";
import { createPublicClient, createWalletClient, http, privateKeyToAccount } from "../test/helpers/viem";

// autocannon ships no types; the few fields used here are typed below.
interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p99: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}
// eslint-disable-next-line @typescript-eslint/no-require-imports
const autocannon = require("autocannon") as (options: object) => Promise<AutocannonResult>;

const SECONDS = Number(process.env.BENCH_RPC_SECONDS ?? 2);
const ROUNDS = Number(process.env.BENCH_RPC_ROUNDS ?? 5);
const VIEM_TURNS = Number(process.env.BENCH_RPC_VIEM_TURNS ?? 4);
const FORGE_RUNS = Number(process.env.BENCH_RPC_FORGE_RUNS ?? 3);
const VIEM_CALLS = Number(process.env.BENCH_RPC_VIEM_CALLS ?? 5_000);
const SEQUENTIAL_CALLS = 20_000;
const OLD_ROOT = process.env.BENCH_RPC_OLD ?? "/tmp/old-main";
/** The Foundry test accounts' first key: rpc-service.mjs funds its address (0xf39f...2266). */
const SENDER_KEY = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";

/** A service to measure: this checkout's, or an older one's (its dist/ and, for "oldNoHop", its hop turned off). */
interface Variant {
  readonly name: "new" | "old" | "oldNoHop";
  readonly root?: string;
  readonly env?: Record<string, string>;
}

interface Load {
  readonly name: string;
  readonly method: string;
  readonly params: unknown[];
  readonly connections: number;
  readonly transport?: "ws";
}

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

/** A running service: its URLs, the CPU it and its anvil have used, and a way to stop it. */
interface Service {
  readonly anvil: string;
  readonly public: string;
  cpu(): Promise<{ serviceUs: number; anvilUs: number; hop: unknown }>;
  stop(): Promise<void>;
}

/** Starts a variant's service in its own process; `rpcLimit` undefined keeps the service's default. */
async function startService(variant: Variant, rpcLimit?: number): Promise<Service> {
  const child = spawn(process.execPath, ["bench/support/rpc-service.mjs"], {
    stdio: ["pipe", "pipe", "inherit"],
    env: {
      ...process.env,
      ...variant.env,
      ...(variant.root && { BENCH_RPC_ROOT: variant.root }),
      ...(rpcLimit !== undefined && { BENCH_RPC_LIMIT: String(rpcLimit) }),
    },
  });
  const lines = createInterface({ input: child.stdout! });
  let exited: Error | null = null;
  const waiting = new Set<(error: Error) => void>();
  child.once("exit", (code) => {
    exited = new Error(`the ${variant.name} service exited (${code})`);
    for (const reject of waiting) reject(exited);
  });
  const nextLine = () =>
    new Promise<string>((resolve, reject) => {
      if (exited) return reject(exited);
      waiting.add(reject);
      lines.once("line", (line) => {
        waiting.delete(reject);
        resolve(line);
      });
    });
  const ready = JSON.parse(await nextLine()) as { publicUrl: string; anvilUrl: string };
  const exit = new Promise((resolve) => child.once("exit", resolve));
  return {
    anvil: ready.anvilUrl,
    public: ready.publicUrl,
    async cpu() {
      const answer = nextLine();
      child.stdin!.write("cpu\n");
      return JSON.parse(await answer);
    },
    stop: async () => {
      child.stdin!.end();
      await exit;
    },
  };
}

/** The middle value; of an even count, the mean of the two in the middle. */
function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}
const round2 = (n: number) => Number(n.toFixed(2));

/** Runs `measure` on anvil and on the Public RPC URL in turns (alternating which goes first): each's results in order. */
async function inTurns<T>(service: Service, turns: number, measure: (url: string) => Promise<T>): Promise<{ anvil: T[]; public: T[] }> {
  const results = { anvil: [] as T[], public: [] as T[] };
  for (let turn = 0; turn < turns; turn += 1) {
    const order = turn % 2 === 0 ? (["anvil", "public"] as const) : (["public", "anvil"] as const);
    for (const target of order) results[target].push(await measure(service[target]));
  }
  return results;
}

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

async function cannon(url: string, load: Load): Promise<{ rps: number; p99: number }> {
  const result = await autocannon({
    url,
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: load.method, params: load.params }),
    connections: load.connections,
    duration: SECONDS,
  });
  const failures = result.non2xx + result.errors + result.timeouts;
  if (failures > 0) throw new Error(`${load.name} through ${url}: ${failures} failed requests`);
  return { rps: result.requests.average, p99: result.latency.p99 };
}

/** The WebSocket counterpart of `cannon`: each connection sends the call, waits for its answer, and sends it again. */
async function wsCannon(url: string, load: Load): Promise<{ rps: number; p99: number }> {
  const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: load.method, params: load.params });
  const sockets = await Promise.all(
    Array.from(
      { length: load.connections },
      () =>
        new Promise<WebSocket>((resolve, reject) => {
          const socket = new WebSocket(url.replace(/^http/, "ws"));
          socket.once("open", () => resolve(socket)).once("error", reject);
        }),
    ),
  );
  const latencies: number[] = [];
  const started = performance.now();
  await Promise.all(
    sockets.map(
      (socket) =>
        new Promise<void>((resolve) => {
          let sent = 0;
          const send = () => {
            if (performance.now() - started >= SECONDS * 1000) return resolve();
            sent = performance.now();
            socket.send(body);
          };
          socket.on("message", (data) => {
            if (!data.toString().includes('"result"')) throw new Error(`${load.name} through ${url}: ${data.toString()}`);
            latencies.push(performance.now() - sent);
            send();
          });
          socket.once("close", () => resolve());
          send();
        }),
    ),
  );
  const seconds = (performance.now() - started) / 1000;
  for (const socket of sockets) socket.close();
  const sorted = latencies.sort((a, b) => a - b);
  return { rps: latencies.length / seconds, p99: Math.round(sorted[Math.floor(sorted.length * 0.99)] ?? 0) };
}

/** `count` calls one after another on one keep-alive connection: how many answered 429, how many otherwise failed. */
async function sequential(url: string, count: number): Promise<{ tooMany: number; other: number; ms: number }> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_blockNumber", params: [] });
  let tooMany = 0;
  let other = 0;
  const started = performance.now();
  for (let i = 0; i < count; i += 1) {
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(url, { method: "POST", agent, headers: { "content-type": "application/json" } }, (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      });
      req.on("error", reject);
      req.end(body);
    });
    if (status === 429) tooMany += 1;
    else if (status !== 200) other += 1;
  }
  agent.destroy();
  return { tooMany, other, ms: performance.now() - started };
}

/** Everything measured of one variant. */
interface Figures {
  foundry: { anvilMs: number; publicMs: number; ratio: number; passed: boolean };
  viem: { calls: number; anvilMs: number; publicMs: number; ratio: number };
  loads: Record<string, { anvilRps: number; publicRps: number; throughput: number; low: number; high: number; p99ExtraMs: number }>;
  sequential429: number;
  sequentialMs: number;
  hop: unknown;
}

async function measureVariant(variant: Variant): Promise<Figures> {
  const service = await startService(variant, 1e12);
  try {
    const foundry = await foundrySuite(service);
    console.log(
      `[${variant.name}] forge test --fork-url (${SUITE_TESTS} tests, medians of ${FORGE_RUNS}): anvil ${foundry.anvilMs} ms, ` +
        `Public RPC ${foundry.publicMs} ms (${foundry.ratio}x)${foundry.passed ? "" : ", SOME RUNS FAILED"}`,
    );
    const viemTimes = await inTurns(service, VIEM_TURNS, (url) => viemScript(url, VIEM_CALLS));
    const viem = {
      calls: VIEM_CALLS,
      anvilMs: Math.round(median(viemTimes.anvil)),
      publicMs: Math.round(median(viemTimes.public)),
      ratio: round2(median(viemTimes.public.map((ms, i) => ms / viemTimes.anvil[i]))),
    };
    console.log(
      `[${variant.name}] viem script, ${VIEM_CALLS} sequential mixed calls: anvil ${viem.anvilMs} ms, Public RPC ${viem.publicMs} ms (${viem.ratio}x)`,
    );
    const loads: Figures["loads"] = {};
    for (const load of LOADS) {
      const measure = load.transport === "ws" ? wsCannon : cannon;
      await measure(service.public, { ...load, connections: 4 }); // warm up
      const runs = await inTurns(service, ROUNDS, (url) => measure(url, load));
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
    const { hop } = await service.cpu();
    await service.stop(); // one chain at a time: the next service's
    const limited = await startService(variant);
    try {
      const seq = await sequential(limited.public, SEQUENTIAL_CALLS);
      console.log(
        `[${variant.name}] ${SEQUENTIAL_CALLS} sequential eth_blockNumber (default limit): ${seq.tooMany} answered 429, ` +
          `${seq.other} other failures, ${(seq.ms / 1000).toFixed(1)} s`,
      );
      return { foundry, viem, loads, sequential429: seq.tooMany, sequentialMs: Math.round(seq.ms), hop };
    } finally {
      await limited.stop();
    }
  } finally {
    await service.stop().catch(() => undefined);
  }
}

async function main(): Promise<void> {
  const variants: Variant[] = [{ name: "new" }];
  const oldBuilt = existsSync(`${OLD_ROOT}/dist/service/listen.js`);
  if (oldBuilt) variants.push({ name: "old", root: OLD_ROOT }, { name: "oldNoHop", root: OLD_ROOT, env: { CHAINFORM_NATIVE_RPC: "off" } });
  else console.log(`old columns left out: no built checkout at ${OLD_ROOT} (BENCH_RPC_OLD); see this file's header`);
  const results: Partial<Record<Variant["name"], Figures>> = {};
  for (const variant of variants) results[variant.name] = await measureVariant(variant);

  const ratios: Record<string, number> = {};
  for (const [name, f] of Object.entries(results) as [string, Figures][]) {
    ratios[`${name}ForgeVsAnvil`] = f.foundry.ratio;
    ratios[`${name}ViemVsAnvil`] = f.viem.ratio;
    for (const [load, l] of Object.entries(f.loads)) {
      ratios[`${name}${load[0].toUpperCase()}${load.slice(1)}Throughput`] = l.throughput;
      ratios[`${name}${load[0].toUpperCase()}${load.slice(1)}P99ExtraMs`] = l.p99ExtraMs;
    }
  }
  const mine = results.new!;
  const met = {
    forge: mine.foundry.passed && mine.foundry.ratio <= 1.15,
    viem: mine.viem.ratio <= 1.5,
    throughput16: Object.entries(mine.loads).every(([name, l]) => !name.endsWith("16") || l.throughput >= 0.55),
    throughput1: Object.entries(mine.loads).every(([name, l]) => !name.endsWith("1") || l.throughput >= 0.45),
    p99: Object.values(mine.loads).every((l) => l.p99ExtraMs <= 2),
    sequential429: mine.sequential429 === 0,
  };
  console.log(
    JSON.stringify({
      benchmark: "rpc",
      seconds: SECONDS,
      rounds: ROUNDS,
      viemTurns: VIEM_TURNS,
      forgeRuns: FORGE_RUNS,
      variants: results,
      oldRoot: oldBuilt ? OLD_ROOT : null,
      ratios,
      targets: { forgeVsAnvil: 1.15, viemVsAnvil: 1.5, throughput16: 0.55, throughput1: 0.45, p99ExtraMs: 2, sequential429: 0 },
      met,
    }),
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
