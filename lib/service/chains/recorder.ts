/**
 * The transaction records of the RPC URLs and the API: what a forwarded call changed (mined transactions, cheatcode
 * writes) becomes a transaction record through the host, and the bridge deposits it made are handed back for relay.
 */
import type { Transaction, TransactionOrigin } from "../../api";
import type { ChainNode } from "./backend";
import { depositsIn, type BridgeRelay } from "./bridge";
import type { JsonRpcClient } from "./json-rpc";
import { MINING_METHODS, STATE_CHEATCODES, TRANSACTION_METHODS } from "./methods";
import { cheatcodeTransaction, minedTransaction, type Receipt, type TransactionDetails } from "./records";
import type { ChainHost, JsonRpcRequest, JsonRpcResponse, VnetChainSpec } from "./types";

/** Records what calls did to a Virtual Environment's chain. */
export class TransactionRecorder {
  /** Hashes sent through an RPC URL and not mined yet, with the method that sent them, by vnet. */
  private readonly unminedHashes = new Map<string, Map<string, string>>();

  constructor(
    private readonly host: ChainHost,
    /** How long to wait for the receipt of a transaction sent through an RPC URL. */
    private readonly receiptTimeoutMs: number,
  ) {}

  /** Records the transactions and cheatcodes that forwarded calls made; returns the bridge deposits seen. */
  async recordRpcEffects(
    node: ChainNode,
    spec: VnetChainSpec,
    calls: readonly { request: JsonRpcRequest; answer: JsonRpcResponse }[],
  ): Promise<BridgeRelay[]> {
    const deposits: BridgeRelay[] = [];
    let head: string | null = null;
    let mined = false;
    for (const { request, answer } of calls) {
      if (!("result" in answer)) continue;
      if (TRANSACTION_METHODS.has(request.method)) {
        const result = answer.result as string | Receipt;
        const receipt = typeof result === "string" ? await this.waitForReceipt(node.rpc, result) : result;
        if (receipt) deposits.push(...(await this.recordReceipt(node, spec, receipt, "rpc", request.method)).deposits);
        else this.unmined(spec.vnetId).set(result as string, request.method);
      } else if (STATE_CHEATCODES.has(request.method)) {
        head ??= await node.rpc.request<string>("eth_blockNumber");
        this.host.recordTransaction(cheatcodeTransaction(spec, request.method, request.params ?? [], head));
        mined ||= MINING_METHODS.has(request.method);
      }
    }
    if (mined) deposits.push(...(await this.recordNewlyMined(node, spec)));
    return deposits;
  }

  /** Records a mined transaction; returns its record and the bridge deposits it made. */
  async recordReceipt(
    node: ChainNode,
    spec: VnetChainSpec,
    receipt: Receipt,
    origin: TransactionOrigin,
    rpcMethod: string,
  ): Promise<{ record: Transaction; deposits: BridgeRelay[] }> {
    const details = await node.rpc.request<TransactionDetails>("eth_getTransactionByHash", [receipt.transactionHash]);
    const record = minedTransaction(spec, receipt, details, origin, rpcMethod);
    this.host.recordTransaction(record);
    return { record, deposits: depositsIn(spec, receipt, Date.now()) };
  }

  /** Forgets a deleted Virtual Environment. */
  forget(vnetId: string): void {
    this.unminedHashes.delete(vnetId);
  }

  /** Records transactions sent earlier whose receipts were missing (automine off) and now exist. */
  private async recordNewlyMined(node: ChainNode, spec: VnetChainSpec): Promise<BridgeRelay[]> {
    const deposits: BridgeRelay[] = [];
    const hashes = this.unmined(spec.vnetId);
    for (const [hash, method] of [...hashes]) {
      const receipt = await node.rpc.request<Receipt | null>("eth_getTransactionReceipt", [hash]);
      if (!receipt) continue;
      hashes.delete(hash);
      deposits.push(...(await this.recordReceipt(node, spec, receipt, "rpc", method)).deposits);
    }
    return deposits;
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
