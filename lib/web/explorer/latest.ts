/**
 * The explorer overview's latest transactions: the mined transactions of the latest blocks with the cheatcode writes
 * the service recorded (they mine nothing, so no block holds them).
 */
import type { StoreViews } from "../../service/web-interface";
import type { ChainBlock } from "../chain-reader";
import { summarize, type VnetView } from "../context";

const LATEST_TRANSACTIONS = 20;

/** A row of the overview's latest transactions: a mined transaction or a recorded cheatcode write. */
interface LatestRow {
  readonly hash: string;
  readonly blockNumber: string | null;
  readonly from: string;
  readonly to: string | null;
  readonly value: string;
  /** The cheatcode's method, for a cheatcode write. */
  readonly cheatcode?: string;
}

/**
 * The newest transactions of the latest blocks with the cheatcode writes the service recorded (they mine nothing, so
 * no block holds them), newest block first; a cheatcode sorts after the transactions of the block it was made at.
 */
export function latestTransactions(views: StoreViews, view: VnetView, blocks: readonly ChainBlock[]): LatestRow[] {
  const mined: LatestRow[] = blocks.flatMap((block) => block.transactions);
  const cheatcodes: LatestRow[] = views.records
    .transactions(view.vnet.instance_id, { kind: "cheatcode" }, 1, LATEST_TRANSACTIONS)
    .map(summarize)
    .filter((t) => t.vnetId === view.vnet.id)
    .map((t) => ({
      hash: t.hash,
      blockNumber: t.blockNumber,
      from: t.from,
      to: t.to,
      value: t.value,
      cheatcode: t.rpcMethod ?? "cheatcode",
    }));
  const blockOf = (row: LatestRow) => (row.blockNumber ? BigInt(row.blockNumber) : -1n);
  return [...mined, ...cheatcodes]
    .map((row, i) => ({ row, i }))
    .sort((a, b) => (blockOf(a.row) === blockOf(b.row) ? a.i - b.i : blockOf(b.row) > blockOf(a.row) ? 1 : -1))
    .slice(0, LATEST_TRANSACTIONS)
    .map(({ row }) => row);
}
