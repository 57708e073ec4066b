/**
 * Journaled writes and their replay. Every path that changes a Virtual Environment's chain (RPC URL writes and
 * cheatcodes, the API's sends, bridge relays) commits through `JournaledWrites.commit` once the chain acknowledged the
 * calls: one SQLite transaction holds the calls' records and their journal rows (./journal.ts). A chain restarted
 * after it died gets `replay` before it answers anything: the calls again, in order, each block mined at the
 * timestamp it had, so that blocks and transactions keep their hashes.
 */
import type { Transaction } from "../../api";
import type { ChainLog, ChainNode } from "./backend";
import type { ChainJournal, JournalBlock, JournalCall } from "./journal";
import type { JsonRpcClient } from "./json-rpc";
import { MINING_METHODS, TRANSACTION_METHODS, isReadOnlyMethod } from "./methods";
import type { Receipt } from "./records";
import { forward } from "./rpc-proxy";
import type { ChainHost, JsonRpcRequest, JsonRpcResponse } from "./types";

/** Calls that are not read-only by name but change no state: never journaled. */
const CHANGES_NOTHING: ReadonlySet<string> = new Set([
  "anvil_nodeInfo",
  "anvil_metadata",
  "anvil_dumpState",
  "anvil_setLoggingEnabled",
  "eth_sign",
  "eth_signTransaction",
  "eth_signTypedData",
  "eth_signTypedData_v3",
  "eth_signTypedData_v4",
  "personal_sign",
  "txpool_content",
  "txpool_inspect",
  "txpool_status",
]);

/** Calls that may mine a block: a replay sets the next block's timestamp before each. */
const MAY_MINE: ReadonlySet<string> = new Set([
  ...TRANSACTION_METHODS,
  ...MINING_METHODS,
  "anvil_mine_detailed",
  "hardhat_mine",
  "anvil_mine",
  "evm_mine",
]);

/** Most blocks of one write whose timestamps are kept (one batch call): a longer `anvil_mine` keeps its first. */
const MAX_BLOCKS_PER_WRITE = 256;

/** Whether an answered call goes in the journal: it succeeded and may have changed the chain. */
export function isJournaled(request: JsonRpcRequest, answer: JsonRpcResponse): boolean {
  return "result" in answer && !isReadOnlyMethod(request.method) && !CHANGES_NOTHING.has(request.method);
}

/**
 * The journal entry of an answered call: its transaction's hash when it sent one, and whether that transaction was
 * mined by the time it was acknowledged (`minedHashes`, lower case: those the recorder found receipts for).
 */
export function journalCall(request: JsonRpcRequest, answer: JsonRpcResponse, minedHashes: ReadonlySet<string> = new Set()): JournalCall {
  const params = Array.isArray(request.params) ? request.params : [];
  const txHash = sentHash(request.method, answer);
  if (txHash === undefined) return { method: request.method, params };
  return { method: request.method, params, txHash, ...(minedHashes.has(txHash.toLowerCase()) ? { mined: true } : {}) };
}

/** The hash of the transaction a call sent, from its answer (a hash, or a receipt for the `Sync` methods). */
function sentHash(method: string, answer: JsonRpcResponse): string | undefined {
  if (!TRANSACTION_METHODS.has(method) || !("result" in answer)) return undefined;
  const result = answer.result as string | Receipt | null;
  return (typeof result === "string" ? result : result?.transactionHash) ?? undefined;
}

/** Longest a replay waits for a transaction mined before its call was acknowledged (automine mines at once). */
const RECEIPT_WAIT_MS = 5_000;

/** What a replay did. */
export interface ReplayReport {
  readonly calls: number;
  /** Calls the chain refused this time, or whose transaction or block came out with another hash. */
  readonly differences: readonly string[];
}

/** The journaled writes of a service's Virtual Environments. */
export class JournaledWrites {
  /** The head each running node was at after its last journaled write: saves a call before the next one. */
  private readonly heads = new WeakMap<ChainNode, bigint>();

  constructor(
    private readonly host: ChainHost,
    readonly journal: ChainJournal,
  ) {}

  /** The block number before a write (call it with the chain held alone). */
  async begin(node: ChainNode): Promise<bigint> {
    const known = this.heads.get(node);
    if (known !== undefined) return known;
    return BigInt(await node.rpc.request<string>("eth_blockNumber"));
  }

  /**
   * Commits acknowledged calls: in one transaction, the records they made, their journal rows with the blocks mined
   * since `before`, and `also` (e.g. a relay's outcome). Nothing is journaled or recorded when the chain cannot say
   * what it mined (it died meanwhile): the caller then hears an error, not a success the journal cannot bring back.
   */
  async commit(
    node: ChainNode,
    vnetId: string,
    before: bigint,
    calls: readonly JournalCall[],
    records: readonly Transaction[],
    also?: () => void,
  ): Promise<void> {
    if (calls.length === 0 && records.length === 0 && !also) return;
    const blocks = calls.length > 0 ? await minedSince(node.rpc, before) : { head: before, blocks: [] };
    this.host.db.transaction(() => {
      for (const record of records) this.host.recordTransaction(record);
      this.journal.append(vnetId, calls, blocks.blocks);
      also?.();
    })();
    this.heads.set(node, blocks.head);
  }

