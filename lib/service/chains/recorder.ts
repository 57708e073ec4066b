/**
 * The transaction records of the RPC URLs and the API: what a forwarded call changed (mined transactions, cheatcode
 * writes) becomes a transaction record, and the bridge deposits it made are handed back for relay. The records are
 * handed back, not written: the engine writes them with the calls' journal rows, in one transaction (./recovery.ts).
 */
import type { Transaction, TransactionOrigin } from "../../api";
import type { ChainNode } from "./backend";
import { depositsIn, type BridgeRelay } from "./bridge";
import type { JsonRpcClient } from "./json-rpc";
import { MINING_METHODS, STATE_CHEATCODES, TRANSACTION_METHODS } from "./methods";
import { cheatcodeTransaction, minedTransaction, type Receipt, type TransactionDetails } from "./records";
import type { JsonRpcRequest, JsonRpcResponse, VnetChainSpec } from "./types";

/** Records what calls did to a Virtual Environment's chain. */
export class TransactionRecorder {
  /** Hashes sent through an RPC URL and not mined yet, with the method that sent them, by vnet. */
  private readonly unminedHashes = new Map<string, Map<string, string>>();

  constructor(
    /** How long to wait for the receipt of a transaction sent through an RPC URL. */
    private readonly receiptTimeoutMs: number,
  ) {}

  /** The records of the transactions and cheatcodes that forwarded calls made, and the bridge deposits seen. */
  async recordRpcEffects(
    node: ChainNode,
    spec: VnetChainSpec,
    calls: readonly { request: JsonRpcRequest; answer: JsonRpcResponse }[],
  ): Promise<{ records: Transaction[]; deposits: BridgeRelay[] }> {
    const deposits: BridgeRelay[] = [];
    const records: Transaction[] = [];
    let head: string | null = null;
    let mined = false;
    for (const { request, answer } of calls) {
      if (!("result" in answer)) continue;
      if (TRANSACTION_METHODS.has(request.method)) {
        const result = answer.result as string | Receipt;
        const receipt = typeof result === "string" ? await this.waitForReceipt(node.rpc, result) : result;
        if (receipt) {
          const made = await this.recordReceipt(node, spec, receipt, "rpc", request.method);
          records.push(made.record);
          deposits.push(...made.deposits);
        } else this.unmined(spec.vnetId).set(result as string, request.method);
      } else if (STATE_CHEATCODES.has(request.method)) {
        head ??= await node.rpc.request<string>("eth_blockNumber");
        records.push(cheatcodeTransaction(spec, request.method, request.params ?? [], head));
        mined ||= MINING_METHODS.has(request.method);
      }
    }
    if (mined) {
      const made = await this.recordNewlyMined(node, spec);
      records.push(...made.records);
      deposits.push(...made.deposits);
    }
    return { records, deposits };
  }

  /** The record of a mined transaction, and the bridge deposits it made. */
  async recordReceipt(
    node: ChainNode,
    spec: VnetChainSpec,
    receipt: Receipt,
    origin: TransactionOrigin,
    rpcMethod: string,
  ): Promise<{ record: Transaction; deposits: BridgeRelay[] }> {
    const details = await node.rpc.request<TransactionDetails>("eth_getTransactionByHash", [receipt.transactionHash]);
    const record = minedTransaction(spec, receipt, details, origin, rpcMethod);
    return { record, deposits: depositsIn(spec, receipt, Date.now()) };
  }

  /** Forgets a deleted Virtual Environment. */
  forget(vnetId: string): void {
    this.unminedHashes.delete(vnetId);
  }

  /** The records of transactions sent earlier whose receipts were missing (automine off) and now exist. */
  private async recordNewlyMined(node: ChainNode, spec: VnetChainSpec): Promise<{ records: Transaction[]; deposits: BridgeRelay[] }> {
    const deposits: BridgeRelay[] = [];
    const records: Transaction[] = [];
    const hashes = this.unmined(spec.vnetId);
    for (const [hash, method] of [...hashes]) {
      const receipt = await node.rpc.request<Receipt | null>("eth_getTransactionReceipt", [hash]);
      if (!receipt) continue;
      hashes.delete(hash);
      const made = await this.recordReceipt(node, spec, receipt, "rpc", method);
      records.push(made.record);
      deposits.push(...made.deposits);
    }
    return { records, deposits };
  }

  private unmined(vnetId: string): Map<string, string> {
    let map = this.unminedHashes.get(vnetId);
    if (!map) this.unminedHashes.set(vnetId, (map = new Map()));
    return map;
  }

  /** anvil answers a send before the block is mined: poll briefly for the receipt (null when not mined yet). */
  private async waitForReceipt(rpc: JsonRpcClient, hash: string): Promise<Receipt | null> {
    const deadline = Date.now() + this.receiptTimeoutMs;
    for (let delay = 0; ; delay = Math.min(delay * 2 || 1, 50)) {
      const receipt = await rpc.request<Receipt | null>("eth_getTransactionReceipt", [hash]);
      if (receipt || Date.now() > deadline) return receipt;
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}
