/** Sums up a provider trace (see trace.ts) for benchmarks: kept apart so that the provider never loads it. */
import type { TraceEvent } from "./trace";

/** Where the provider processes of one trace spent their time (sums over the processes, in ms). */
export interface TraceSummary {
  /** Provider processes Terraform started. */
  readonly processes: number;
  /** Process start to handshake line (Node's own start-up included; the launcher's shell is not). */
  readonly startupMs: number;
  /** Loading the provider's code on the first RPC. */
  readonly loadMs: number;
  /** Time with at least one RPC in flight (concurrent RPCs counted once), the load included. */
  readonly rpcBusyMs: number;
  /** Shutdown RPC to process exit. */
  readonly shutdownToExitMs: number;
  /** CPU time of the processes, up to their last event. */
  readonly cpuMs: number;
  /** The largest peak resident set size of any process, in MB. */
  readonly peakRssMb: number;
  /** Per RPC: calls, summed duration (concurrent calls overlap) and the longest call. */
  readonly rpcs: Readonly<Record<string, { calls: number; totalMs: number; maxMs: number }>>;
}

/**
 * Sums up a trace file's events by process.
 * @example
 * const summary = summarizeTrace(readFileSync(file, "utf8").trim().split("\n").map((line) => JSON.parse(line)));
 */
export function summarizeTrace(events: readonly TraceEvent[]): TraceSummary {
  const byProcess = new Map<number, TraceEvent[]>();
  for (const event of events) byProcess.set(event.pid, [...(byProcess.get(event.pid) ?? []), event]);
  let startupMs = 0;
  let loadMs = 0;
  let rpcBusyMs = 0;
  let shutdownToExitMs = 0;
  let cpuMs = 0;
  let peakRssKb = 0;
  const rpcs: Record<string, { calls: number; totalMs: number; maxMs: number }> = {};
  for (const list of byProcess.values()) {
    const first = (name: string) => list.find((event) => event.event === name);
    startupMs += first("handshake")?.at ?? 0;
    loadMs += first("load")?.ms ?? 0;
    const shutdown = first("shutdown");
    const exit = first("exit");
    if (shutdown && exit) shutdownToExitMs += exit.at - shutdown.at;
    cpuMs += Math.max(...list.map((event) => event.cpu));
    peakRssKb = Math.max(peakRssKb, ...list.map((event) => event.maxRssKb));
    const intervals: [number, number][] = [];
    for (const event of list) {
      if (event.event !== "rpc" || event.rpc === undefined || event.ms === undefined) continue;
      const entry = (rpcs[event.rpc] ??= { calls: 0, totalMs: 0, maxMs: 0 });
      entry.calls++;
      entry.totalMs += event.ms;
      entry.maxMs = Math.max(entry.maxMs, event.ms);
      intervals.push([event.at - event.ms, event.at]);
    }
    rpcBusyMs += unionLength(intervals);
  }
  for (const entry of Object.values(rpcs)) {
    entry.totalMs = round(entry.totalMs);
    entry.maxMs = round(entry.maxMs);
  }
  return {
    processes: byProcess.size,
    startupMs: round(startupMs),
    loadMs: round(loadMs),
    rpcBusyMs: round(rpcBusyMs),
    shutdownToExitMs: round(shutdownToExitMs),
    cpuMs: round(cpuMs),
    peakRssMb: round(peakRssKb / 1024),
    rpcs,
  };
}

function unionLength(intervals: [number, number][]): number {
  let total = 0;
  let end = -Infinity;
  for (const [from, to] of [...intervals].sort((a, b) => a[0] - b[0])) {
    if (to <= end) continue;
    total += to - Math.max(from, end);
    end = to;
  }
  return total;
}

const round = (ms: number) => Math.round(ms * 100) / 100;
