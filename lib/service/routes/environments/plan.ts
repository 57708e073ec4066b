/**
 * Turns a create-environment request into what the store writes: the rules beyond the schema (supported
 * network with Virtual Environments, no network twice, no chain id twice, `delay_seconds` only with
 * `delayedRelay`), defaults (fork point, chain id, bridge settings, slug) and normalized hex.
 */
import type { CreateEnvironmentRequest, NetworkConfig, StoredEnvironmentSettings } from "../../../spec";
import { badRequest } from "../../errors";
import { slugify } from "../../../spec/slug";
import type { NewEnvironment, Store } from "../../store";

/** Lowercase hex without leading zeros (`0x00FF` → `0xff`, `0x000` → `0x0`). */
export function canonicalQuantity(hex: string): string {
  const digits = hex.slice(2).toLowerCase().replace(/^0+/, "");
  return `0x${digits === "" ? "0" : digits}`;
}

/** Validates and normalizes a create request for a project; throws the 400 naming the field at fault. */
export function planEnvironment(store: Store, projectId: string, request: CreateEnvironmentRequest): NewEnvironment {
  const slug = request.slug ?? slugify(request.display_name);
  const seenNetworks = new Map<string, number>();
  const seenChainIds = new Map<number, number>();
  const vnets = request.network_configs.map((config, index) => {
    const at = `/network_configs/${index}`;
    const network = store.networks.byChainId(config.network_id);
    if (!network) {
      throw badRequest(`network_configs[${index}].network_id: ${config.network_id} is not a supported network`, `${at}/network_id`, {
        rid: "rid:network",
      });
    }
    if (!network.supported_features.virtual_testnet) {
      throw badRequest(
        `network_configs[${index}].network_id: ${network.network_name} (${network.chain_id}) does not support Virtual Environments`,
        `${at}/network_id`,
        { rid: "rid:network" },
      );
    }
    const twin = seenNetworks.get(config.network_id);
    if (twin !== undefined) {
      throw badRequest(`network_configs[${index}].network_id: network ${config.network_id} is already network_configs[${twin}]`, `${at}/network_id`);
    }
    seenNetworks.set(config.network_id, index);
    const chainId = Number(config.chain_config_overrides?.chain_id ?? config.network_id);
    const chainTwin = seenChainIds.get(chainId);
    if (chainTwin !== undefined) {
      throw badRequest(
        `network_configs[${index}]: chain id ${chainId} is already the chain id of network_configs[${chainTwin}]`,
        `${at}/chain_config_overrides/chain_id`,
      );
    }
    seenChainIds.set(chainId, index);
    return {
      networkId: network.chain_id,
      networkName: network.network_name,
      chainId,
      slug: `${slug}-${network.network_slugs.vnet_rpc_slug || network.chain_id}`,
      displayName: `${request.display_name} (${network.network_name})`,
      blockNumber: config.block_number ? canonicalQuantity(config.block_number) : `0x${network.latest_block.toString(16)}`,
      accounts: normalizedAccounts(config, at),
    };
  });
  return {
    projectId,
    slug,
    displayName: request.display_name,
    networkConfigs: request.network_configs.map((config, index) => normalizedConfig(config, vnets[index].accounts)),
    bridgeConfig: bridgeConfigOf(request),
    vnets,
  };
}

function normalizedAccounts(config: NetworkConfig, at: string): { address: string; balance: string }[] {
  const seen = new Map<string, number>();
  return (config.accounts ?? []).map((account, index) => {
    const address = account.address.toLowerCase();
    const twin = seen.get(address);
    if (twin !== undefined) {
      throw badRequest(`${at.slice(1)}/accounts/${index}: address ${address} is already accounts[${twin}]`, `${at}/accounts/${index}/address`);
    }
    seen.set(address, index);
    return { address, balance: canonicalQuantity(account.balance) };
  });
}

function normalizedConfig(config: NetworkConfig, accounts: NetworkConfig["accounts"]): NetworkConfig {
  const normalized: NetworkConfig = { network_id: config.network_id };
  if (config.block_number !== undefined) normalized.block_number = canonicalQuantity(config.block_number);
  if (config.chain_config_overrides !== undefined) normalized.chain_config_overrides = { ...config.chain_config_overrides };
  if (config.explorer_config !== undefined) normalized.explorer_config = { ...config.explorer_config };
  if (config.accounts !== undefined) normalized.accounts = accounts;
  return normalized;
}

function bridgeConfigOf(request: CreateEnvironmentRequest): StoredEnvironmentSettings["bridge_config"] {
  const bridge = request.bridge_config ?? {};
  const relayMode = bridge.relay_mode ?? "autoRelay";
  if (bridge.delay_seconds !== undefined && relayMode !== "delayedRelay") {
    throw badRequest("bridge_config.delay_seconds is only allowed with relay_mode delayedRelay", "/bridge_config/delay_seconds");
  }
  return { enabled: bridge.enabled ?? false, relay_mode: relayMode, delay_seconds: bridge.delay_seconds ?? 0 };
}
