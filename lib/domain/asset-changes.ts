/**
 * What a transaction moved and whose balances it changed, read from its call trace (a callTracer tree with its logs):
 * ether sent by calls at any depth, and the token movements its logs tell of (ERC-20 and ERC-721 `Transfer`, ERC-1155
 * `TransferSingle`, WETH's `Deposit` and `Withdrawal` as a mint and a burn). One derivation for the pages, the
 * transaction record and the simulations, so that a mined transaction and a simulation of the same call say the same.
 * Answered in the hosted service's shapes (`asset_changes`, `balance_changes`); a price is never known offline, so no
 * `dollar_value` is given (docs/explorer-and-dashboard.md "Balance and state changes").
 */
import { formatUnits, MAX_UNIT_DECIMALS } from "./amounts";

/** A log as a callTracer frame carries it (`position`: how many of the frame's calls came before it). */
export interface FrameLog {
  readonly address: string;
  readonly topics: readonly string[];
  readonly data: string;
  readonly position?: string;
}

/** The parts of a callTracer frame the derivation reads. */
export interface ValueFrame {
  readonly type: string;
  readonly from: string;
  readonly to?: string;
  readonly value?: string;
  readonly error?: string;
  readonly calls?: readonly ValueFrame[];
  readonly logs?: readonly FrameLog[];
}

/** A token's name, symbol and decimals, as read from the token. */
export interface AssetMetadata {
  readonly name: string;
  readonly symbol: string;
  readonly decimals: number;
}

/** The standards of what moves. */
export type AssetStandard = "NativeCurrency" | "ERC20" | "ERC721" | "ERC1155";

/** One movement of ether or of a token, in execution order. */
export interface AssetMovement {
  /** The token contract (lowercase); null for ether. */
  readonly token: string | null;
  readonly standard: AssetStandard;
  readonly from: string;
  readonly to: string;
  readonly amount: bigint;
  readonly tokenId?: string;
}

/** The zero address: a mint's sender and a burn's receiver. */
export const ZERO_ADDRESS = "0x0000000000000000000000000000000000000000";

/** Event topics: Transfer(address,address,uint256), TransferSingle(…), WETH's Deposit(address,uint256), Withdrawal. */
export const TOKEN_TOPICS = {
  transfer: "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef",
  transferSingle: "0xc3d58168c5ae7397731d063d5bbf3d657854427343f4c083240f7aacaa2d0f62",
  deposit: "0xe1fffcc4923d04b559f4d29a8bfc6cda04eb5b0d3c460751c2402c5c5cc9109c",
  withdrawal: "0x7fcf532c15f0a6db0bd6d0e038bea71d30d808c7d98cb3bf7268a95bf5081b65",
} as const;

/** What `walkExecution` calls: each frame that ran, and each log of one. */
export interface ExecutionVisitor {
  readonly frame?: (frame: ValueFrame) => void;
  readonly log?: (log: FrameLog) => void;
}

/**
 * Visits a call tree in execution order: a frame before what its code did, its logs between its child calls by their
 * `position` (after them all when it does not say). Reverted frames (and all below them) did not happen and are not
 * visited. A trace may come from a fixture file: a frame or log of the wrong shape is skipped, never thrown on.
 */
export function walkExecution(root: ValueFrame, visitor: ExecutionVisitor): void {
  const visit = (frame: ValueFrame) => {
    if (!frame || typeof frame !== "object" || frame.error) return;
    visitor.frame?.(frame);
    const children = Array.isArray(frame.calls) ? frame.calls : [];
    const logs = Array.isArray(frame.logs) ? frame.logs : [];
    let next = 0;
    const logsUpTo = (position: number) => {
      while (next < logs.length && logPosition(logs[next], children.length) <= position) {
        const log = logs[next++];
        if (log && typeof log === "object") visitor.log?.(log);
      }
    };
    children.forEach((child, i) => {
      logsUpTo(i);
      visit(child);
    });
    logsUpTo(Number.MAX_SAFE_INTEGER);
  };
  visit(root);
}

/**
 * The movements of a call tree, in execution order (`walkExecution`): a call's ether before what its code did, the
 * token movements its logs tell of. DELEGATECALL and STATICCALL frames move no ether of their own.
 */
