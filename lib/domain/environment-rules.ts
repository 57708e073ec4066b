/**
 * The environment's limits, defaults and cross-field rules (docs/service.md "Domain rules"), as data and pure
 * functions. The service's create route, the provider's validation, the constructs' rules and the client's diff
 * all use these; none keeps its own copy. A rule returns findings: the field at fault, as a JSON pointer into the
 * create request (`/network_configs/1/chain_config_overrides/chain_id`), and a message saying what is wrong.
 */
import { parseChainId } from "./chain";

/** Most networks in one environment. */
export const MAX_NETWORKS_PER_ENVIRONMENT = 16;
/** Most pre-funded accounts per network. */
export const MAX_ACCOUNTS_PER_NETWORK = 100;
/** Longest accepted relay delay: one day. */
export const MAX_RELAY_DELAY_SECONDS = 86_400;
/** Longest display name. */
export const MAX_DISPLAY_NAME_LENGTH = 255;

/** What a public explorer reveals of verified contracts, in order: each level shows everything the ones before it show. */
export const VERIFICATION_VISIBILITY_VALUES = ["bytecode", "abi", "source"] as const;
/** A verification visibility. */
export type VerificationVisibility = (typeof VERIFICATION_VISIBILITY_VALUES)[number];

/** Bridge relay modes; `autoRelay` is the default. */
export const RELAY_MODE_VALUES = ["autoRelay", "delayedRelay"] as const;
/** A bridge relay mode. */
export type RelayMode = (typeof RELAY_MODE_VALUES)[number];

/** What an environment's bridge is when the request leaves a field out (our choice; docs/service.md). */
export const BRIDGE_DEFAULTS = { enabled: false, relay_mode: "autoRelay", delay_seconds: 0 } as const satisfies {
  enabled: boolean;
  relay_mode: RelayMode;
  delay_seconds: number;
};

/** A rule's verdict on one field. */
export interface Finding {
  /** JSON pointer into the create request, e.g. `/network_configs/1/network_id`. */
  readonly path: string;
  /** What is wrong, naming the values and the entry it clashes with. */
  readonly message: string;
  /** The index of the earlier entry it clashes with, for a duplicate. */
  readonly twin?: number;
}

/** The fields of a network entry the cross-field rules read; `undefined` where the value is not known yet. */
export interface NetworkEntryFacts {
  readonly network_id?: string;
  /** The chain id override (decimal string, bigint or safe number). */
  readonly chain_id?: string | bigint | number;
  readonly addresses?: readonly (string | undefined)[];
}

/** The chain id a Virtual Environment answers with: the override, else the forked network's id (exact). */
export function effectiveChainId(entry: NetworkEntryFacts): bigint | undefined {
  const parsed = parseChainId(entry.chain_id ?? entry.network_id);
  return "chainId" in parsed ? parsed.chainId : undefined;
}

/**
 * No network twice, no chain id twice (compared exactly, as bigints), no address twice within a network.
 * Unknown values (undefined) are skipped.
 * @example
 * networkListFindings([{ network_id: "1" }, { network_id: "1" }])
 * // [{ path: "/network_configs/1/network_id", message: "network 1 is already network_configs[0]", twin: 0 }]
 */
export function networkListFindings(entries: readonly NetworkEntryFacts[]): Finding[] {
  const findings: Finding[] = [];
  const networks = new Map<string, number>();
  const chainIds = new Map<bigint, number>();
  entries.forEach((entry, index) => {
    const at = `/network_configs/${index}`;
    if (entry.network_id !== undefined) {
      const twin = networks.get(entry.network_id);
      if (twin !== undefined)
        findings.push({ path: `${at}/network_id`, message: `network ${entry.network_id} is already network_configs[${twin}]`, twin });
      else networks.set(entry.network_id, index);
    }
    const chainId = effectiveChainId(entry);
    if (chainId !== undefined) {
      const twin = chainIds.get(chainId);
      if (twin !== undefined && entry.chain_id !== undefined) {
        findings.push({
          path: `${at}/chain_config_overrides/chain_id`,
          message: `chain id ${chainId} is already the chain id of network_configs[${twin}]`,
          twin,
        });
      }
      if (twin === undefined) chainIds.set(chainId, index);
    }
    const addresses = new Map<string, number>();
    (entry.addresses ?? []).forEach((address, j) => {
      if (address === undefined) return;
      const key = address.toLowerCase();
      const twin = addresses.get(key);
      if (twin !== undefined)
        findings.push({
          path: `${at}/accounts/${j}/address`,
          message: `address ${key} is already accounts[${twin}] of this network`,
          twin,
        });
      else addresses.set(key, j);
    });
  });
  return findings;
}

/**
 * `delay_seconds` applies only to `delayedRelay` (our rule: a delay with instant relays is a mistake to report).
 * @example
 * bridgeFindings({ delay_seconds: 5 }) // [{ path: "/bridge_config/delay_seconds", message: "..." }]
 */
export function bridgeFindings(bridge: { readonly relay_mode?: string; readonly delay_seconds?: number } | undefined): Finding[] {
  if (bridge?.delay_seconds === undefined) return [];
  const mode = bridge.relay_mode ?? BRIDGE_DEFAULTS.relay_mode;
  if (mode === "delayedRelay") return [];
  const said = bridge.relay_mode === undefined ? "not set (default autoRelay)" : `"${mode}"`;
  return [
    { path: "/bridge_config/delay_seconds", message: `delay_seconds only applies to relay_mode "delayedRelay", and relay_mode is ${said}` },
  ];
}

/** The bridge with defaults filled in. */
export function bridgeWithDefaults(
  bridge: { readonly enabled?: boolean; readonly relay_mode?: RelayMode; readonly delay_seconds?: number } | undefined,
): {
  enabled: boolean;
  relay_mode: RelayMode;
  delay_seconds: number;
} {
  return {
    enabled: bridge?.enabled ?? BRIDGE_DEFAULTS.enabled,
    relay_mode: bridge?.relay_mode ?? BRIDGE_DEFAULTS.relay_mode,
    delay_seconds: bridge?.delay_seconds ?? BRIDGE_DEFAULTS.delay_seconds,
  };
}
