/**
 * RPC URL benchmark (`npm run bench -- rpc`): the same JSON-RPC load sent straight to a vnet's anvil and through
 * chainform's Public and Admin RPC URLs, and through two floor proxies that do the same least work a proxy working
 * as the service does must do (so the most such a proxy can reach): bench/support/floor-proxy.mjs in Node.js, and
 * bench/support/native-floor-proxy.c, compiled with the machine's `cc` (left out where there is none), for what a
 * hop that is not Node.js would reach. All are interleaved so that the machine's load falls on all alike, over HTTP
 * and over WebSocket (anvil's own, Public and Admin: the floor proxies speak HTTP only); 20,000 sequential calls
 * through one URL of a default service (no 429 may come back); and the Foundry fork-test suite of test/foundry-suite run with
 * `forge test --fork-url` against anvil and against the Public RPC URL, with forge's threads and on one thread (its
 * calls one at a time, as on one connection). The service runs in a child process
 * (bench/support/rpc-service.mjs: the built service, as `chainform serve` runs it), autocannon in this one.
 *
 * This 2-core machine's speed drifts: the same target, run twice in a row, has answered 12.5 and 18.8 µs of CPU per
 * call. So each round runs every target once, in an order that alternates (forward, then backward), and a ratio is
 * taken within its round, against the anvil run beside it; the figures are the medians of those paired ratios over
 * the rounds (`BENCH_RPC_ROUNDS`, default 6, of `BENCH_RPC_SECONDS`, default 2), with their lowest and highest.
 * The last line is one JSON object with the figures and their ratios (throughput: URL / anvil; p99: URL - anvil).
 */
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { promisify } from "node:util";
import { request as httpRequest, Agent } from "node:http";
import WebSocket from "ws";
import { forgeProject } from "../test/helpers/forge";
import { foundrySuiteSources, SUITE_TESTS } from "../test/foundry-suite/load";

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
const ROUNDS = Number(process.env.BENCH_RPC_ROUNDS ?? 6);
const SEQUENTIAL_CALLS = 20_000;
const FORGE_RUNS = Number(process.env.BENCH_RPC_FORGE_RUNS ?? 7);
/** The Foundry suite's runs: against anvil or the Public RPC URL, with forge's threads or on one. */
const FORGE_RUNS_NAMES = ["anvil", "public", "anvilOneThread", "publicOneThread"] as const;
type ForgeRun = (typeof FORGE_RUNS_NAMES)[number];
/**
 * `floor`: bench/support/floor-proxy.mjs, the least a Node.js proxy working as the service does can do;
 * `nativeFloor`: the same in C (bench/support/native-floor-proxy.c).
 */
const TARGETS = ["anvil", "floor", "nativeFloor", "public", "admin"] as const;
type Target = (typeof TARGETS)[number];
const FLOORS = ["floor", "nativeFloor"] as const;
type Floor = (typeof FLOORS)[number];
const isFloor = (target: Target): target is Floor => (FLOORS as readonly Target[]).includes(target);
const FLOOR_NAMES: Record<Floor, string> = { floor: "floor proxy", nativeFloor: "native floor proxy" };
/** The targets' URLs; the native floor proxy's only where it was built. */
type Urls = Record<Exclude<Target, "nativeFloor">, string> & { nativeFloor?: string };

interface Load {
  readonly name: string;
  readonly method: string;
  readonly params: unknown[];
  readonly connections: number;
  /** `ws`: over the WebSocket URLs (anvil's own, the Public and Admin ones); the floor proxy speaks HTTP only. */
  readonly transport?: "ws";
}

const LOADS: Load[] = [
  { name: "blockNumber1", method: "eth_blockNumber", params: [], connections: 1 },
  { name: "blockNumber16", method: "eth_blockNumber", params: [], connections: 16 },
  { name: "getBalance1", method: "eth_getBalance", params: ["0x00000000000000000000000000000000000a11ce", "latest"], connections: 1 },
  { name: "getBalance16", method: "eth_getBalance", params: ["0x00000000000000000000000000000000000a11ce", "latest"], connections: 16 },
  { name: "wsBlockNumber1", method: "eth_blockNumber", params: [], connections: 1, transport: "ws" },
  { name: "wsBlockNumber16", method: "eth_blockNumber", params: [], connections: 16, transport: "ws" },
];

/** The targets a load runs on: those that run here, and over WebSocket no floor proxy. */
const targetsOf = (load: Load, urls: Urls): readonly Target[] =>
  TARGETS.filter((t) => urls[t] !== undefined && !(load.transport === "ws" && isFloor(t)));

/** CPU time used so far (µs) by the service, the vnet's anvil and the floor proxies. */
interface Cpu {
  serviceUs: number;
  anvilUs: number;
  floorUs: Record<Floor, number>;
  /** What the service's native hop has done so far; null where it does not run. */
  hop: { adopted: number; answered: number; handedBack: number } | null;
}

