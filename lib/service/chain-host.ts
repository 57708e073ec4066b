/**
 * The chain engine's host, built from the store by what composes the service (app.ts): the engine sees the
 * service only through `ChainHost` (chains/types.ts), and the store knows nothing of chains. The database is shared
 * so that a call's journal rows (the engine's tables) and its transaction records (the store's) commit in one
 * transaction.
 */
import type { ChainHost, SharedForkCache, VnetChainSpec } from "./chains";
import type { Store } from "./store";

/** The fork settings of a service (`--fork`, `--fork-cache`, `--offline`, `--offline-empty-accounts`). */
export interface ChainHostSettings {
  /** Upstream RPC URLs to fork from, by network id. Secrets. */
  readonly forkUrls?: Readonly<Record<string, string>>;
  /** Where recordings of upstream answers are kept; default under the data dir. */
  readonly forkCacheDir?: string | null;
  /** The fork cache shared with other services that `forkCacheDir` mirrors (`--fork-cache oci://…`). */
  readonly sharedForkCache?: SharedForkCache | null;
  /** Serve forks from recordings only. */
  readonly offline?: boolean;
  /** Offline, read an account no recording holds as empty. */
  readonly offlineEmptyAccounts?: boolean;
}

/**
 * The engine's host over a store.
 *
 * @example
 * const engine = createAnvilEngine(chainHostOf(store, { forkUrls: { "1": upstreamUrl } }));
 */
export function chainHostOf(store: Store, settings: ChainHostSettings = {}): ChainHost {
  return {
    dataDir: store.dataDir,
    db: store.db,
    forkUrls: settings.forkUrls ?? {},
    forkCacheDir: settings.forkCacheDir ?? null,
    sharedForkCache: settings.sharedForkCache ?? null,
    offline: settings.offline === true,
    offlineEmptyAccounts: settings.offlineEmptyAccounts === true,
    resolveVnet: (vnetId) => vnetSpecOf(store, vnetId),
    recordTransaction: (transaction) => store.records.recordTransaction(transaction),
  };
}

/** Everything the engine needs to (re)start a vnet's chain, from the store; undefined once the vnet is deleted. */
function vnetSpecOf(store: Store, vnetId: string): VnetChainSpec | undefined {
  const vnet = store.environments.vnet(vnetId);
  if (!vnet) return undefined;
  const environment = store.environments.get(vnet.project_id, vnet.environment_id)!;
  const bridge = environment.bridge_config;
  return {
    vnetId: vnet.id,
    environmentId: vnet.environment_id,
    instanceId: vnet.instance_id,
    networkId: vnet.network_id,
    chainId: BigInt(vnet.chain_id),
    forkBlockNumber: vnet.block_number,
    accounts: vnet.accounts,
    bridge: bridge.enabled ? { relayMode: bridge.relay_mode, delaySeconds: bridge.delay_seconds } : null,
    peers: environment.vnets.filter((v) => v.id !== vnet.id).map((v) => ({ vnetId: v.id, chainId: BigInt(v.chain_id) })),
  };
}
