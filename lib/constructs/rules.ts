/**
 * The validation tables of the Environment construct. Patterns and limits come from lib/spec, the single source
 * of truth the service validates against, so a config that passes here does not fail there for the same reason.
 */
import { Address, ChainIdString, HexQuantity, Slug } from "../spec/common";
import {
  MAX_ACCOUNTS_PER_NETWORK,
  MAX_NETWORKS_PER_ENVIRONMENT,
  MAX_RELAY_DELAY_SECONDS,
  RELAY_MODE_VALUES,
  VERIFICATION_VISIBILITY_VALUES,
} from "../spec/environments";
import { parseBalance } from "./amounts";
import type { BridgeConfig } from "./bridge";
import type { NetworkConfig, PrefundedAccount } from "./network";
import { isToken, type Rule } from "./validation";

const ADDRESS = new RegExp(Address.pattern!);
const CHAIN_ID = new RegExp(ChainIdString.pattern!);
const HEX_QUANTITY = new RegExp(HexQuantity.pattern!);
const SLUG = new RegExp(Slug.pattern!);
const MAX_DISPLAY_NAME = 255;

const show = (value: unknown) => JSON.stringify(value);

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
    check: (n) =>
      typeof n.networkId !== "string" || !CHAIN_ID.test(n.networkId)
        ? `networkId ${show(n.networkId)} is not a network id: use the forked network's chain id as a decimal string, e.g. Network.MAINNET ("1")`
        : undefined,
  },
  {
    reads: (n) => [n.chainId],
    check: (n) =>
      n.chainId !== undefined &&
      !(typeof n.chainId === "number" ? Number.isSafeInteger(n.chainId) && n.chainId > 0 : CHAIN_ID.test(n.chainId))
        ? `chainId ${show(n.chainId)} is not a chain id: use a positive integer, e.g. 73571, or a decimal string, e.g. "73571"`
        : undefined,
  },
  {
    reads: (n) => [n.blockNumber],
    check: (n) => {
      const b = n.blockNumber;
      const ok = b === undefined || (typeof b === "number" ? Number.isSafeInteger(b) && b >= 0 : HEX_QUANTITY.test(b));
      return ok ? undefined : `blockNumber ${show(b)} is not a block number: use hex such as "0x12a05f2" or a non-negative integer`;
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
      const seen = new Set<string>();
      for (const a of n.accounts ?? []) {
        if (isToken(a.address) || typeof a.address !== "string") continue;
        const key = a.address.toLowerCase();
        if (seen.has(key)) return `account ${a.address} is listed twice: fund it once with the total balance`;
        seen.add(key);
      }
      return undefined;
    },
  },
];

/** One pre-funded account. */
export const ACCOUNT_RULES: readonly Rule<PrefundedAccount>[] = [
  {
    reads: (a) => [a.address],
    check: (a) =>
      typeof a.address !== "string" || !ADDRESS.test(a.address)
        ? `address ${show(a.address)} is not an address: use 0x followed by 40 hex digits`
        : undefined,
  },
  {
    reads: (a) => [a.balance],
    check: (a) =>
      typeof a.balance !== "string" || parseBalance(a.balance) === undefined
        ? `balance ${show(a.balance)} is not a balance: use ether(100), gwei(n), wei(n), hex wei ("0x...") or decimal wei`
        : undefined,
  },
];

/** The list of networks as a whole (checked again on every addNetwork). */
export const NETWORK_LIST_RULES: readonly Rule<readonly NetworkConfig[]>[] = [
  {
    reads: () => [],
    check: (networks) => {
      const ids = networks.map((n) => n.networkId).filter((id) => !isToken(id));
      const dup = ids.find((id, i) => ids.indexOf(id) !== i);
      return dup === undefined
        ? undefined
        : `network ${show(dup)} is configured twice: an environment forks each network once; merge the two configurations`;
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
      b.delaySeconds !== undefined && !(Number.isInteger(b.delaySeconds) && b.delaySeconds >= 0 && b.delaySeconds <= MAX_RELAY_DELAY_SECONDS)
        ? `bridge.delaySeconds ${show(b.delaySeconds)} must be a whole number of seconds from 0 to ${MAX_RELAY_DELAY_SECONDS}`
        : undefined,
  },
  {
    reads: (b) => [b.relayMode, b.delaySeconds],
    check: (b) =>
      b.delaySeconds !== undefined && b.relayMode !== "delayedRelay"
        ? `bridge.delaySeconds needs relayMode "delayedRelay" (relayMode is ${show(b.relayMode ?? "autoRelay")}): use Bridge.delayedRelay(${b.delaySeconds})`
        : undefined,
  },
];
