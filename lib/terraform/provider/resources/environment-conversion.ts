/**
 * The conversions of `chainform_environment` (./environment.ts): the service's Environment to state, a plan to the
 * create request, and what state keeps beyond the service's answer.
 */
import type { CreateEnvironmentRequest, Environment, NetworkConfig } from "../../../client";
import { blockNumberHex, sameBlockNumber } from "../../../domain/chain";
import type { RelayMode, VerificationVisibility } from "../../../domain/environment-rules";
import { isUnknown } from "../../framework";
import { normalizeBalance } from "../../../domain/amounts";
import type { ChainformProviderData } from "../provider-data";
import { BRIDGE_ADDRESS } from "../../../domain/bridge-contract";
import { endpointsOf, type VnetState } from "./vnets";
import type { BridgeState, EnvironmentState, NetworkConfigState } from "./environment-schema";

/**
 * What Terraform already knows of the environment: the plan (create) or the prior state (read). It supplies what
 * the service's answer does not show (chain-id overrides, explorer, accounts, bridge, slug_prefix) and the user's
 * spelling of what it does show. Null on import.
 */
export type Known = {
  readonly slug_prefix?: unknown;
  readonly clone_from?: unknown;
  readonly network_config?:
    | readonly {
        network_id?: unknown;
        block_number?: unknown;
        chain_id?: unknown;
        explorer?: unknown;
        account?: readonly { address?: unknown; balance?: unknown }[] | unknown;
      }[]
    | unknown;
  readonly bridge?: readonly Partial<Record<keyof BridgeState, unknown>>[] | unknown;
} | null;

/**
 * The one mapping from the service's Environment to state. From the answer it takes what the service documents:
 * id, display name, slug, created_at, the instance, the networks in order with their fork blocks (keeping the
 * known spelling of the same block number), and the vnets' RPC URLs. Everything else comes from `known`, matched
 * by network_id: the chain-id override, explorer settings and accounts of each network, and the bridge. A network
 * the answer shows that `known` lacks (import) gets no settings: the service cannot tell them.
 *
 * `answered` (read and import) are the chain ids the vnets answer with (`eth_chainId`), keyed by network id: they
 * override what `known` says, so that state never claims a chain id the chain does not answer. The override is
 * null when the chain answers its network's own id and nothing else was written.
 */
export function toState(environment: Environment, known: Known, answered?: ReadonlyMap<string, string>): EnvironmentState {
  const knownNetworks = listOf(known?.network_config);
  const fromAnswer =
    (environment.networks?.length ?? 0) > 0
      ? environment.networks.map((n) => ({ network_id: String(n.network_id), block_number: n.block_number ?? null }))
      : (environment.active_instance?.vnets ?? []).map((v) => ({
          network_id: String(v.fork_config?.network_id),
          block_number: v.fork_config?.block_number ?? null,
        }));
  const network_config = fromAnswer.map((network, index): NetworkConfigState => {
    const written =
      knownNetworks.find((n) => n.network_id === network.network_id) ??
      (knownNetworks[index]?.network_id === undefined ? knownNetworks[index] : undefined);
    return {
      network_id: network.network_id,
      block_number: keepSpelling(written?.block_number, network.block_number, sameBlockNumber),
      chain_id: chainIdOf(
        network.network_id,
        typeof written?.chain_id === "string" && !isUnknown(written.chain_id) ? written.chain_id : null,
        answered?.get(network.network_id),
      ),
      explorer: listOf(written?.explorer).map((e) => e as NetworkConfigState["explorer"][number]),
      account: listOf(written?.account).map((a) => a as NetworkConfigState["account"][number]),
    };
  });
  const bridge = listOf(known?.bridge).map((b) => b as BridgeState);
  const chainIds = new Map(network_config.map((n) => [n.network_id, n.chain_id]));
  return {
    id: environment.id,
    display_name: environment.display_name,
    slug: environment.slug,
    slug_prefix: typeof known?.slug_prefix === "string" && !isUnknown(known.slug_prefix) ? known.slug_prefix : null,
    clone_from: typeof known?.clone_from === "string" && !isUnknown(known.clone_from) ? known.clone_from : null,
    created_at: environment.created_at,
    instance_id: environment.active_instance?.id ?? null,
    network_config,
    bridge,
    ...endpointsOf(environment, { chainIdOf: (networkId) => chainIds.get(networkId) ?? null, bridgeEnabled: bridge[0]?.enabled === true }),
  } as EnvironmentState;
}

