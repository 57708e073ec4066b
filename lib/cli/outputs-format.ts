/**
 * What `chainform outputs` writes: a deployed stack's Terraform outputs plus, for every Virtual Environment its
 * state holds, a value per network under a name test runners can use (`mainnet_rpc_url`, `mainnet_chain_id`, ...),
 * rendered as JSON, dotenv, GitHub Actions file commands, a Foundry `[rpc_endpoints]` table or Hardhat networks.
 */
import { randomBytes } from "node:crypto";
import { Network } from "../constructs/network";
import type { DeployedNetwork } from "./stack-state";

/** One Terraform output as `terraform output -json` prints it. */
export interface TerraformOutput {
  readonly value: unknown;
  readonly type?: unknown;
  readonly sensitive?: boolean;
}

/** The formats `chainform outputs` writes. */
export type OutputsFormat = "json" | "env" | "github" | "foundry" | "hardhat";
/** Every format, for validation and help text. */
export const OUTPUTS_FORMATS: readonly OutputsFormat[] = ["json", "env", "github", "foundry", "hardhat"];
/** The formats that describe networks only (the state's Virtual Environments), not the app's own outputs. */
export const NETWORK_FORMATS: readonly OutputsFormat[] = ["foundry", "hardhat"];

/** One Virtual Environment of the state under the name the formats give it. */
export interface NetworkEndpoint {
  /** `mainnet`, `base`, `base_sepolia`, `chain_<id>` for other networks; prefixed with the environment's slug when two environments fork the same network. */
  readonly name: string;
  readonly networkId: string;
  readonly chainId: number;
  readonly environmentId: string;
  readonly environmentSlug: string;
  readonly publicRpcUrl: string;
  /** A secret. */
  readonly adminRpcUrl: string;
}

/** Options of `formatOutputs`. */
export interface FormatOutputsOptions {
  /** Include sensitive outputs (Admin RPC URLs). @default false */
  readonly includeSensitive?: boolean;
  /** The state's networks, from {@link networkEndpoints}. @default none */
  readonly networks?: readonly NetworkEndpoint[];
  /** github format: name the values as environment variables (for `$GITHUB_ENV`) instead of outputs. @default false */
  readonly envNames?: boolean;
  /** Delimiter factory for the github format; tests pass a fixed one. @default random hex */
  readonly delimiter?: () => string;
}

