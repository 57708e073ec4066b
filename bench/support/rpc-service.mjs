/**
 * The service `bench/rpc` measures, in a process of its own (the load generator must not share its event loop): the
 * built service (dist/, what `chainform serve` runs; `npm run build` first) of this package, or of the package root
 * `BENCH_RPC_ROOT` names (an older checkout, to compare), in memory, with an environment of one
 * network with funded accounts and one call made so that the chain runs. It prints one JSON line: the Public and
 * Admin RPC URLs, the URL of the vnet's anvil and its IPC socket. `BENCH_RPC_LIMIT` sets the per-URL RPC limit (default: the
 * service's); it runs until stdin closes. Each `cpu` line on stdin is answered with one JSON line: the CPU time this
 * process and the vnet's anvil have used so far (µs), so that the benchmark can tell what a call costs each of them
 * whatever else the machine runs; with `BENCH_RPC_FORK_URL` the network forks that upstream (the read-heavy shape), and with `BENCH_RPC_DATA_DIR`
 * the service keeps its data there (journal and records on disk, fsynced, as `chainform serve` does; the write-heavy
 * shape), else in memory; `cpu PID...` adds `otherUs`, the same of each process PID, in order, and `hop`:
 * what an older service's native hop (removed since) has answered so far, null where none runs. `profile` and
 * `profile FILE` start and stop a CPU profile of this process (`profile` below).
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { createInterface } from "node:readline";

/** Accounts the environment funds: the Foundry suite's test accounts read and write them. */
const FUNDED = ["0x00000000000000000000000000000000000a11ce", "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266"];

const root = process.env.BENCH_RPC_ROOT ? new URL(`file://${process.env.BENCH_RPC_ROOT}/`) : new URL("../../", import.meta.url);
const built = new URL("dist/service/listen.js", root);
if (!existsSync(built)) {
  console.error(`bench/rpc measures the built service: run \`npm run build\` in ${root.pathname} first`);
  process.exit(2);
}
const { startServer } = createRequire(built.pathname)(built.pathname);

const rpcLimit = process.env.BENCH_RPC_LIMIT ? Number(process.env.BENCH_RPC_LIMIT) : undefined;
const forkUrl = process.env.BENCH_RPC_FORK_URL;
const service = await startServer({
  dataDir: process.env.BENCH_RPC_DATA_DIR ?? null,
  port: 0,
  ...(forkUrl && { forkUrls: { 1: forkUrl } }),
  rateLimits: { rateLimit: 1e9, burstLimit: 1e9, unauthenticatedLimit: 1e9, ...(rpcLimit !== undefined && { rpcLimit }) },
});
const project = `${service.baseUrl}/public/v1/account/${service.accountSlug}/project/${service.projectSlug}`;
const response = await fetch(`${project}/environments`, {
  method: "POST",
  headers: { "X-Access-Key": service.accessKey, "content-type": "application/json" },
  body: JSON.stringify({
    display_name: "bench rpc",
    network_configs: [{ network_id: "1", accounts: FUNDED.map((address) => ({ address, balance: "0x56bc75e2d63100000" })) }],
  }),
});
if (response.status !== 200 && response.status !== 201) throw new Error(`create: ${response.status} ${await response.text()}`);
const vnet = (await response.json()).active_instance.vnets[0];
const url = (name) => vnet.rpcs.find((r) => r.name === name).url;
await fetch(url("Public RPC"), { method: "POST", body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId" }) });
const node = service.app.service.engine.runningNode(vnet.id);
const anvilPid = node.pids[node.pids.length - 1];
const anvilArgs = readFileSync(`/proc/${anvilPid}/cmdline`, "utf8").split("\0");
const ipcPath = anvilArgs[anvilArgs.indexOf("--ipc") + 1];
const ready = { publicUrl: url("Public RPC"), adminUrl: url("Admin RPC"), anvilUrl: node.rpc.url, ipcPath, pid: process.pid };
process.stdout.write(`${JSON.stringify(ready)}\n`);
const lines = createInterface({ input: process.stdin });
let profiler = null;
lines.on("line", (line) => {
  const [command, ...others] = line.trim().split(/\s+/);
  if (command === "profile") return void profile(others[0]);
  if (command !== "cpu") return;
  const { user, system } = process.cpuUsage();
  const answer = {
    serviceUs: user + system,
    anvilUs: processCpuUs(anvilPid),
    otherUs: others.map((pid) => processCpuUs(Number(pid))),
    hop: service.app.nativeHop?.stats?.() ?? null,
  };
  process.stdout.write(`${JSON.stringify(answer)}\n`);
});
lines.on("close", () => void service.close().then(() => process.exit(0)));

/**
 * `profile` starts V8's CPU profiler in this process (only around the turns that matter, unlike `--cpu-prof`, which
 * takes the whole life); `profile FILE` stops it and writes the profile there. Each answers one line, `{}`.
 */
async function profile(file) {
  const { Session } = await import("node:inspector/promises");
  if (!profiler) {
    profiler = new Session();
    profiler.connect();
    await profiler.post("Profiler.enable");
    await profiler.post("Profiler.setSamplingInterval", { interval: 200 });
    await profiler.post("Profiler.start");
  } else if (file) {
    const { profile: taken } = await profiler.post("Profiler.stop");
    writeFileSync(file, JSON.stringify(taken));
    profiler.disconnect();
    profiler = null;
  }
  process.stdout.write("{}\n");
}

/** CPU time (user and system) of a process, from /proc (clock ticks of 10 ms): µs. */
function processCpuUs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}