export function assetMovements(root: ValueFrame): AssetMovement[] {
  const moved: AssetMovement[] = [];
  walkExecution(root, {
    frame: (frame) => {
      const value = typeof frame.value === "string" && QUANTITY.test(frame.value) ? BigInt(frame.value) : 0n;
      const [from, to] = [addressOf(frame.from), addressOf(frame.to)];
      if (value > 0n && from && to && frame.type !== "DELEGATECALL" && frame.type !== "STATICCALL") {
        moved.push({ token: null, standard: "NativeCurrency", from, to, amount: value });
      }
    },
    log: (log) => {
      const movement = tokenMovement(log);
      if (movement) moved.push(movement);
    },
  });
  return moved;
}

/** The token movement a log tells of, if any (a log of another shape moves nothing). */
export function tokenMovement(log: FrameLog): AssetMovement | undefined {
  const token = addressOf(log?.address);
  if (!token || !Array.isArray(log.topics) || !log.topics.every((topic) => typeof topic === "string")) return undefined;
  const topics = log.topics.map((topic) => topic.toLowerCase());
  const words = typeof log.data === "string" ? dataWords(log.data) : undefined;
  if (!words) return undefined;
  const address = (topic: string | undefined) => (topic && /^0x[0-9a-f]{64}$/.test(topic) ? `0x${topic.slice(26)}` : undefined);
  const [topic0, t1, t2, t3] = topics;
  if (topic0 === TOKEN_TOPICS.transfer && topics.length === 3 && words.length === 1) {
    const [from, to] = [address(t1), address(t2)];
    if (from && to) return { token, standard: "ERC20", from, to, amount: words[0]! };
  } else if (topic0 === TOKEN_TOPICS.transfer && topics.length === 4 && words.length === 0) {
    const [from, to] = [address(t1), address(t2)];
    if (from && to && t3 && /^0x[0-9a-f]{64}$/.test(t3))
      return { token, standard: "ERC721", from, to, amount: 1n, tokenId: BigInt(t3).toString() };
  } else if (topic0 === TOKEN_TOPICS.transferSingle && topics.length === 4 && words.length === 2) {
    const [from, to] = [address(t2), address(t3)];
    if (from && to) return { token, standard: "ERC1155", from, to, amount: words[1]!, tokenId: words[0]!.toString() };
  } else if (topic0 === TOKEN_TOPICS.deposit && topics.length === 2 && words.length === 1) {
    const to = address(t1);
    if (to) return { token, standard: "ERC20", from: ZERO_ADDRESS, to, amount: words[0]! };
  } else if (topic0 === TOKEN_TOPICS.withdrawal && topics.length === 2 && words.length === 1) {
    const from = address(t1);
    if (from) return { token, standard: "ERC20", from, to: ZERO_ADDRESS, amount: words[0]! };
  }
  return undefined;
}

const QUANTITY = /^0x[0-9a-fA-F]{1,64}$/;

/** How many of its frame's calls came before a log (after them all when it does not say). */
function logPosition(log: FrameLog | undefined, calls: number): number {
  const position = log && typeof log === "object" ? log.position : undefined;
  return typeof position === "string" && QUANTITY.test(position) ? Number(position) : calls;
}

/** A lowercase address, or undefined for anything else. */
function addressOf(value: unknown): string | undefined {
  return typeof value === "string" && /^0x[0-9a-fA-F]{40}$/.test(value) ? value.toLowerCase() : undefined;
}

function dataWords(data: string): bigint[] | undefined {
  const hex = data.replace(/^0x/, "");
  if (hex.length % 64 !== 0 || !/^[0-9a-fA-F]*$/.test(hex)) return undefined;
  return Array.from({ length: hex.length / 64 }, (_, i) => BigInt(`0x${hex.slice(i * 64, i * 64 + 64)}`));
}

/** One asset change in the hosted shape (`transaction_info.asset_changes`). */
export interface AssetChange {
  readonly token_info: {
    readonly standard: AssetStandard;
    readonly type: "Native" | "Fungible" | "Non-Fungible";
    readonly contract_address: string;
    readonly symbol?: string;
    readonly name?: string;
    readonly decimals?: number;
  };
  readonly type: "Transfer" | "Mint" | "Burn";
  readonly from: string;
  readonly to: string;
  /** The amount in the token's units, when its decimals are known. */
  readonly amount?: string;
  /** The integer amount, hex. */
  readonly raw_amount: string;
  readonly token_id?: string;
}

/** What one address gained or lost of one asset (a chainform extra: without prices, the hosted total says nothing). */
export interface AssetDelta {
  /** The token contract, or `native` for ether. */
  readonly asset: string;
  readonly symbol?: string;
  readonly decimals?: number;
  /** The signed integer change, decimal. */
  readonly raw_amount: string;
  /** The signed change in the asset's units, when its decimals are known. */
  readonly amount?: string;
}

