/**
 * Parts of the transaction panel: names for the addresses it shows, its token transfers and its events with amounts in
 * the token's units, and the contracts its CREATE frames made.
 */
import type { CallFrame } from "../../service/web-interface";
import type { SimulationLog, StateChange } from "../../api";
import type { AssetChanges, AssetDelta } from "../../domain/asset-changes";
import { formatEther, type TokenMetadata } from "../chain-reader";
import type { ContractAbis } from "../decode/contract-abis";
import { pairTokenOf, type PairTokens } from "../decode/pairs";
import { tokenAmount, type TokenTransfer } from "../decode/tokens";
import { html, table, type Html } from "../html";

/** Token metadata by lowercase address (undefined for a contract that is no token). */
export type TokenMetadataMap = ReadonlyMap<string, TokenMetadata | undefined>;

/** Renders an address with its name when one is known. */
export type NamedAddress = (address: string) => Html;

/** Events whose last argument is an amount of the emitting token, by name and topic count. */
const TOKEN_AMOUNT_EVENTS = new Set(["Transfer/3", "Approval/3", "Deposit/2", "Withdrawal/2"]);

/**
 * Names of the addresses a page shows: a token's symbol, else the contract name its verified or user-added ABI
 * gives (a proxy's is `Name (proxy)`).
 */
export async function namesOf(abis: ContractAbis, metadata: TokenMetadataMap, others: readonly string[]): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  for (const [address, token] of metadata) if (token?.symbol) names.set(address, token.symbol);
  const addresses = [...new Set([...metadata.keys(), ...others.map((a) => a.toLowerCase())])].filter((a) => !names.has(a));
  const found = await Promise.all(addresses.map((a) => abis.of(a)));
  addresses.forEach((address, i) => {
    const abi = found[i];
    if (abi?.name) names.set(address, abi.implementation ? `${abi.name} (proxy)` : abi.name);
  });
  return names;
}