/** The chain-id override state holds: what the chain answers, spelled as written when they agree. */
function chainIdOf(networkId: string, written: string | null, answered: string | undefined): string | null {
  if (answered === undefined || answered === written) return written;
  return answered === networkId && written === null ? null : answered;
}

function listOf<T = Record<string, unknown>>(value: unknown): T[] {
  return Array.isArray(value) ? (value.filter((v) => v !== null && typeof v === "object" && !isUnknown(v)) as T[]) : [];
}

function keepSpelling(written: unknown, actual: string | null, same: (a: string, b: string) => boolean): string | null {
  return typeof written === "string" && actual !== null && !isUnknown(written) && same(written, actual) ? written : actual;
}

/** The create request for a plan (balances normalized to hex wei, block numbers to canonical hex) and a known slug. */
export function createRequest(plan: {
  display_name: string;
  slug: string | null;
  network_config: readonly NetworkConfigState[];
  bridge: readonly BridgeState[];
}): CreateEnvironmentRequest {
  const network_configs = plan.network_config.map((n): NetworkConfig => {
    const config: NetworkConfig = { network_id: n.network_id };
    if (typeof n.block_number === "string" && !isUnknown(n.block_number)) config.block_number = blockNumberHex(n.block_number);
    if (n.chain_id !== null) config.chain_config_overrides = { chain_id: n.chain_id };
    const explorer = n.explorer[0];
    if (explorer) {
      config.explorer_config = {};
      if (explorer.enabled !== null) config.explorer_config.enabled = explorer.enabled;
      if (explorer.verification_visibility !== null) {
        config.explorer_config.verification_visibility = explorer.verification_visibility as VerificationVisibility;
      }
    }
    if (n.account.length > 0) config.accounts = n.account.map((a) => ({ address: a.address, balance: normalizeBalance(a.balance) }));
    return config;
  });
  const request: CreateEnvironmentRequest = { display_name: plan.display_name, network_configs };
  if (plan.slug !== null && !isUnknown(plan.slug)) request.slug = plan.slug;
  const bridge = plan.bridge[0];
  if (bridge) {
    request.bridge_config = {};
    if (bridge.enabled !== null) request.bridge_config.enabled = bridge.enabled;
    if (bridge.relay_mode !== null) request.bridge_config.relay_mode = bridge.relay_mode as RelayMode;
    if (bridge.delay_seconds !== null) request.bridge_config.delay_seconds = bridge.delay_seconds;
  }
  return request;
}

/** The arguments of a plan (what update may change: spellings, and slug_prefix when the slug already fits it). */
export function pickInputs(plan: EnvironmentState): Pick<EnvironmentState, "network_config" | "bridge" | "slug_prefix"> {
  return { network_config: plan.network_config, bridge: plan.bridge, slug_prefix: plan.slug_prefix };
}

/** The vnets with what state knows beyond the service's answer: each chain id and the bridge address. */
export function withSettings(
  vnets: readonly VnetState[],
  networks: readonly NetworkConfigState[],
  bridge: readonly BridgeState[],
): VnetState[] {
  return vnets.map((vnet) => ({
    ...vnet,
    chain_id: networks.find((n) => n.network_id === vnet.network_id)?.chain_id ?? vnet.network_id,
    bridge_address: bridge[0]?.enabled === true ? BRIDGE_ADDRESS : null,
  }));
}

/**
 * The state as the provider's `admin_rpc_urls_in_state` wants it: when that is false, without Admin RPC URLs
 * (`admin_rpc_urls` empty, `vnets[*].admin_rpc_url` null), so that neither state nor plan files hold them.
 */
export function keptInState<T extends { admin_rpc_urls: Record<string, string>; vnets: readonly { admin_rpc_url: string | null }[] }>(
  state: T,
  data: Pick<ChainformProviderData, "adminRpcUrlsInState"> | undefined,
): T {
  if (data?.adminRpcUrlsInState !== false) return state;
  return { ...state, admin_rpc_urls: {}, vnets: state.vnets.map((vnet) => ({ ...vnet, admin_rpc_url: null })) };
}