/** Compiles the native floor proxy into a directory of its own; null where this machine has no C compiler (said why). */
async function buildNativeFloor(): Promise<{ path: string; remove(): Promise<void> } | null> {
  if (process.platform !== "linux") {
    console.log("native floor proxy left out: it is written for Linux (epoll)");
    return null;
  }
  const directory = await mkdtemp(join(tmpdir(), "chainform-native-floor-"));
  const path = join(directory, "native-floor-proxy");
  try {
    await promisify(execFile)(process.env.CC ?? "cc", ["-O2", "-o", path, "bench/support/native-floor-proxy.c"]);
    return { path, remove: () => rm(directory, { recursive: true, force: true }) };
  } catch (error) {
    console.log(`native floor proxy left out: it did not compile (${(error as Error).message.split("\n")[0]})`);
    await rm(directory, { recursive: true, force: true });
    return null;
  }
}

/** Starts a floor proxy on anvil's IPC socket: its process and the URL it prints. */
async function startFloor(command: string, args: string[]): Promise<{ process: ChildProcess; url: string }> {
  const child = spawn(command, args, { stdio: ["pipe", "pipe", "inherit"] });
  const url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once("line", resolve);
    child.once("exit", (code) => reject(new Error(`${command} exited (${code})`)));
  });
  return { process: child, url };
}

/** Starts the service in its own process; `rpcLimit` undefined keeps the service's default. */
async function startService(rpcLimit?: number): Promise<{ urls: Urls; cpu(): Promise<Cpu>; stop(): Promise<void> }> {
  const child = spawn(process.execPath, ["bench/support/rpc-service.mjs"], {
    stdio: ["pipe", "pipe", "inherit"],
    env: { ...process.env, ...(rpcLimit !== undefined && { BENCH_RPC_LIMIT: String(rpcLimit) }) },
  });
  const lines = createInterface({ input: child.stdout! });
  let exited: Error | null = null;
  const waiting = new Set<(error: Error) => void>();
  child.once("exit", (code) => {
    exited = new Error(`the service exited (${code})`);
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
  const ready = JSON.parse(await nextLine()) as { publicUrl: string; adminUrl: string; anvilUrl: string; ipcPath: string };
  const floor = await startFloor(process.execPath, ["bench/support/floor-proxy.mjs", ready.ipcPath]);
  const nativeBuild = await buildNativeFloor();
  const native = nativeBuild && (await startFloor(nativeBuild.path, [ready.ipcPath]));
  return {
    urls: { anvil: ready.anvilUrl, floor: floor.url, nativeFloor: native?.url, public: ready.publicUrl, admin: ready.adminUrl },
    async cpu() {
      const answer = nextLine();
      child.stdin!.write(`cpu ${floor.process.pid} ${native?.process.pid ?? ""}\n`);
      const { serviceUs, anvilUs, otherUs, hop } = JSON.parse(await answer) as Omit<Cpu, "floorUs"> & { otherUs: number[] };
      return { serviceUs, anvilUs, floorUs: { floor: otherUs[0], nativeFloor: otherUs[1] ?? 0 }, hop };
    },
    stop: async () => {
      floor.process.stdin!.end();
      native?.process.stdin!.end();
      await nativeBuild?.remove();
      child.stdin!.end();
      await new Promise((resolve) => child.once("exit", resolve));
    },
  };
}

interface Run {
  rps: number;
  p99: number;
  failures: number;
  /** CPU per call of the service, of anvil and of the floor proxies, µs. */
  serviceUs: number;
  anvilUs: number;
  floorUs: Record<Floor, number>;
}

/** CPU per call between two readings. */
function cpuPerCall(before: Cpu, after: Cpu, calls: number): Pick<Run, "serviceUs" | "anvilUs" | "floorUs"> {
  return {
    serviceUs: (after.serviceUs - before.serviceUs) / calls,
    anvilUs: (after.anvilUs - before.anvilUs) / calls,
    floorUs: Object.fromEntries(FLOORS.map((t) => [t, (after.floorUs[t] - before.floorUs[t]) / calls])) as Record<Floor, number>,
  };
}

async function cannon(url: string, load: Load, cpu: () => Promise<Cpu>): Promise<Run> {
  const before = await cpu();
  const result = await autocannon({
    url,
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: load.method, params: load.params }),
    connections: load.connections,
    duration: SECONDS,
  });
  const after = await cpu();
  const calls = Math.max(1, result.requests.total);
  return {
    rps: result.requests.average,
    p99: result.latency.p99,
    failures: result.non2xx + result.errors + result.timeouts,
    ...cpuPerCall(before, after, calls),
  };
}

