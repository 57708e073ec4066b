/**
 * The effects of calls on a chain, as transaction records: what a forwarded call changed (mined transactions, cheatcode
 * writes) becomes a transaction record, and the receipts of the mined ones are handed back too (the engine finds the
 * bridge deposits in them, ../bridge/contract.ts `depositsIn`). The records are handed back, not written: the engine writes them with the calls' journal rows, in one transaction (../durability/recovery.ts).
 */
import type { Transaction, TransactionOrigin } from "../../../api";
import type { ChainNode } from "../node/backend";
import { JsonRpcError, type JsonRpcClient } from "../wire/json-rpc";
import { MINING_METHODS, STATE_CHEATCODES, TRANSACTION_METHODS } from "../evm/methods";
import type { Receipt, RpcBlock, TransactionDetails } from "../evm/rpc-answers";
import { cheatcodeTransaction, minedTransaction } from "./records";
import type { JsonRpcRequest, JsonRpcResponse, VnetChainSpec } from "../types";

/** For how long after a send its receipt is asked for again at once, before waiting between asks (ms). */
const ASKED_AT_ONCE_MS = 5;

/** Reads what calls did to a Virtual Environment's chain, as transaction records. */
export class CallEffects {
  /** Hashes sent through an RPC URL and not mined yet, with the method that sent them, by vnet. */
  private readonly unminedHashes = new Map<string, Map<string, string>>();

  constructor(
    /** How long to wait for the receipt of a transaction sent through an RPC URL. */
    private readonly receiptTimeoutMs: number,
  ) {}

  /** The records of the transactions and cheatcodes that forwarded calls made, and the receipts of those mined. */
  async recordsOfCalls(
    node: ChainNode,
    spec: VnetChainSpec,
    calls: readonly { request: JsonRpcRequest; answer: JsonRpcResponse }[],
  ): Promise<{ records: Transaction[]; receipts: Receipt[]; latest?: RpcBlock }> {
    const receipts: Receipt[] = [];
    const records: Transaction[] = [];
    let head: string | null = null;
    // The head block read with a mined send's receipt: every call of the body ran before, so it is the head now.
    let latest: RpcBlock | undefined;
    let mined = false;
    let sendMined = false;
    for (const { request, answer } of calls) {
      if (!("result" in answer)) continue;
      if (TRANSACTION_METHODS.has(request.method)) {
        const result = answer.result as string | Receipt;
        const done =
          typeof result === "string"
            ? await this.waitUntilMined(node.rpc, result)
            : { receipt: result, details: undefined, latest: undefined };
        latest = done?.latest ?? latest;
        if (done) {
          sendMined = true;
          records.push(await this.recordOfReceipt(node, spec, done.receipt, "rpc", request.method, done.details));
          receipts.push(done.receipt);
        } else this.unmined(spec.vnetId).set(result as string, request.method);
      } else if (STATE_CHEATCODES.has(request.method)) {
        head ??= await node.rpc.request<string>("eth_blockNumber");
        records.push(cheatcodeTransaction(spec, request.method, request.params ?? [], head));
        mined ||= MINING_METHODS.has(request.method);
      }
    }
    // A mining call mines what was sent before; so does a send that fills a nonce gap, with automine on.
    if (mined || (sendMined && this.unmined(spec.vnetId).size > 0)) {
      const made = await this.recordNewlyMined(node, spec);
      records.push(...made.records);
      receipts.push(...made.receipts);
    }
    return { records, receipts, latest };
  }

  /** The record of a mined transaction (`details`: the transaction as the chain gave it, else asked). */
  async recordOfReceipt(
    node: ChainNode,
    spec: VnetChainSpec,
    receipt: Receipt,
    origin: TransactionOrigin,
    rpcMethod: string,
    details?: TransactionDetails,
  ): Promise<Transaction> {
    details ??= await node.rpc.request<TransactionDetails>("eth_getTransactionByHash", [receipt.transactionHash]);
    return minedTransaction(spec, receipt, details, origin, rpcMethod);
  }

  /** Forgets a deleted Virtual Environment. */
  forget(vnetId: string): void {
    this.unminedHashes.delete(vnetId);
  }

