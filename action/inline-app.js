"use strict";
/**
 * The inline form of the action's inputs (networks, chain-id-prefix, block-number, accounts, bridge) as a Terraform
 * configuration in JSON syntax (`main.tf.json`): one chainform_environment whose slug starts with the run's prefix,
 * so that the post step can find it by prefix even when Terraform never recorded it. Pure functions: the action's
 * test calls them directly.
 */
const { InputError } = require("./runner");

/** Splits a list input: commas, spaces or new lines. */
function listOf(text) {
  return text.split(/[\s,]+/).filter(Boolean);
}

/** Network ids: decimal chain ids (`1, 8453`). */
function parseNetworks(text) {
  const ids = listOf(text);
  if (ids.length === 0)
    throw new InputError("networks", "is empty: list the network ids to fork, e.g. `1, 8453` (`chainform networks` lists them)");
  for (const id of ids) {
    if (!/^[1-9][0-9]*$/.test(id))
      throw new InputError(
        "networks",
        `holds ${JSON.stringify(id)}, which is not a network id: write chain ids as decimal numbers, e.g. \`1, 8453\``,
      );
  }
  const twice = ids.find((id, index) => ids.indexOf(id) !== index);
  if (twice) throw new InputError("networks", `names network ${twice} twice: an environment forks each network once`);
  return ids;
}

/** The chain id a fork answers with: the prefix's digits, then the network id (`7357` and `1` -> `73571`). */
function chainIdOf(prefix, networkId) {
  if (prefix === "") return undefined;
  if (!/^[1-9][0-9]*$/.test(prefix))
    throw new InputError(
      "chain-id-prefix",
      `must be decimal digits (e.g. 7357, which makes mainnet's fork 73571), got ${JSON.stringify(prefix)}`,
    );
  return `${prefix}${networkId}`;
}

/** A block number as the provider takes it (hex): `latest`/empty -> the network's head, decimal or hex otherwise. */
function blockNumberOf(text) {
  if (text === "" || text === "latest") return undefined;
  if (/^[0-9]+$/.test(text)) return `0x${BigInt(text).toString(16)}`;
  if (/^0x[0-9a-fA-F]+$/.test(text)) return text.toLowerCase();
  throw new InputError("block-number", `must be latest, a decimal number or 0x-hex, got ${JSON.stringify(text)}`);
}

/** Prefunded accounts: `ADDRESS=BALANCE` or `ADDRESS` (100 ether), separated by commas or new lines. */
function parseAccounts(text) {
  return listOf(text).map((entry) => {
    const [address, balance = "100ether", extra] = entry.split("=");
    if (extra !== undefined || !/^0x[0-9a-fA-F]{40}$/.test(address)) {
      throw new InputError(
        "accounts",
        `holds ${JSON.stringify(entry)}: write ADDRESS or ADDRESS=BALANCE (0x and 40 hex digits; a balance such as 100ether, 0x... wei or decimal wei), one per line or comma-separated`,
      );
    }
    return { address, balance };
  });
}

/** The bridge block: none (default), auto, or delayed:SECONDS. */
function bridgeOf(text) {
  const value = text.toLowerCase();
  if (value === "" || value === "none" || value === "false") return undefined;
  if (value === "auto" || value === "true") return { enabled: true, relay_mode: "autoRelay" };
  const delayed = /^delayed(?::([0-9]+))?$/.exec(value);
  if (delayed) return { enabled: true, relay_mode: "delayedRelay", delay_seconds: Number(delayed[1] || "0") };
  throw new InputError("bridge", `must be none, auto or delayed:SECONDS (e.g. delayed:30), got ${JSON.stringify(text)}`);
}

/**
 * The Terraform configuration (JSON syntax) of the inline inputs.
 * @param {{ networks: string, chainIdPrefix: string, blockNumber: string, accounts: string, bridge: string, slugPrefix: string, displayName: string }} inputs
 */
function inlineConfig(inputs) {
  const accounts = parseAccounts(inputs.accounts);
  const blockNumber = blockNumberOf(inputs.blockNumber);
  const networkConfigs = parseNetworks(inputs.networks).map((networkId) => {
    const config = { network_id: networkId };
    const chainId = chainIdOf(inputs.chainIdPrefix, networkId);
    if (chainId) config.chain_id = chainId;
    if (blockNumber) config.block_number = blockNumber;
    if (accounts.length > 0) config.account = accounts;
    return config;
  });
  const environment = { display_name: inputs.displayName, slug_prefix: inputs.slugPrefix, network_config: networkConfigs };
  const bridge = bridgeOf(inputs.bridge);
  if (bridge) environment.bridge = [bridge];
  return {
    terraform: { required_providers: { chainform: { source: "chainform/chainform" } } },
    provider: { chainform: {} },
    resource: { chainform_environment: { this: environment } },
  };
}

/** A slug prefix: lowercase letters and digits in dash-separated groups, ending with a dash. */
function checkSlugPrefix(prefix) {
  if (!/^[a-z0-9]+(-[a-z0-9]+)*-$/.test(prefix) || prefix.length > 80) {
    throw new InputError(
      "slug-prefix",
      `must be lowercase letters and digits in dash-separated groups ending with a dash (at most 80 characters), e.g. pr-42-; got ${JSON.stringify(prefix)}`,
    );
  }
  return prefix;
}

module.exports = { inlineConfig, checkSlugPrefix, parseNetworks, parseAccounts, bridgeOf, blockNumberOf, chainIdOf };
