/**
 * The validation tables of the Environment construct. The rules themselves (grammar of balances, ranges of chain
 * ids and block numbers, limits, duplicates, the bridge's delay rule) are lib/domain's, the ones the service and the
 * provider run, so a config that passes here does not fail there; only the wording is the construct's.
 */
import { BALANCE_FORMATS, parseBalance } from "../domain/amounts";
import { addressProblem } from "../domain/address";
import { parseBlockNumber, parseChainId } from "../domain/chain";
import { SLUG_PATTERN } from "../domain/slug";
import {
  bridgeFindings,
  MAX_ACCOUNTS_PER_NETWORK,
  MAX_DISPLAY_NAME_LENGTH,
  MAX_NETWORKS_PER_ENVIRONMENT,
  MAX_RELAY_DELAY_SECONDS,
  networkListFindings,
  RELAY_MODE_VALUES,
} from "../domain/environment-rules";
import { VERIFICATION_VISIBILITY_VALUES } from "../domain/environment-rules";
import type { BridgeConfig } from "./bridge";
import { Network, type NetworkConfig, type PrefundedAccount } from "./network";
import { isToken, type Rule } from "./validation";

const SLUG = new RegExp(SLUG_PATTERN);
const MAX_DISPLAY_NAME = MAX_DISPLAY_NAME_LENGTH;
const known = <T>(value: T): T | undefined => (isToken(value) ? undefined : value);

const show = (value: unknown) => JSON.stringify(value);

/** Edits (insertions, deletions, substitutions) from `a` to `b`. */
function distance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length]!;
}

/**
 * What a bad network id should have been: the well-known network whose name (`"base"`, `"Arbitrum"`) or id it is
 * closest to, within two edits; else the list of them. Never another network that merely serves as an example.
 */
function networkIdAdvice(networkId: unknown): string {
  const all = Object.entries(Network.all());
  const list = all.map(([name, id]) => `Network.${name} ("${id}")`).join(", ");
  if (networkId === undefined)
    return `networkId is missing (a mistyped Network constant reads as undefined): use one of ${list}, or a chain id as a decimal string`;
  const text = String(networkId)
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, "_")
    .replace(/^_|_$/g, "");
  const [best] = all
    .map(([name, id]) => ({ name, id, edits: Math.min(distance(text, name), distance(String(networkId), id)) }))
    .sort((x, y) => x.edits - y.edits);
  const hint = best && best.edits <= 2 ? `did you mean Network.${best.name} ("${best.id}")? ` : "";
  return `networkId ${show(networkId)} is not a network id: ${hint}use the forked network's chain id as a decimal string, one of ${list} or another the service supports`;
}

/** The environment's own properties. */
export const ENVIRONMENT_RULES: readonly Rule<{ displayName: string; slug?: string }>[] = [
  {
    reads: (e) => [e.displayName],
    check: (e) =>
      e.displayName.trim() === "" || e.displayName.length > MAX_DISPLAY_NAME
        ? `displayName must be 1 to ${MAX_DISPLAY_NAME} characters, got ${show(e.displayName)}`
        : undefined,
  },
  {
    reads: (e) => [e.slug],
    check: (e) =>
      e.slug !== undefined && (!SLUG.test(e.slug) || e.slug.length > 100)
        ? `slug ${show(e.slug)} is not a slug: use lowercase letters, digits and single dashes, e.g. "pr-42"`
        : undefined,
  },
];

