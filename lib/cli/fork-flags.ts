/**
 * The fork flags `serve` and `up` share: `--fork NETWORK_ID=URL` (repeatable; `CHAINFORM_FORK_URLS` too, the flags
 * winning per network), `--fork-cache DIR` and `--offline` (docs/forking.md). Upstream URLs carry API keys: no
 * message here quotes one.
 */
import { resolve } from "node:path";
import type { ParseArgsConfig } from "node:util";
import { forkUrlsFromEnv, parseForkUrls } from "../service/chains";
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
  --fork-cache DIR   keep recordings of upstream answers in DIR (default: the data dir's fork-cache/)
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
      forkCacheDir: values["fork-cache"] === undefined ? null : resolve(values["fork-cache"]),
      offline: values.offline === true,
      offlineEmptyAccounts: values["offline-empty-accounts"] === true,
    };
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}