/**
 * The WebSocket counterpart of `cannon`: each of `load.connections` connections sends the call, waits for its answer
 * and sends it again, for SECONDS. A message that is not an answer with a result counts as a failure.
 */
async function wsCannon(url: string, load: Load, cpu: () => Promise<Cpu>): Promise<Run> {
  const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: load.method, params: load.params });
  const sockets = await Promise.all(
    Array.from(
      { length: load.connections },
      () =>
        new Promise<WebSocket>((resolve, reject) => {
          const socket = new WebSocket(url);
          socket.once("open", () => resolve(socket)).once("error", reject);
        }),
    ),
  );
  const latencies: number[] = [];
  let failures = 0;
  const before = await cpu();
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
            latencies.push(performance.now() - sent);
            if (!data.toString().includes('"result"')) failures += 1;
            send();
          });
          socket.once("close", () => resolve());
          send();
        }),
    ),
  );
  const seconds = (performance.now() - started) / 1000;
  const after = await cpu();
  for (const socket of sockets) socket.close();
  const calls = Math.max(1, latencies.length);
  return {
    rps: latencies.length / seconds,
    p99: Math.round(percentile99(latencies)),
    failures,
    ...cpuPerCall(before, after, calls),
  };
}

/** The 99th percentile of latencies (ms). */
function percentile99(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))] ?? 0;
}

/** `count` calls one after another on one keep-alive connection; returns how many answered 429. */
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

/** The middle value; of an even count, the mean of the two in the middle. */
function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

const round2 = (n: number) => Number(n.toFixed(2));