/** One network configuration. */
export const NETWORK_RULES: readonly Rule<NetworkConfig>[] = [
  {
    reads: (n) => [n.networkId],
    check: (n) => (typeof n.networkId !== "string" || "error" in parseChainId(n.networkId) ? networkIdAdvice(n.networkId) : undefined),
  },
  {
    reads: (n) => [n.chainId],
    check: (n) => {
      if (n.chainId === undefined) return undefined;
      const parsed = parseChainId(n.chainId);
      return "error" in parsed ? `chainId ${parsed.error}` : undefined;
    },
  },
  {
    reads: (n) => [n.blockNumber],
    check: (n) => {
      const b = n.blockNumber;
      if (b === undefined) return undefined;
      const parsed = parseBlockNumber(b);
      return "error" in parsed ? `blockNumber ${parsed.error}` : undefined;
    },
  },
  {
    reads: (n) => [n.explorer?.verificationVisibility],
    check: (n) => {
      const v = n.explorer?.verificationVisibility;
      return v === undefined || (VERIFICATION_VISIBILITY_VALUES as readonly string[]).includes(v)
        ? undefined
        : `explorer.verificationVisibility ${show(v)} must be one of ${VERIFICATION_VISIBILITY_VALUES.map(show).join(", ")}`;
    },
  },
  {
    reads: (n) => [n.accounts],
    check: (n) =>
      (n.accounts?.length ?? 0) > MAX_ACCOUNTS_PER_NETWORK
        ? `${n.accounts!.length} accounts: a network takes at most ${MAX_ACCOUNTS_PER_NETWORK}`
        : undefined,
  },
  {
    reads: (n) => [n.accounts],
    check: (n) => {
      const addresses = (n.accounts ?? []).map((a) => (typeof a.address === "string" ? known(a.address) : undefined));
      const [twice] = networkListFindings([{ addresses }]);
      if (!twice) return undefined;
      const j = Number(twice.path.split("/")[4]);
      return `account ${n.accounts![j]!.address} is listed twice: fund it once with the total balance`;
    },
  },
];

/** One pre-funded account. */
export const ACCOUNT_RULES: readonly Rule<PrefundedAccount>[] = [
  {
    reads: (a) => [a.address],
    check: (a) => {
      const problem = addressProblem(a.address);
      return problem === undefined ? undefined : `address ${problem}`;
    },
  },
  {
    reads: (a) => [a.balance],
    check: (a) =>
      typeof a.balance !== "string" || "error" in parseBalance(a.balance)
        ? `balance ${show(a.balance)} is not a balance: use ether(100), gwei(n), wei(n), or ${BALANCE_FORMATS}`
        : undefined,
  },
];

/** The list of networks as a whole (checked again on every addNetwork). */
export const NETWORK_LIST_RULES: readonly Rule<readonly NetworkConfig[]>[] = [
  {
    reads: () => [],
    check: (networks) => {
      const findings = networkListFindings(
        networks.map((n) => ({
          network_id: typeof n.networkId === "string" ? known(n.networkId) : undefined,
          chain_id: typeof n.chainId === "number" && Number.isSafeInteger(n.chainId) ? known(n.chainId) : undefined,
        })),
      );
      const network = findings.find((f) => f.path.endsWith("/network_id"));
      if (network) {
        const dup = networks[Number(network.path.split("/")[2])]!.networkId;
        return `network ${show(dup)} is configured twice: an environment forks each network once; merge the two configurations`;
      }
      const chain = findings.find((f) => f.path.endsWith("/chain_id"));
      return chain ? `networks[${chain.path.split("/")[2]}]: ${chain.message}; pick another chainId` : undefined;
    },
  },
  {
    reads: () => [],
    check: (networks) =>
      networks.length > MAX_NETWORKS_PER_ENVIRONMENT
        ? `${networks.length} networks: an environment takes at most ${MAX_NETWORKS_PER_ENVIRONMENT}`
        : undefined,
  },
];

/** The bridge. */
export const BRIDGE_RULES: readonly Rule<BridgeConfig>[] = [
  {
    reads: (b) => [b.relayMode],
    check: (b) =>
      b.relayMode === undefined || (RELAY_MODE_VALUES as readonly string[]).includes(b.relayMode)
        ? undefined
        : `bridge.relayMode ${show(b.relayMode)} must be one of ${RELAY_MODE_VALUES.map(show).join(", ")}`,
  },
  {
    reads: (b) => [b.delaySeconds],
    check: (b) =>
      b.delaySeconds !== undefined &&
      !(Number.isInteger(b.delaySeconds) && b.delaySeconds >= 0 && b.delaySeconds <= MAX_RELAY_DELAY_SECONDS)
        ? `bridge.delaySeconds ${show(b.delaySeconds)} must be a whole number of seconds from 0 to ${MAX_RELAY_DELAY_SECONDS}`
        : undefined,
  },
  {
    reads: (b) => [b.relayMode, b.delaySeconds],
    check: (b) =>
      bridgeFindings({ relay_mode: b.relayMode, delay_seconds: b.delaySeconds }).length > 0
        ? `bridge.delaySeconds needs relayMode "delayedRelay" (relayMode is ${show(b.relayMode ?? "autoRelay")}): use Bridge.delayedRelay(${b.delaySeconds})`
        : undefined,
  },
];
