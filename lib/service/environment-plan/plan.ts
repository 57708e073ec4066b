/**
 * Turns a create-environment request into what the store writes: the rules beyond the schema (supported
 * network with Virtual Environments, and the shared rules of lib/domain: chain id and block number ranges, no
 * network, chain id or account twice, `delay_seconds` only with `delayedRelay`), defaults (fork point, chain id,
 * bridge settings, slug) and normalized hex.
 *
 * This folder is how a new environment is planned (here) and where its forks start (./create-fork-point.ts): the
 * create route and the environment files' import and clone (../environment-files) share it, so it sits below both.
 */
import {
  bridgeFindings,
  blockNumberHex,
  bridgeWithDefaults,
  canonicalHex,
  networkListFindings,
  parseBlockNumber,
  parseChainId,
  type CreateEnvironmentRequest,
  type NetworkConfig,
  type StoredEnvironmentSettings,
} from "../../api";
import { badRequest } from "../errors";
import { MAX_SLUG_LENGTH, slugify } from "../../domain/slug";
import type { NewEnvironment, Store } from "../store";

/**
 * Validates and normalizes a create request for a project; throws the 400 naming the field at fault. The slug is
 * the given one, else the display name's (the caller makes a generated slug unique: `generatedSlug`).
 */
export function planEnvironment(
  store: Store,
  projectId: string,
  request: CreateEnvironmentRequest,
  slug = request.slug ?? slugify(request.display_name),
): NewEnvironment {
  const chainIds = request.network_configs.map((config, index) => {
    const parsed = parseChainId(config.chain_config_overrides?.chain_id ?? config.network_id);
    if ("error" in parsed) {
      const field = config.chain_config_overrides?.chain_id !== undefined ? "chain_config_overrides/chain_id" : "network_id";
      throw badRequest(`network_configs[${index}].${field.replace("/", ".")}: ${parsed.error}`, `/network_configs/${index}/${field}`);
    }
    return parsed.chainId;
  });
  const vnets = request.network_configs.map((config, index) => {
    const at = `/network_configs/${index}`;
    const network = store.networks.byChainId(config.network_id);
    if (!network) {
      throw badRequest(
        `network_configs[${index}].network_id: ${config.network_id} is not a supported network. ${forkable(store)}`,
        `${at}/network_id`,
        {
          rid: "rid:network",
        },
      );
    }
    if (!network.supported_features.virtual_testnet) {
      throw badRequest(
        `network_configs[${index}].network_id: ${network.network_name} (${network.chain_id}) does not support Virtual Environments. ${forkable(store)}`,
        `${at}/network_id`,
        { rid: "rid:network" },
      );
    }
    if (config.block_number !== undefined) {
      const parsed = parseBlockNumber(config.block_number);
      if ("error" in parsed) throw badRequest(`network_configs[${index}].block_number: ${parsed.error}`, `${at}/block_number`);
    }
    return {
      networkId: network.chain_id,
      networkName: network.network_name,
      chainId: chainIds[index],
      slug: `${slug}-${network.network_slugs.vnet_rpc_slug || network.chain_id}`,
      displayName: `${request.display_name} (${network.network_name})`,
      blockNumber: config.block_number !== undefined ? blockNumberHex(config.block_number) : `0x${network.latest_block.toString(16)}`,
      accounts: (config.accounts ?? []).map((account) => ({
        address: account.address.toLowerCase(),
        balance: canonicalHex(account.balance),
      })),
    };
  });
  const [finding] = [
    ...networkListFindings(
      request.network_configs.map((config) => ({
        network_id: config.network_id,
        chain_id: config.chain_config_overrides?.chain_id,
        addresses: config.accounts?.map((a) => a.address),
      })),
    ),
    ...bridgeFindings(request.bridge_config),
  ];
  if (finding) throw badRequest(`${fieldName(finding.path)}: ${finding.message}`, finding.path);
  return {
    projectId,
    slug,
    displayName: request.display_name,
    networkConfigs: request.network_configs.map((config, index) => normalizedConfig(config, vnets[index].accounts)),
    bridgeConfig: bridgeConfigOf(request),
    vnets,
  };
}

/** The networks a request may fork, for messages: "Networks with Virtual Environments: 1 (Mainnet), 10 (Optimism), ...". */
function forkable(store: Store): string {
  const networks = store.networks.list().filter((n) => n.supported_features.virtual_testnet);
  return `Networks with Virtual Environments: ${networks.map((n) => `${n.chain_id} (${n.network_name})`).join(", ")} (GET .../supported-networks lists them).`;
}

function normalizedConfig(config: NetworkConfig, accounts: NetworkConfig["accounts"]): NetworkConfig {
  const normalized: NetworkConfig = { network_id: config.network_id };
  if (config.block_number !== undefined) normalized.block_number = blockNumberHex(config.block_number);
  if (config.chain_config_overrides !== undefined) normalized.chain_config_overrides = { ...config.chain_config_overrides };
  if (config.explorer_config !== undefined) normalized.explorer_config = { ...config.explorer_config };
  if (config.accounts !== undefined) normalized.accounts = accounts;
  return normalized;
}

function bridgeConfigOf(request: CreateEnvironmentRequest): StoredEnvironmentSettings["bridge_config"] {
  return bridgeWithDefaults(request.bridge_config);
}

/** A JSON pointer as people write the field: `/network_configs/1/network_id` → `network_configs[1].network_id`. */
function fieldName(pointer: string): string {
  return pointer
    .slice(1)
    .split("/")
    .map((part, i) => (/^\d+$/.test(part) ? `[${part}]` : i === 0 ? part : `.${part}`))
    .join("");
}

/** The n-th generated slug of a base: `base-n`, the base cut so that the whole stays within the slug length. */
export function generatedSlug(base: string, n: number): string {
  const suffix = `-${n}`;
  return `${base.slice(0, MAX_SLUG_LENGTH - suffix.length).replace(/-+$/, "")}${suffix}`;
}