  /** The records of transactions sent earlier whose receipts were missing (automine off) and now exist. */
  private async recordNewlyMined(node: ChainNode, spec: VnetChainSpec): Promise<{ records: Transaction[]; receipts: Receipt[] }> {
    const receipts: Receipt[] = [];
    const records: Transaction[] = [];
    const hashes = this.unmined(spec.vnetId);
    for (const [hash, method] of [...hashes]) {
      const receipt = await node.rpc.request<Receipt | null>("eth_getTransactionReceipt", [hash]);
      if (!receipt) continue;
      hashes.delete(hash);
      records.push(await this.recordOfReceipt(node, spec, receipt, "rpc", method));
      receipts.push(receipt);
    }
    return { records, receipts };
  }

  private unmined(vnetId: string): Map<string, string> {
    let map = this.unminedHashes.get(vnetId);
    if (!map) this.unminedHashes.set(vnetId, (map = new Map()));
    return map;
  }

  /**
   * A sent transaction's receipt, the transaction and the chain's head, asked together in one round trip, once it is
   * mined; null when it cannot be mined now or is not mined within `receiptTimeoutMs`. anvil answers a send before
   * its block is mined, which takes it about a millisecond more: for the first few milliseconds it is asked again at
   * once (each ask is a round trip to the chain), then at growing intervals (timers of 1 and 2 ms, as at first, cost
   * a send 2 to 3 ms: docs/performance.md "RPC URLs"). Not waited for at all: a transaction that only a mining call
   * can mine (automine off and no interval mining) or that waits behind a nonce gap; its record is made when it is
   * mined (`recordNewlyMined`), and the sender hears at once, as from anvil.
   */
  private async waitUntilMined(
    rpc: JsonRpcClient,
    hash: string,
  ): Promise<{ receipt: Receipt; details: TransactionDetails; latest: RpcBlock } | null> {
    const started = Date.now();
    const ask = [
      { jsonrpc: "2.0" as const, id: 1, method: "eth_getTransactionReceipt", params: [hash] },
      { jsonrpc: "2.0" as const, id: 2, method: "eth_getTransactionByHash", params: [hash] },
      // The head after it, for the journal (../durability/recovery.ts `JournaledWrites.commit`), so that it is not asked again.
      { jsonrpc: "2.0" as const, id: 3, method: "eth_getBlockByNumber", params: ["latest", false] },
    ];
    // How the chain mines, asked with the first ask only (for `minedOnlyLater`).
    const mining = [
      { jsonrpc: "2.0" as const, id: 4, method: "anvil_getAutomine", params: [] },
      { jsonrpc: "2.0" as const, id: 5, method: "anvil_getIntervalMining", params: [] },
    ];
    for (let delay = 0, first = true; ; first = false) {
      const answers = await rpc.batch(first ? [...ask, ...mining] : ask);
      const receipt = resultOf<Receipt | null>(answers, 1);
      const details = resultOf<TransactionDetails | null>(answers, 2);
      if (receipt && details) return { receipt, details, latest: resultOf<RpcBlock>(answers, 3) };
      if (first && (await this.minedOnlyLater(rpc, answers, details))) return null;
      const waited = Date.now() - started;
      if (waited > this.receiptTimeoutMs) return null;
      if (waited < ASKED_AT_ONCE_MS) continue;
      delay = Math.min(delay * 2 || 1, 50);
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }

  /**
   * Whether a sent transaction, not mined yet, waits for something other than the block being mined: a mining call
   * (automine off, no interval mining), or a transaction with a lower nonce (a gap). Unknown is false (wait).
   */
  private async minedOnlyLater(
    rpc: JsonRpcClient,
    answers: readonly JsonRpcResponse[],
    details: TransactionDetails | null,
  ): Promise<boolean> {
    const automine = optionalResult(answers, 4);
    if (automine === false) return optionalResult(answers, 5) === null;
    if (automine !== true || !details?.from || !details.nonce) return false;
    const next = await rpc.request<string>("eth_getTransactionCount", [details.from, "latest"]).catch(() => null);
    return next !== null && BigInt(details.nonce) > BigInt(next);
  }
}

/** The result of the answer with this id in a batch's answers (in any order); throws the chain's error. */
function resultOf<T>(answers: readonly JsonRpcResponse[], id: number): T {
  const answer = answers.find((a) => a.id === id);
  if (answer === undefined) throw new JsonRpcError(-32603, `the chain's batch answer has no answer with id ${id}`);
  if ("error" in answer) throw new JsonRpcError(answer.error.code, answer.error.message, answer.error.data);
  return answer.result as T;
}

/** The result of the answer with this id, or undefined when the chain answered it with an error or not at all. */
function optionalResult(answers: readonly JsonRpcResponse[], id: number): unknown {
  const answer = answers.find((a) => a.id === id);
  return answer !== undefined && "result" in answer ? answer.result : undefined;
}
