/**
 * A timing log of a provider process, for finding where a `terraform plan` spends its time: with
 * `CHAINFORM_PROVIDER_TRACE=FILE` in Terraform's environment, every provider process appends one JSON line per
 * event to FILE: when it started, when it sent the handshake, when it loaded the provider's code, and each RPC with
 * its duration. `bench/provider.ts` reads it to explain the gap to Terraform's built-in resources.
 *
 * Lines carry only names and times (never request or response contents, which may hold secrets).
 */
import { openSync, writeSync } from "node:fs";

/** The environment variable naming the trace file. */
export const TRACE_ENV = "CHAINFORM_PROVIDER_TRACE";

/**
 * One line of the trace. `at` is ms since the process started (performance.timeOrigin), `cpu` the process's CPU
 * time (user + system, ms) by then: on a loaded machine wall times swell, CPU times much less. `maxRssKb` is the
 * peak resident set size so far.
 */
export interface TraceEvent {
  readonly pid: number;
  /** `handshake`, `load` (the provider's code), `rpc`, `shutdown`. */
  readonly event: string;
  readonly at: number;
  readonly cpu: number;
  readonly maxRssKb: number;
  /** For `rpc`: the RPC name. */
  readonly rpc?: string;
  /** For `rpc` and `load`: how long it took. */
  readonly ms?: number;
}

const traceFile = process.env[TRACE_ENV] || undefined;

/** Whether this process writes a trace. */
export const tracing = traceFile !== undefined;

/**
 * Appends one event to the trace (nothing when tracing is off). Synchronous, so that the last events of a process
 * that exits right after are not lost; a failing write is ignored (tracing never breaks the provider).
 * @example
 * trace("rpc", { rpc: "PlanResourceChange", ms: 3.2 });
 */
export function trace(event: string, fields: { rpc?: string; ms?: number } = {}): void {
  if (!traceFile) return;
  const usage = process.resourceUsage();
  const line: TraceEvent = {
    pid: process.pid,
    event,
    at: round(performance.now()),
    cpu: round((usage.userCPUTime + usage.systemCPUTime) / 1000),
    maxRssKb: usage.maxRSS,
    ...fields,
    ...(fields.ms === undefined ? {} : { ms: round(fields.ms) }),
  };
  try {
    // One append-mode descriptor for the process (each line is one write, so processes do not interleave).
    traceFd ??= openSync(traceFile, "a");
    writeSync(traceFd, `${JSON.stringify(line)}\n`);
  } catch {
    // ignored: see above
  }
}

let traceFd: number | undefined;
const round = (ms: number) => Math.round(ms * 100) / 100;
