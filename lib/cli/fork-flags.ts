/**
 * The fork flags `serve` and `up` share: `--fork NETWORK_ID=URL` (repeatable; `CHAINFORM_FORK_URLS` too, the flags
 * winning per network), `--fork-cache DIR` and `--offline` (docs/forking.md). Upstream URLs carry API keys: no
 * message here quotes one.
 */
import { resolve } from "node:path";
import type { ParseArgsConfig } from "node:util";
import { forkUrlsFromEnv, parseForkUrls } from "../service/chains";
import { isOciUrl, OciError, openSharedRecordings, type SharedRecordings } from "../oci";
import { UsageError } from "./command";

/** The options, for node:util parseArgs. */
export const FORK_OPTIONS = {
  fork: { type: "string", multiple: true },
  "fork-cache": { type: "string" },
  offline: { type: "boolean", default: false },
  "offline-empty-accounts": { type: "boolean", default: false },
} as const satisfies ParseArgsConfig["options"];

/** Usage lines of {@link FORK_OPTIONS}. */
export const FORK_OPTIONS_USAGE = `  --fork ID=URL      fork network ID (a chain id) from the upstream RPC URL (repeatable; also CHAINFORM_FORK_URLS,
                     "1=https://...,8453=https://..."); without it a network is a fresh chain
  --fork-cache DIR   keep recordings of upstream answers in DIR (default: the data dir's fork-cache/), or share them
                     with a CI fleet through an OCI registry: oci://HOST/REPOSITORY[:PREFIX] (docs/oci-store.md)
  --offline          serve forks from recordings only: no request leaves the machine
  --offline-empty-accounts
                     offline, an account no recording holds reads as empty (no balance, nonce or code) instead of
                     an error, logged once per account: for tests that make fresh wallets each run`;

/** The values of {@link FORK_OPTIONS}. */
export interface ForkValues {
  readonly fork?: string[] | undefined;
  readonly "fork-cache"?: string | undefined;
  readonly offline?: boolean | undefined;
  readonly "offline-empty-accounts"?: boolean | undefined;
}

/** The service's fork settings from the flags and `CHAINFORM_FORK_URLS`; a usage error names what to fix. */
export function forkSettings(values: ForkValues): {
  forkUrls: Record<string, string>;
  forkCacheDir: string | null;
  offline: boolean;
  offlineEmptyAccounts: boolean;
} {
  try {
    const forkUrls = { ...forkUrlsFromEnv(process.env.CHAINFORM_FORK_URLS), ...parseForkUrls(values.fork ?? []) };
    return {
      forkUrls,
      // A shared cache (oci://) becomes a local directory in openForkCache, before the service starts.
      forkCacheDir: values["fork-cache"] === undefined || isOciUrl(values["fork-cache"]) ? null : resolve(values["fork-cache"]),
      offline: values.offline === true,
      offlineEmptyAccounts: values["offline-empty-accounts"] === true,
    };
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/** A fork cache the service reads as a directory: the one given, or the local mirror of a shared one. */
export interface ForkCache {
  /** The directory for the service, or null for its default (the data dir's). */
  readonly dir: string | null;
  /** For `oci://…`, the registry the directory mirrors, which the service's forks ask before their upstreams. */
  readonly shared: SharedRecordings | null;
  /** Stops publishing and publishes what the service recorded (a shared cache), then removes the mirror. */
  close(): Promise<void>;
}

/**
 * The `--fork-cache` the service reads: a directory as given, or for `oci://…` a mirror pulled from the registry
 * before the service starts, looked at again when a fork misses, and published to soon after the service saves new
 * answers and when it stops. A registry that cannot be reached
 * or refuses the credentials is one warning on `warn`, never a failed start (forks then start cold).
 */
export async function openForkCache(values: ForkValues, dir: string | null, warn: (line: string) => void): Promise<ForkCache> {
  const place = values["fork-cache"];
  if (place === undefined || !isOciUrl(place)) return { dir, shared: null, close: async () => {} };
  let shared;
  try {
    shared = await openSharedRecordings(place, warn, { caFile: process.env.CHAINFORM_CA_FILE || undefined });
  } catch (error) {
    throw error instanceof OciError ? new UsageError(`--fork-cache ${error.message}`) : error;
  }
  return { dir: shared.dir, shared, close: () => shared.close() };
}
