/**
 * The flags of the local service that `serve` and `up` (its embedded service) share: `--max-chains N`,
 * `--log-file FILE` and `--rpc-timeout SECONDS`, with their usage lines and the checks of their values.
 */
import { resolve } from "node:path";
import type { ParseArgsConfig } from "node:util";
import { DEFAULT_MAX_RUNNING_CHAINS } from "../service/chains";
import { UsageError } from "./command";

/** Seconds one call to a chain may take before it fails, unless `--rpc-timeout` says otherwise. */
export const DEFAULT_RPC_TIMEOUT_SECONDS = 30;

/** The options, for node:util parseArgs. */
export const SERVICE_OPTIONS = {
  "max-chains": { type: "string" },
  "log-file": { type: "string" },
  "rpc-timeout": { type: "string" },
} as const satisfies ParseArgsConfig["options"];

/** Usage lines of {@link SERVICE_OPTIONS}. */
export const SERVICE_OPTIONS_USAGE = `  --max-chains N     chains running at once (default ${DEFAULT_MAX_RUNNING_CHAINS}); beyond it the idlest is stopped (state kept),
                     and when all are busy a start is refused with 503
  --log-file FILE    append the service's log (JSON lines, secrets redacted) to FILE
  --rpc-timeout SECONDS  how long one call to a chain may take before it fails (default ${DEFAULT_RPC_TIMEOUT_SECONDS})`;

/** The values of {@link SERVICE_OPTIONS}. */
export interface ServiceValues {
  readonly "max-chains"?: string | undefined;
  readonly "log-file"?: string | undefined;
  readonly "rpc-timeout"?: string | undefined;
}

/** The service settings the flags give; a usage error names the flag to fix. */
export function serviceSettings(values: ServiceValues): { maxChains?: number; logFile?: string; rpcTimeoutMs: number } {
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
  };
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
