/**
 * The local service `chainform up` starts in-process when CHAINFORM_BASE_URL is not set: loopback, a free port,
 * in memory (or in a data dir), the default seed. Its settings reach the app and terraform as CHAINFORM_*.
 */
import { resolve } from "node:path";
import { startServer } from "../service/listen";
import { listenFailure } from "./errors";
import { openForkCache } from "./fork-flags";

/** A running embedded service. */
export interface EmbeddedService {
  readonly baseUrl: string;
  /** A one-time dashboard sign-in link (single use, 10 minutes). */
  readonly dashboardUrl: string;
  /** CHAINFORM_BASE_URL, CHAINFORM_ACCESS_KEY, CHAINFORM_ACCOUNT and CHAINFORM_PROJECT for the children. */
  readonly env: Readonly<Record<string, string>>;
  /** Stops the service and its chains. */
  close(): Promise<void>;
}

/**
 * Starts the service. `dataDir` null keeps everything in memory.
 * @example
 * const service = await startEmbeddedService({ dataDir: null });
 * spawn("terraform", ["apply"], { env: { ...process.env, ...service.env } });
 */
export async function startEmbeddedService(options: {
  dataDir: string | null;
  port?: number;
  /** Upstream RPC URLs by network id (`--fork`), secrets; recordings dir (`--fork-cache`); `--offline`. */
  forkUrls?: Readonly<Record<string, string>>;
  forkCacheDir?: string | null;
  /** `--fork-cache` as given: an `oci://` URL is a shared cache, mirrored into a local directory (docs/oci-store.md). */
  forkCachePlace?: string;
  offline?: boolean;
  /** Offline, accounts no recording holds read as empty (`--offline-empty-accounts`). */
  offlineEmptyAccounts?: boolean;
  /** At most this many chains at once (`--max-chains`); default the service's. */
  maxChains?: number;
  /** Append the service's log to this file (`--log-file`); default: no log. */
  logFile?: string;
  /** How long one call to a chain may take (`--rpc-timeout`, ms); default the service's. */
  rpcTimeoutMs?: number;
  /** A chain unused this long (ms) is stopped, state kept (`--idle-stop`); 0 never; default the service's. */
  idleStopMs?: number;
  /** Calls per minute per RPC URL (`--rpc-rate-limit`); default: the service's, which no suite reaches. */
  rpcRateLimit?: number;
}): Promise<EmbeddedService> {
  const forkCache = await openForkCache({ "fork-cache": options.forkCachePlace }, options.forkCacheDir ?? null, (line) =>
    process.stderr.write(`chainform: ${line}\n`),
  );
  const service = await startServer({
    ...(options.rpcRateLimit !== undefined && { rateLimits: { rpcLimit: options.rpcRateLimit } }),
    host: "127.0.0.1",
    port: options.port ?? 0,
    dataDir: options.dataDir === null ? null : resolve(options.dataDir),
    accessKey: process.env.CHAINFORM_ACCESS_KEY || undefined,
    forkUrls: options.forkUrls,
    forkCacheDir: forkCache.dir,
    sharedForkCache: forkCache.shared,
    offline: options.offline,
    offlineEmptyAccounts: options.offlineEmptyAccounts,
    maxChains: options.maxChains,
    rpcTimeoutMs: options.rpcTimeoutMs,
    idleStopMs: options.idleStopMs,
    ...(options.logFile !== undefined && { logger: { level: "info", file: options.logFile } }),
  }).catch(async (error: unknown) => {
    await forkCache.close();
    throw listenFailure(error, "127.0.0.1", options.port ?? 0, "--port N");
  });
  return {
    baseUrl: service.baseUrl,
    dashboardUrl: service.dashboardUrl,
    env: {
      CHAINFORM_BASE_URL: service.baseUrl,
      CHAINFORM_ACCESS_KEY: service.accessKey,
      CHAINFORM_ACCOUNT: service.accountSlug,
      CHAINFORM_PROJECT: service.projectSlug,
    },
    async close() {
      await service.close();
      await forkCache.close(); // after the service: it has saved every recording by then
    },
  };
}
