/**
 * A mined transaction's record with what it moved (`asset_changes`, `balance_changes`: lib/domain/asset-changes.ts),
 * read from the trace kept with the record (or, while it is still to be taken, from the chain), the same derivation
 * the explorer's page and the simulations use. The sender's ether change counts the fee it paid (the receipt's gas
 * used at its effective gas price). Its state changes are read from the chain, while it can still run the block again
 * (not after a reload: they are not kept).
 */
import type { Transaction } from "../../../api";
import { tracedAssetChanges } from "../../../domain/token-metadata";
import type { ValueFrame } from "../../../domain/asset-changes";
import { isOwnDiff, PRESTATE_DIFF, stateChanges, type ChainEngine, type PrestateDiff } from "../../chains";

/** The record with its asset and balance changes; as it was when the transaction has no trace (a cheatcode's). */
export async function withAssetChanges(engine: ChainEngine, record: Transaction): Promise<Transaction> {
  if (record.kind !== "blockchain" || record.block_number === null) return record;
  const call = async <T>(method: string, params: unknown[]): Promise<T> => {
    const answer = await engine.rpc(record.vnet_id, { jsonrpc: "2.0", id: 1, method, params }, "admin");
    if (Array.isArray(answer) || "error" in answer) throw new Error(`${method} failed`);
    return answer.result as T;
  };
  const trace: ValueFrame | null =
    engine.storedTrace?.(record.vnet_id, record.tx_hash) ??
    (await call<ValueFrame>("debug_traceTransaction", [record.tx_hash, { tracer: "callTracer", tracerConfig: { withLog: true } }]).catch(
      () => null,
    ));
  if (!trace) return record;
  // The receipt says what a unit of gas cost (an EIP-1559 transaction's `gas_price` may be its cap, not its price).
  const receipt = await call<{ gasUsed?: string; effectiveGasPrice?: string } | null>("eth_getTransactionReceipt", [record.tx_hash]).catch(
    () => null,
  );
  const fee = BigInt(receipt?.gasUsed ?? record.gas_used ?? "0x0") * BigInt(receipt?.effectiveGasPrice ?? record.gas_price ?? "0x0");
  const changes = await tracedAssetChanges(
    (to, data, tag) => call<string>("eth_call", [{ to, data }, tag]),
    trace,
    record.from,
    fee,
    record.block_number,
  );
  // What it wrote (balances, nonces, storage): not kept, so only while the chain can still run its block again.
  const diff = await call<PrestateDiff>("debug_traceTransaction", [record.tx_hash, PRESTATE_DIFF]).catch(() => null);
  return { ...record, ...changes, ...(isOwnDiff(diff, record.from) ? { state_changes: stateChanges(diff) } : {}) };
}