/** A value as one string: strings as they are, everything else as JSON. */
function asText(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** An output name as an environment variable name: `mainnet_rpc` -> `MAINNET_RPC`. */
export function envName(name: string): string {
  const upper = name.replace(/[^A-Za-z0-9_]/g, "_").toUpperCase();
  return /^[0-9]/.test(upper) ? `_${upper}` : upper;
}

/** A dotenv value: double-quoted, with backslash, quote, dollar and newlines escaped. */
function dotenvQuote(text: string): string {
  return `"${text.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\$/g, "\\$").replace(/\n/g, "\\n").replace(/\r/g, "\\r")}"`;
}

/** A network's name in outputs: the well-known name in lowercase (`base_sepolia`), else `chain_<id>`. */
function networkName(networkId: string): string {
  return Network.nameOf(networkId)?.toLowerCase() ?? `chain_${networkId.replace(/[^0-9A-Za-z]/g, "_")}`;
}

/**
 * Names the networks of a stack's state. A network forked by two environments of the stack is named after each
 * environment too (`pr_7_api_mainnet`), so that no name stands for two chains.
 * @example
 * networkEndpoints(deployedNetworks("ci", show)).map((n) => n.name) // ["mainnet", "base"]
 */
export function networkEndpoints(networks: readonly DeployedNetwork[]): NetworkEndpoint[] {
  const count = new Map<string, number>();
  for (const network of networks) count.set(networkName(network.networkId), (count.get(networkName(network.networkId)) ?? 0) + 1);
  return networks.map((network) => {
    const base = networkName(network.networkId);
    const environmentPart = network.environment.replace(/[^A-Za-z0-9]+/g, "_").toLowerCase();
    return {
      name: (count.get(base) ?? 0) > 1 ? `${environmentPart}_${base}` : base,
      networkId: network.networkId,
      chainId: network.chainId,
      environmentId: network.environmentId,
      environmentSlug: network.environment,
      publicRpcUrl: network.publicRpcUrl,
      adminRpcUrl: network.adminRpcUrl,
    };
  });
}

/**
 * The values per network, as outputs: `<name>_rpc_url`, `<name>_chain_id`, `<name>_network_id`,
 * `<name>_environment_id`, the sensitive `<name>_admin_rpc_url`, `eth_rpc_url` (the first network's Public RPC URL,
 * the variable Foundry's tools read) and `networks` (all of them as one JSON object, without secrets).
 */
export function networkOutputs(networks: readonly NetworkEndpoint[]): Record<string, TerraformOutput> {
  if (networks.length === 0) return {};
  const outputs: Record<string, TerraformOutput> = {
    eth_rpc_url: { value: networks[0].publicRpcUrl },
    networks: {
      value: Object.fromEntries(
        networks.map((n) => [
          n.name,
          {
            network_id: n.networkId,
            chain_id: n.chainId,
            rpc_url: n.publicRpcUrl,
            environment_id: n.environmentId,
            environment_slug: n.environmentSlug,
          },
        ]),
      ),
    },
  };
  for (const n of networks) {
    outputs[`${n.name}_rpc_url`] = { value: n.publicRpcUrl };
    outputs[`${n.name}_chain_id`] = { value: n.chainId };
    outputs[`${n.name}_network_id`] = { value: n.networkId };
    outputs[`${n.name}_environment_id`] = { value: n.environmentId };
    outputs[`${n.name}_admin_rpc_url`] = { value: n.adminRpcUrl, sensitive: true };
  }
  return outputs;
}

/**
 * The app's outputs together with the {@link networkOutputs} of its networks; an output of the app wins over a
 * network value of the same name.
 */
export function allOutputs(
  outputs: Readonly<Record<string, TerraformOutput>>,
  networks: readonly NetworkEndpoint[],
): Record<string, TerraformOutput> {
  return { ...networkOutputs(networks), ...outputs };
}

/**
 * What to mask in a CI log for these outputs: every sensitive value as it is written (a string, or the JSON of a map
 * or list) and every string inside it, so that no part of an Admin RPC URL map shows either.
 * @example
 * secretTexts({ admin: { value: { "1": "http://x/rpc/admin/s" }, sensitive: true } }) // ['{"1":"http://x/rpc/admin/s"}', "http://x/rpc/admin/s"]
 */
export function secretTexts(outputs: Readonly<Record<string, TerraformOutput>>): string[] {
  const found = new Set<string>();
  const strings = (value: unknown): void => {
    if (typeof value === "string") found.add(value);
    else if (Array.isArray(value)) value.forEach(strings);
    else if (value && typeof value === "object") Object.values(value).forEach(strings);
  };
  for (const output of Object.values(outputs)) {
    if (!output.sensitive) continue;
    found.add(asText(output.value));
    strings(output.value);
  }
  return [...found].filter((text) => text !== "" && text !== "null");
}

/**
 * Renders a stack's outputs (with the values of its `networks`, see {@link allOutputs}) as JSON (name -> value),
 * a dotenv file, GitHub Actions `$GITHUB_OUTPUT`/`$GITHUB_ENV` lines, a Foundry `[rpc_endpoints]` table or a
 * Hardhat `networks` object (JSON). The github form uses `name<<DELIMITER` blocks, so multi-line values are safe;
 * the delimiter is random and never occurs in the value. Sensitive values are left out unless `includeSensitive`;
 * with it, foundry and hardhat add an `<name>_admin` entry per network.
 * @example
 * formatOutputs({ rpc: { value: "http://..." } }, "env") // 'RPC="http://..."\n'
 */
export function formatOutputs(
  outputs: Readonly<Record<string, TerraformOutput>>,
  format: OutputsFormat,
  options: FormatOutputsOptions = {},
): string {
  const networks = options.networks ?? [];
  if (format === "foundry") return foundryConfig(networks, options.includeSensitive ?? false);
  if (format === "hardhat") return `${JSON.stringify(hardhatNetworks(networks, options.includeSensitive ?? false), null, 2)}\n`;
  const selected = Object.entries(allOutputs(outputs, networks))
    .filter(([, output]) => options.includeSensitive || !output.sensitive)
    .sort(([a], [b]) => a.localeCompare(b));
  switch (format) {
    case "json":
      return `${JSON.stringify(Object.fromEntries(selected.map(([name, output]) => [name, output.value])), null, 2)}\n`;
    case "env":
      return selected.map(([name, output]) => `${envName(name)}=${dotenvQuote(asText(output.value))}\n`).join("");
    case "github": {
      const makeDelimiter = options.delimiter ?? (() => `CHAINFORM_${randomBytes(12).toString("hex")}`);
      return selected
        .map(([name, output]) => {
          const text = asText(output.value);
          let delimiter = makeDelimiter();
          while (text.includes(delimiter)) delimiter = `${delimiter}_${randomBytes(4).toString("hex")}`;
          return `${options.envNames ? envName(name) : name}<<${delimiter}\n${text}\n${delimiter}\n`;
        })
        .join("");
    }
  }
}

/**
 * A Foundry `[rpc_endpoints]` table, one entry per network, to append to `foundry.toml` (which must not have that
 * table already): `vm.createSelectFork("mainnet")`, `forge script --fork-url mainnet`, `cast ... --rpc-url mainnet`.
 */
function foundryConfig(networks: readonly NetworkEndpoint[], includeSensitive: boolean): string {
  const lines = [
    "# The Public RPC URL of each chainform network (chainform outputs --format foundry). Append it to foundry.toml,",
    '# then vm.createSelectFork("<name>") or --rpc-url <name>. ETH_RPC_URL (in --format env) is the first network\'s.',
    "[rpc_endpoints]",
  ];
  for (const network of networks) {
    // JSON strings are TOML basic strings for these values (URLs: no control characters).
    lines.push(`${network.name} = ${JSON.stringify(network.publicRpcUrl)}`);
    if (includeSensitive) lines.push(`${network.name}_admin = ${JSON.stringify(network.adminRpcUrl)}`);
  }
  return `${lines.join("\n")}\n`;
}

/** One Hardhat HTTP network: Hardhat 3 needs `type`, Hardhat 2 ignores it; both check `chainId` against the node. */
interface HardhatNetwork {
  readonly type: "http";
  readonly url: string;
  readonly chainId: number;
}

/** The `networks` entries of a Hardhat config, by network name. */
function hardhatNetworks(networks: readonly NetworkEndpoint[], includeSensitive: boolean): Record<string, HardhatNetwork> {
  const entries: Record<string, HardhatNetwork> = {};
  for (const network of networks) {
    entries[network.name] = { type: "http", url: network.publicRpcUrl, chainId: network.chainId };
    if (includeSensitive) entries[`${network.name}_admin`] = { type: "http", url: network.adminRpcUrl, chainId: network.chainId };
  }
  return entries;
}