/** One address's balance change in the hosted shape (`transaction_info.balance_changes`), with its deltas. */
export interface BalanceChange {
  readonly address: string;
  /** Indexes of the asset changes that touched it. */
  readonly transfers: number[];
  readonly assets: AssetDelta[];
}

/** The native currency as the changes name it. */
export const NATIVE: AssetMetadata = { name: "Ether", symbol: "ETH", decimals: 18 };

/** What a transaction did to balances: its asset changes and each touched address's balance change. */
export interface AssetChanges {
  readonly asset_changes: AssetChange[];
  readonly balance_changes: BalanceChange[];
}

/**
 * The asset and balance changes of a call tree. `fee` is what the sender paid for gas (wei): it counts in the
 * sender's ether balance change, not as an asset change. `metadata` gives each token's name, symbol and decimals
 * (read from the token at the transaction's block), undefined for a contract that does not say them.
 */
export function assetChanges(
  root: ValueFrame,
  sender: string,
  fee: bigint,
  metadata: ReadonlyMap<string, AssetMetadata | undefined>,
  native: AssetMetadata = NATIVE,
): AssetChanges {
  const movements = assetMovements(root);
  const asset_changes = movements.map((m): AssetChange => {
    const known = m.token === null ? native : metadata.get(m.token);
    const fungible = m.standard === "ERC20" || m.standard === "NativeCurrency";
    const units = fungible && known && known.decimals <= MAX_UNIT_DECIMALS ? formatUnits(m.amount, known.decimals) : undefined;
    return {
      token_info: {
        standard: m.standard,
        type: m.token === null ? "Native" : fungible ? "Fungible" : "Non-Fungible",
        contract_address: m.token ?? ZERO_ADDRESS,
        ...(known ? { symbol: known.symbol, name: known.name, decimals: known.decimals } : {}),
      },
      type: m.from === ZERO_ADDRESS ? "Mint" : m.to === ZERO_ADDRESS ? "Burn" : "Transfer",
      from: m.from,
      to: m.to,
      ...(units !== undefined ? { amount: units } : {}),
      raw_amount: `0x${m.amount.toString(16)}`,
      ...(m.tokenId !== undefined ? { token_id: m.tokenId } : {}),
    };
  });
  // Per address, per asset (an NFT's id is its own asset): the signed sum, in first-seen order.
  const byAddress = new Map<string, { transfers: number[]; deltas: Map<string, bigint> }>();
  const entry = (address: string) => {
    let found = byAddress.get(address);
    if (!found) byAddress.set(address, (found = { transfers: [], deltas: new Map() }));
    return found;
  };
  const add = (address: string, asset: string, amount: bigint, index?: number) => {
    const found = entry(address);
    if (index !== undefined && !found.transfers.includes(index)) found.transfers.push(index);
    found.deltas.set(asset, (found.deltas.get(asset) ?? 0n) + amount);
  };
  const from = sender.toLowerCase();
  if (fee > 0n) add(from, "native", -fee);
  movements.forEach((m, index) => {
    const asset = (m.token ?? "native") + (m.tokenId !== undefined ? `#${m.tokenId}` : "");
    if (m.from !== ZERO_ADDRESS) add(m.from, asset, -m.amount, index);
    if (m.to !== ZERO_ADDRESS) add(m.to, asset, m.amount, index);
  });
  const balance_changes: BalanceChange[] = [];
  for (const [address, { transfers, deltas }] of byAddress) {
    const assets: AssetDelta[] = [];
    for (const [asset, delta] of deltas) {
      if (delta === 0n) continue;
      const token = asset.split("#")[0]!;
      const known = token === "native" ? native : metadata.get(token);
      const fungible = !asset.includes("#");
      assets.push({
        asset,
        ...(known ? { symbol: known.symbol, decimals: known.decimals } : {}),
        raw_amount: delta.toString(),
        ...(fungible && known && known.decimals <= MAX_UNIT_DECIMALS ? { amount: formatUnits(delta, known.decimals) } : {}),
      });
    }
    if (assets.length > 0 || transfers.length > 0) balance_changes.push({ address, transfers, assets });
  }
  return { asset_changes, balance_changes };
}

/** The tokens a call tree moved (whose metadata `assetChanges` wants). */
export function movedTokens(root: ValueFrame): string[] {
  return [...new Set(assetMovements(root).flatMap((m) => (m.token === null ? [] : [m.token])))];
}
