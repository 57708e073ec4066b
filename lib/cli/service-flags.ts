/**
 * The flags of the local service that `serve` and `up` (its embedded service) share: `--max-chains N`,
 * `--log-file FILE`, `--rpc-timeout SECONDS` and `--idle-stop DURATION|off`, with their usage lines and the checks of their values; and the
 * shell line both print to reach the service from another terminal.
 */
import { resolve } from "node:path";
import type { ParseArgsConfig } from "node:util";
import { DEFAULT_MAX_RUNNING_CHAINS } from "../service/chains";
import { UsageError } from "./command";
import { parseDuration } from "./duration";

/** How long a chain may go unused before it is stopped (state kept), unless `--idle-stop` says otherwise. */
export const DEFAULT_IDLE_STOP = "5m";

/** Seconds one call to a chain may take before it fails, unless `--rpc-timeout` says otherwise. */
export const DEFAULT_RPC_TIMEOUT_SECONDS = 30;

/** The options, for node:util parseArgs. */
export const SERVICE_OPTIONS = {
  "max-chains": { type: "string" },
  "log-file": { type: "string" },
  "rpc-timeout": { type: "string" },
  "idle-stop": { type: "string" },
} as const satisfies ParseArgsConfig["options"];

/** Usage lines of {@link SERVICE_OPTIONS}. */
export const SERVICE_OPTIONS_USAGE = `  --max-chains N     chains running at once (default ${DEFAULT_MAX_RUNNING_CHAINS}); beyond it the idlest is stopped (state kept),
                     and when all are busy a start is refused with 503
  --log-file FILE    append the service's log (JSON lines, secrets redacted) to FILE
  --rpc-timeout SECONDS  how long one call to a chain may take before it fails (default ${DEFAULT_RPC_TIMEOUT_SECONDS})
  --idle-stop DURATION   stop a chain unused this long, its state kept (its next call starts it again), e.g. 90s or
                     1h, or off (default ${DEFAULT_IDLE_STOP}); the log says when a chain stops and starts`;

/** The values of {@link SERVICE_OPTIONS}. */
export interface ServiceValues {
  readonly "max-chains"?: string | undefined;
  readonly "log-file"?: string | undefined;
  readonly "rpc-timeout"?: string | undefined;
  readonly "idle-stop"?: string | undefined;
}

/** The service settings the flags give; a usage error names the flag to fix. */
export function serviceSettings(values: ServiceValues): { maxChains?: number; logFile?: string; rpcTimeoutMs: number; idleStopMs: number } {
  const maxChains =
    values["max-chains"] === undefined ? undefined : integerIn(values["max-chains"], "--max-chains", 1, Number.MAX_SAFE_INTEGER);
  const seconds =
    values["rpc-timeout"] === undefined
      ? DEFAULT_RPC_TIMEOUT_SECONDS
      : integerIn(values["rpc-timeout"], "--rpc-timeout (seconds)", 1, 86_400);
  return {
    ...(maxChains !== undefined && { maxChains }),
    ...(values["log-file"] !== undefined && { logFile: resolve(values["log-file"]) }),
    rpcTimeoutMs: seconds * 1000,
    idleStopMs: idleStop(values["idle-stop"] ?? DEFAULT_IDLE_STOP),
  };
}

/**
 * `--idle-stop`: a duration in ms, or 0 for `off` (chains are never stopped for being idle).
 * @example
 * idleStop("90s") // 90_000
 */
export function idleStop(text: string): number {
  if (text === "off") return 0;
  try {
    return parseDuration(text);
  } catch (error) {
    throw new UsageError(`--idle-stop must be a duration or off: ${(error as Error).message}`);
  }
}

/**
 * A flag's whole-number value from `min` to `max`, or a usage error naming the flag and what it got.
 * @example
 * integerIn("8787", "--port", 0, 65_535) // 8787
 */
export function integerIn(text: string, flag: string, min: number, max: number): number {
  const value = /^[0-9]+$/.test(text) ? Number(text) : NaN;
  if (!(value >= min && value <= max))
    throw new UsageError(`${flag} must be an integer from ${min} to ${max}, got ${JSON.stringify(text)}`);
  return value;
}

/**
 * A shell line that sets a local service's CHAINFORM_* in another terminal (`up --keep` and `serve` print it).
 * @example
 * exportLine({ CHAINFORM_BASE_URL: "http://127.0.0.1:5000" }) // "  export CHAINFORM_BASE_URL='http://127.0.0.1:5000'"
 */
export function exportLine(env: Readonly<Record<string, string>>): string {
  return `  export ${Object.entries(env)
    .map(([name, value]) => `${name}='${value.replaceAll("'", "'\\''")}'`)
    .join(" ")}`;
}