  /**
   * Applies a vnet's journal to its freshly started chain, in order. `noted` hears each call and its answer (the
   * engine notes the snapshots taken again). A call the chain refuses now, or a transaction or block with another hash,
   * is reported, not fatal: the rest still applies.
   */
  async replay(
    node: ChainNode,
    vnetId: string,
    noted: (call: JournalCall, answer: JsonRpcResponse) => Promise<void>,
  ): Promise<ReplayReport> {
    const calls = this.journal.calls(vnetId);
    if (calls.length === 0) return { calls: 0, differences: [] };
    const blocks = this.journal.blocks(vnetId);
    const differences: string[] = [];
    for (const [index, call] of calls.entries()) {
      let sent: { method: string; params: readonly unknown[] } = call;
      if (blocks.size > 0 && MAY_MINE.has(call.method)) {
        const next = BigInt(await node.rpc.request<string>("eth_blockNumber")) + 1n;
        const block = blocks.get(next);
        if (block) {
          if (block.baseFee !== undefined) {
            await node.rpc
              .request("anvil_setNextBlockBaseFeePerGas", [block.baseFee])
              .catch((error: Error) => differences.push(`block ${next} could not be given its base fee: ${error.message}`));
          }
          // anvil's own evm_setNextBlockTimestamp also moves the chain's clock there, so later blocks follow on.
          await node.rpc
            .request("evm_setNextBlockTimestamp", [block.timestamp])
            .catch((error: Error) => differences.push(`block ${next} could not be given its timestamp: ${error.message}`));
          // The Admin RPC's evm_increaseTime moves the clock and mines one block: that block, at its timestamp, is all.
          if (call.method === "evm_increaseTime") sent = { method: "evm_mine", params: [] };
        }
      }
      const [answer] = await forward(node.rpc, [{ jsonrpc: "2.0", id: index, method: sent.method, params: sent.params }]);
      if ("error" in answer) differences.push(`${call.method} (write ${index + 1}) was refused: ${answer.error.message}`);
      else if (call.txHash !== undefined) {
        const txHash = sentHash(call.method, answer);
        if (txHash?.toLowerCase() !== call.txHash.toLowerCase())
          differences.push(`${call.method} (write ${index + 1}) sent another transaction`);
        // anvil answers a send before its block is sealed: the next call must find it mined, as it did the first time.
        else if (call.mined && !(await minedWithin(node.rpc, txHash, RECEIPT_WAIT_MS)))
          differences.push(`${call.method} (write ${index + 1}) was not mined again`);
      }
      await noted(call, answer);
    }
    const head = BigInt(await node.rpc.request<string>("eth_blockNumber"));
    const last = [...blocks.values()].filter((b) => b.number <= head).sort((a, b) => (a.number < b.number ? 1 : -1))[0];
    if (last) {
      const block = await node.rpc.request<{ hash: string } | null>("eth_getBlockByNumber", [`0x${last.number.toString(16)}`, false]);
      if (block?.hash !== last.hash) differences.push(`block ${last.number} came out with another hash`);
    }
    this.heads.set(node, head);
    return { calls: calls.length, differences };
  }

  /** Logs what a replay did (the operator hears about every recovery, and loudly about a difference). */
  static report(log: ChainLog | undefined, vnetId: string, report: ReplayReport, ms: number): void {
    if (report.calls === 0) return;
    if (report.differences.length === 0)
      log?.warn({ vnetId, writes: report.calls, ms }, "a chain was restarted and its writes since its last save applied again");
    else
      log?.error(
        { vnetId, writes: report.calls, differences: report.differences.slice(0, 5) },
        "a chain was restarted but some of its writes since its last save came out differently",
      );
  }
}

/** Whether a transaction is mined within `ms`. */
async function minedWithin(rpc: JsonRpcClient, hash: string, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  for (let delay = 1; ; delay = Math.min(delay * 2, 50)) {
    if ((await rpc.request<unknown>("eth_getTransactionReceipt", [hash])) !== null) return true;
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, delay));
  }
}

/** The head, and the blocks after `before` (at most `MAX_BLOCKS_PER_WRITE` of them, from the first). */
async function minedSince(rpc: JsonRpcClient, before: bigint): Promise<{ head: bigint; blocks: JournalBlock[] }> {
  const head = BigInt(await rpc.request<string>("eth_blockNumber"));
  if (head <= before) return { head, blocks: [] };
  const numbers: bigint[] = [];
  for (let n = before + 1n; n <= head && numbers.length < MAX_BLOCKS_PER_WRITE; n++) numbers.push(n);
  const answers = (await rpc.send(
    numbers.map((n, id) => ({ jsonrpc: "2.0" as const, id, method: "eth_getBlockByNumber", params: [`0x${n.toString(16)}`, false] })),
  )) as JsonRpcResponse[];
  const blocks: JournalBlock[] = [];
  for (const answer of answers) {
    if (!("result" in answer) || answer.result === null) continue;
    const block = answer.result as { number: string; timestamp: string; hash: string; baseFeePerGas?: string };
    blocks.push({
      number: BigInt(block.number),
      timestamp: Number(BigInt(block.timestamp)),
      hash: block.hash,
      ...(block.baseFeePerGas ? { baseFee: block.baseFeePerGas } : {}),
    });
  }
  return { head, blocks };
}
