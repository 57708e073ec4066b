import type { CreateEnvironmentRequest, Environment, NetworkConfig } from "../../spec";
import { canonicalHex, isHexQuantity } from "../../spec/amounts";
import { BRIDGE_DEFAULTS } from "../../spec/environment-rules";

/** One field where an existing environment differs from the wanted spec. `path` is a JSON pointer into the spec. */
export interface EnvironmentDifference {
  path: string;
  expected: unknown;
  actual: unknown;
}

/** `0x0A` and `0xa` are the same quantity (lib/spec's canonical hex); anything else is compared lowercased. */
function hex(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  return isHexQuantity(value) ? canonicalHex(value) : value.toLowerCase();
}

function accountsKey(accounts: NetworkConfig["accounts"]): string[] {
  return (accounts ?? []).map((a) => `${a.address.toLowerCase()}=${hex(a.balance)}`).sort();
}

/**
 * Compares a wanted environment spec with an existing environment, using the normalized `network_configs` and
 * `bridge_config` the service returns. Only what the spec states is compared, except `bridge_config`, whose
 * omitted fields mean the service defaults (off, `autoRelay`, 0 s). An omitted `block_number` means "latest at
 * creation", so any fork point matches it. Networks are compared in order. Returns [] when they match.
 */
export function diffEnvironment(spec: CreateEnvironmentRequest, actual: Environment): EnvironmentDifference[] {
  const differences: EnvironmentDifference[] = [];
  const check = (path: string, expected: unknown, got: unknown) => {
    if (JSON.stringify(expected) !== JSON.stringify(got)) differences.push({ path, expected, actual: got });
  };
  check("/display_name", spec.display_name, actual.display_name);
  const actualConfigs: Partial<NetworkConfig>[] =
    actual.network_configs ?? actual.networks?.map((n) => ({ network_id: n.network_id, block_number: n.block_number })) ?? [];
  check("/network_configs/length", spec.network_configs.length, actualConfigs.length);
  spec.network_configs.forEach((wanted, i) => {
    const got = actualConfigs[i] ?? {};
    const at = `/network_configs/${i}`;
    check(`${at}/network_id`, wanted.network_id, got.network_id);
    if (wanted.block_number !== undefined) check(`${at}/block_number`, hex(wanted.block_number), hex(got.block_number));
    if (wanted.chain_config_overrides?.chain_id !== undefined) {
      check(`${at}/chain_config_overrides/chain_id`, wanted.chain_config_overrides.chain_id, got.chain_config_overrides?.chain_id);
    }
    for (const key of ["enabled", "verification_visibility"] as const) {
      if (wanted.explorer_config?.[key] !== undefined) {
        check(`${at}/explorer_config/${key}`, wanted.explorer_config[key], got.explorer_config?.[key]);
      }
    }
    if (wanted.accounts !== undefined) check(`${at}/accounts`, accountsKey(wanted.accounts), accountsKey(got.accounts));
  });
  const bridge = { ...BRIDGE_DEFAULTS, ...spec.bridge_config };
  const actualBridge = { ...BRIDGE_DEFAULTS, ...actual.bridge_config };
  for (const key of ["enabled", "relay_mode", "delay_seconds"] as const) {
    check(`/bridge_config/${key}`, bridge[key], actualBridge[key]);
  }
  return differences;
}
