import type { CreateEnvironmentRequest, Environment } from "../../api";
import { blockNumberHex, parseBlockNumber } from "../../domain/chain";

/** One field where an existing environment differs from the wanted spec. `path` is a JSON pointer into the spec. */
export interface EnvironmentDifference {
  path: string;
  expected: unknown;
  actual: unknown;
}

/**
 * A block number as the comparison sees it: canonical hex, so `0x0A`, `0xa` and the decimal `10` (which a direct
 * client user may write, and the client sends as hex) are the same block; anything unreadable is compared lowercased.
 */
function blockKey(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const parsed = parseBlockNumber(value);
  return "blockNumber" in parsed ? blockNumberHex(parsed.blockNumber) : value.toLowerCase();
}

/**
 * The parts of a create request that an Environment response can confirm: the service documents `display_name`,
 * `slug`, and per network its chain id and fork block (`networks[]`, `vnets[].fork_config`). Chain-id overrides,
 * accounts, explorer settings and the bridge are not in the documented response, so no comparison can confirm
 * or refute them.
 */
export const UNVERIFIABLE_SETTINGS = [
  "network_configs[].chain_config_overrides",
  "network_configs[].accounts",
  "network_configs[].explorer_config",
  "bridge_config",
] as const;

/** The networks of an environment in order: from `networks[]`, else from the vnets' `fork_config`. */
function networksOf(actual: Environment): { network_id: string; block_number: string | undefined }[] {
  if (Array.isArray(actual.networks) && actual.networks.length > 0) {
    return actual.networks.map((n) => ({ network_id: String(n.network_id), block_number: n.block_number }));
  }
  return (actual.active_instance?.vnets ?? []).map((v) => ({
    network_id: String(v.fork_config?.network_id),
    block_number: v.fork_config?.block_number,
  }));
}

/**
 * Compares a wanted environment spec with an existing environment, using only what the service's documented
 * Environment shows: display name, slug (when the spec gives one), and the networks in order with their fork
 * block (an omitted `block_number` means "latest at creation", so any fork point matches it). What the response
 * cannot show ({@link UNVERIFIABLE_SETTINGS}) is not compared. Returns [] when they match.
 */
export function diffEnvironment(spec: CreateEnvironmentRequest, actual: Environment): EnvironmentDifference[] {
  const differences: EnvironmentDifference[] = [];
  const check = (path: string, expected: unknown, got: unknown) => {
    if (JSON.stringify(expected) !== JSON.stringify(got)) differences.push({ path, expected, actual: got });
  };
  check("/display_name", spec.display_name, actual.display_name);
  if (spec.slug !== undefined) check("/slug", spec.slug, actual.slug);
  const networks = networksOf(actual);
  check("/network_configs/length", spec.network_configs.length, networks.length);
  spec.network_configs.forEach((wanted, i) => {
    const got = networks[i];
    const at = `/network_configs/${i}`;
    check(`${at}/network_id`, wanted.network_id, got?.network_id);
    if (wanted.block_number !== undefined) check(`${at}/block_number`, blockKey(wanted.block_number), blockKey(got?.block_number));
  });
  return differences;
}