/** The token transfers: from, to, amount in the token's units, token. */
export function transferTable(transfers: readonly TokenTransfer[], metadata: TokenMetadataMap, named: NamedAddress): Html {
  return table(
    ["From", "To", "Amount", "Token"],
    transfers.map((t) => [
      named(t.from),
      named(t.to),
      html`<span class="amount" title="${t.amount.toString()}">${
        t.tokenId === undefined
          ? tokenAmount(t.amount, metadata.get(t.token))
          : `${t.standard} #${t.tokenId}${t.amount > 1n ? ` × ${t.amount}` : ""}`
      }</span>`,
      named(t.token),
    ]),
    "no token moved",
  );
}

/**
 * The events: the emitter, the event with its arguments (addresses named, token amounts in units: a token's own, and
 * a pair's `amount0…`/`reserve1…` in its two tokens'), the raw log.
 */
export function logTable(
  logs: readonly SimulationLog[],
  metadata: TokenMetadataMap,
  named: NamedAddress,
  pairs: ReadonlyMap<string, PairTokens> = new Map(),
): Html {
  return table(
    ["Emitter", "Event", "Raw"],
    logs.map((log) => {
      const token = metadata.get(log.raw.address.toLowerCase());
      const pair = pairs.get(log.raw.address.toLowerCase());
      const amountAt = token && TOKEN_AMOUNT_EVENTS.has(`${log.name}/${log.raw.topics.length}`) ? log.inputs.length - 1 : -1;
      const args = log.inputs.map((input, i) => {
        const side = pair && /^u?int\d*$/.test(input.type) ? pairTokenOf(input.name) : undefined;
        const unitsOf = i === amountAt ? token : side !== undefined ? metadata.get(side === 0 ? pair!.token0 : pair!.token1) : undefined;
        const value =
          i === amountAt || unitsOf
            ? html`<span class="amount" title="${input.value}">${tokenAmount(BigInt(input.value), unitsOf)}</span>`
            : input.type === "address"
              ? named(input.value)
              : html`<code>${input.value}</code>`;
        return html`${i > 0 ? ", " : ""}${input.name ? `${input.name}: ` : ""}${value}`;
      });
      return [
        named(log.raw.address),
        log.name ? html`<span class="event"><strong>${log.name}</strong>(${args})</span>` : html`<span class="muted">unknown event</span>`,
        html`<details><summary class="muted">topics, data</summary><pre>${[...log.raw.topics, log.raw.data].join("\n")}</pre></details>`,
      ];
    }),
    "no events",
  );
}

/** A contract a CREATE or CREATE2 frame below the top call made (a factory's pair, say), with its creator. */
export interface CreatedContract {
  readonly address: string;
  readonly creator: string;
}

/** The contracts a transaction's inner CREATE frames made, in order; failed frames made none. */
export function createdContracts(root: CallFrame): CreatedContract[] {
  const found: CreatedContract[] = [];
  const visit = (frame: CallFrame, top: boolean) => {
    if (frame.error) return;
    if (!top && frame.type.startsWith("CREATE") && frame.to)
      found.push({ address: frame.to.toLowerCase(), creator: frame.from.toLowerCase() });
    for (const child of frame.calls ?? []) visit(child, false);
  };
  visit(root, true);
  return found;
}

/** Each touched address's balance change: its gains and losses of ether (gas included) and tokens, in their units. */
export function balanceTable(changes: AssetChanges, named: NamedAddress): Html {
  return table(
    ["Address", "Change"],
    changes.balance_changes
      .filter((change) => change.assets.length > 0)
      .map((change) => [
        named(change.address),
        html`${change.assets.map(
          (asset, i) =>
            html`${i > 0 ? ", " : ""}<span class="amount ${asset.raw_amount.startsWith("-") ? "fail" : "ok"}" title="${asset.raw_amount}">${deltaText(asset)}</span>`,
        )}`,
      ]),
    "no balance changed",
  );
}

/** A signed change with its symbol: `+2.5 TT`, `-0.01 ETH`; an NFT as `+1 NAME #7`; raw when the token says nothing. */
function deltaText(asset: AssetDelta): string {
  const sign = asset.raw_amount.startsWith("-") ? "" : "+";
  const id = asset.asset.includes("#") ? ` ${asset.asset.slice(asset.asset.indexOf("#"))}` : "";
  return `${sign}${asset.amount ?? asset.raw_amount}${asset.symbol ? ` ${asset.symbol}` : ""}${id}`;
}

/** Most state changes a page lists (a transaction may write thousands of slots). */
const MAX_STATE_ROWS = 500;

/** What a transaction wrote: each address's balance, nonce and storage slots, before and after. */
export function stateTable(changes: readonly StateChange[], named: NamedAddress): Html {
  const shown = changes.slice(0, MAX_STATE_ROWS);
  return html`${table(
    ["Address", "Field", "Before", "After"],
    shown.map((change) => [
      named(change.address),
      change.field === "storage" ? html`storage <code title="${change.slot ?? ""}">${shortWord(change.slot ?? "")}</code>` : change.field,
      html`<code title="${change.previous}">${shownValue(change.field, change.previous)}</code>`,
      html`<code title="${change.next}">${shownValue(change.field, change.next)}</code>`,
    ]),
    "no state changed",
  )}${changes.length > shown.length ? html`<p class="muted">the first ${shown.length} of ${changes.length}</p>` : html``}`;
}

/** A balance in ether, a nonce in decimal, a storage word shortened (its whole value in the title). */
function shownValue(field: StateChange["field"], value: string): string {
  if (field === "balance") return formatEther(value);
  if (field === "nonce") return BigInt(value).toString();
  return shortWord(value);
}

/** A 32-byte word without its leading zeros: `0x…2a`. */
function shortWord(word: string): string {
  const digits = word.replace(/^0x0*/, "");
  return digits.length === 0 ? "0x0" : digits.length + 2 < word.length ? `0x…${digits}` : word;
}