async function main(): Promise<void> {
  const service = await startService();
  type Figure = { rps: number; p99: number; serviceUsPerCall: number; anvilUsPerCall: number };
  /** A URL's throughput over anvil's in the same round: the median, lowest and highest over the rounds. */
  type Ratio = { median: number; low: number; high: number };
  const figures: Record<string, Partial<Record<Target, Figure>>> = {};
  const paired: Record<string, Partial<Record<Exclude<Target, "anvil">, Ratio>>> = {};
  try {
    for (const load of LOADS) {
      const targets = targetsOf(load, service.urls);
      const runs = Object.fromEntries(TARGETS.map((t) => [t, [] as Run[]])) as Record<Target, Run[]>;
      const measure = load.transport === "ws" ? wsCannon : cannon;
      const urlOf = (target: Target) => (load.transport === "ws" ? service.urls[target]!.replace(/^http/, "ws") : service.urls[target]!);
      await measure(urlOf("public"), { ...load, connections: 4 }, service.cpu); // warm up
      for (let round = 0; round < ROUNDS; round += 1) {
        // Forward, then backward: no target always runs right after another.
        for (const target of round % 2 === 0 ? targets : [...targets].reverse()) {
          const run = await measure(urlOf(target), load, service.cpu);
          if (run.failures > 0) throw new Error(`${load.name} through ${target}: ${run.failures} failed requests`);
          runs[target].push(run);
        }
      }
      const f: Partial<Record<Target, Figure>> = {};
      const r: Partial<Record<Exclude<Target, "anvil">, Ratio>> = {};
      for (const t of targets) {
        f[t] = {
          rps: Math.round(median(runs[t].map((run) => run.rps))),
          p99: median(runs[t].map((run) => run.p99)),
          // A floor proxy's own CPU for its runs: it stands where the service does.
          serviceUsPerCall: Math.round(median(runs[t].map((run) => (isFloor(t) ? run.floorUs[t] : run.serviceUs)))),
          anvilUsPerCall: Math.round(median(runs[t].map((run) => run.anvilUs))),
        };
        if (t === "anvil") continue;
        const each = runs[t].map((run, index) => run.rps / runs.anvil[index].rps);
        r[t] = { median: round2(median(each)), low: round2(Math.min(...each)), high: round2(Math.max(...each)) };
      }
      figures[load.name] = f;
      paired[load.name] = r;
      const shown = (t: Exclude<Target, "anvil">) => `${f[t]!.rps}/s (${r[t]!.median}, ${r[t]!.low}-${r[t]!.high}) p99 ${f[t]!.p99} ms`;
      const floors = FLOORS.filter((t) => f[t] !== undefined);
      console.log(
        `${load.method}${load.transport === "ws" ? " over WebSocket" : ""}, ${load.connections} connection(s): ` +
          `anvil ${f.anvil!.rps}/s p99 ${f.anvil!.p99} ms, ${floors.map((t) => `${FLOOR_NAMES[t]} ${shown(t)}, `).join("")}` +
          `Public ${shown("public")}, Admin ${shown("admin")}; CPU per call: anvil ${f.anvil!.anvilUsPerCall} µs direct, ` +
          `through Public ${f.public!.anvilUsPerCall} µs + service ${f.public!.serviceUsPerCall} µs` +
          floors.map((t) => `, through the ${FLOOR_NAMES[t]} ${f[t]!.anvilUsPerCall} µs + proxy ${f[t]!.serviceUsPerCall} µs`).join(""),
      );
    }

    const seq = await sequential(service.urls.public, SEQUENTIAL_CALLS);
    console.log(
      `${SEQUENTIAL_CALLS} sequential eth_blockNumber through the Public RPC (default limit): ${seq.tooMany} answered 429, ${seq.other} other failures, ${(seq.ms / 1000).toFixed(1)} s`,
    );

    // The suite as forge runs it (a thread per core) and on one thread: its calls one at a time, as on one connection.
    const project = await forgeProject(foundrySuiteSources());
    const forgeTimes: Record<ForgeRun, number[]> = { anvil: [], public: [], anvilOneThread: [], publicOneThread: [] };
    const passed: Record<ForgeRun, boolean> = { anvil: true, public: true, anvilOneThread: true, publicOneThread: true };
    try {
      await project.forge(["build"]);
      // The first run of a project writes forge's caches: not timed.
      await project.forge(["test", "--fork-url", service.urls.anvil]);
      for (let run = 0; run < FORGE_RUNS; run += 1) {
        for (const name of FORGE_RUNS_NAMES) {
          const target = name.startsWith("anvil") ? "anvil" : "public";
          const threads = name.endsWith("OneThread") ? ["--threads", "1"] : [];
          const started = performance.now();
          const result = await project
            .forge(["test", "--fork-url", service.urls[target], ...threads])
            .catch((error: { stdout?: string; stderr?: string }) => ({
              stdout: `${error.stdout ?? ""}${error.stderr ?? ""}`,
              failed: true,
            }));
          forgeTimes[name].push(performance.now() - started);
          const ok = !("failed" in result) && new RegExp(`${SUITE_TESTS} tests passed, 0 failed`).test(result.stdout);
          if (!ok) {
            passed[name] = false;
            console.log(`forge test (${name}) failed:\n${result.stdout.slice(-2000)}`);
          }
        }
      }
    } finally {
      await project.close();
    }
    const forgeMs = Object.fromEntries(FORGE_RUNS_NAMES.map((name) => [name, Math.round(median(forgeTimes[name]))])) as Record<
      ForgeRun,
      number
    >;
    const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
    console.log(
      `forge test --fork-url (${SUITE_TESTS} tests, medians of ${FORGE_RUNS}): anvil ${seconds(forgeMs.anvil)}, Public RPC ${seconds(forgeMs.public)}; ` +
        `on one thread: anvil ${seconds(forgeMs.anvilOneThread)}, Public RPC ${seconds(forgeMs.publicOneThread)}`,
    );

    // Whether the URLs' figures are the native hop's: the calls it answered itself, over the whole run.
    const { hop } = await service.cpu();
    console.log(
      hop === null
        ? "native hop: not running (not built here, or CHAINFORM_NATIVE_RPC=off): the service answered every call itself"
        : `native hop: answered ${hop.answered} calls on the ${hop.adopted} connections handed to it (${hop.handedBack} handed back)`,
    );

    const ratios: Record<string, number> = {};
    for (const [name, f] of Object.entries(figures)) {
      const r = paired[name];
      if (r.floor) ratios[`${name}FloorThroughput`] = r.floor.median;
      if (r.nativeFloor) ratios[`${name}NativeFloorThroughput`] = r.nativeFloor.median;
      ratios[`${name}PublicThroughput`] = r.public!.median;
      ratios[`${name}AdminThroughput`] = r.admin!.median;
      ratios[`${name}PublicP99ExtraMs`] = round2(f.public!.p99 - f.anvil!.p99);
      ratios[`${name}AdminP99ExtraMs`] = round2(f.admin!.p99 - f.anvil!.p99);
    }
    ratios.forgePublicVsAnvil = round2(forgeMs.public / forgeMs.anvil);
    ratios.forgeOneThreadPublicVsAnvil = round2(forgeMs.publicOneThread / forgeMs.anvilOneThread);
    console.log(
      JSON.stringify({
        benchmark: "rpc",
        seconds: SECONDS,
        rounds: ROUNDS,
        loads: figures,
        pairedThroughput: paired,
        sequentialCalls: SEQUENTIAL_CALLS,
        sequential429: seq.tooMany,
        forgeTests: SUITE_TESTS,
        forgeMs,
        forgePassed: passed,
        nativeHop: hop,
        ratios,
        targets: {
          throughput16: 0.8,
          throughput1: 0.6,
          p99ExtraMs: 2,
          sequential429: 0,
          forgePublicVsAnvil: 1.3,
          forgeOneThreadPublicVsAnvil: 1.3,
        },
      }),
    );
  } finally {
    await service.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
