/**
 * Journaled writes and their replay. Every path that changes a Virtual Environment's chain (RPC URL writes and
 * cheatcodes, the API's sends, bridge relays) commits through `JournaledWrites.commit` once the chain acknowledged the
 * calls: one SQLite transaction holds the calls' records and their journal rows (./journal.ts). A chain restarted
 * after it died gets `replay` before it answers anything: the calls journaled after the generation its saved state
 * holds (./state-files.ts), in order, each block mined at the timestamp it had, so that blocks and transactions keep
 * their hashes. A write the chain ran but the journal could not take is undone: the chain is killed without saving,
 * and starts again from its state and journal, which do not have it.
 */
import type { Transaction } from "../../../api";
import type { ChainLog, ChainNode } from "../node/backend";
import type { Receipt, RpcBlock } from "../evm/rpc-answers";
import { ChainClocks } from "./clock";
import type { ChainJournal, JournalBlock, JournalCall } from "./journal";
import type { JsonRpcClient } from "../wire/json-rpc";
import { MINING_METHODS, TRANSACTION_METHODS, isReadOnlyMethod } from "../evm/methods";
import { forward } from "../calls/rpc-proxy";
import { ChainRequestError, type ChainHost, type JsonRpcRequest, type JsonRpcResponse } from "../types";
import { diskFullMessage, isDiskFull } from "../../errors";

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

/** Calls that may mine a block: a replay places the next block (its timestamp, its base fee) before each. */
const MAY_MINE: ReadonlySet<string> = new Set([...TRANSACTION_METHODS, ...MINING_METHODS]);

/**
 * Most blocks of one write that are journaled (one batch call): of a longer `anvil_mine`, the first ones and the last
 * (the replay places the first of a run, and the rest follow from it as they did).
 */
const MAX_BLOCKS_PER_WRITE = 256;

/** Whether an answered call goes in the journal: it succeeded and may have changed the chain. */
export function isJournaled(request: JsonRpcRequest, answer: JsonRpcResponse): boolean {
  return "result" in answer && !isReadOnlyMethod(request.method) && !CHANGES_NOTHING.has(request.method);
}

/**
 * The journal entry of an answered call: its transaction's hash when it sent one, and whether that transaction was
 * mined by the time it was acknowledged (`minedHashes`, lower case: those `CallEffects` found receipts for).
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

/** The methods that send and wait for the block, by the method they wait for. */
const SYNC_FORMS: Readonly<Record<string, string>> = {
  eth_sendTransaction: "eth_sendTransactionSync",
  eth_sendRawTransaction: "eth_sendRawTransactionSync",
};

/** What a replay did. */
export interface ReplayReport {
  /** Calls applied again. */
  readonly calls: number;
  /** Calls still journaled that the loaded state already holds (the service died between a save and its clear). */
  readonly held: number;
  /** Calls the chain refused this time, or whose transaction or block came out with another hash. */
  readonly differences: readonly string[];
}

/** The journaled writes of a service's Virtual Environments. */
export class JournaledWrites {
  /** Hears the records of every commit, once committed (the engine queues their traces' capture, ./trace-records.ts). */
  onRecorded?: (vnetId: string, records: readonly Transaction[]) => void;
  /** The head each running node was at after its last journaled write: saves a call before the next one. */
  private readonly heads = new WeakMap<ChainNode, bigint>();

  constructor(
    private readonly host: ChainHost,
    readonly journal: ChainJournal,
    /** The chains' clocks (./clock.ts), kept with the journal rows of the writes that moved them. */
    readonly clocks: ChainClocks = new ChainClocks(host.db),
  ) {}

  /** The block number before a write (call it with the chain held alone). */
  async begin(node: ChainNode): Promise<bigint> {
    const known = this.heads.get(node);
    if (known !== undefined) return known;
    return BigInt(await node.rpc.request<string>("eth_blockNumber"));
  }

  /**
   * Commits acknowledged calls: in one transaction, the records they made, their journal rows with the blocks mined
   * since `before` (up to `latest` when the caller read the head after the calls, else read now), and `also` (e.g. a relay's
   * outcome). Nothing is journaled or recorded when the chain cannot say what it mined (it died meanwhile): the
   * caller then hears an error, not a success the journal cannot bring back. Nor does the chain keep calls the journal
   * could not take (a full disk): it is killed without saving (its next use starts it again from its saved state and
   * journal, without them), the lock still held so that no other call saw them, and the caller hears the disk-full
   * error (503 on the API, -32000 on the RPC URLs: the same words).
   */
  async commit(
    node: ChainNode,
    vnetId: string,
    before: bigint,
    calls: readonly JournalCall[],
    records: readonly Transaction[],
    { also, latest }: CommitOptions = {},
  ): Promise<void> {
    if (calls.length === 0 && records.length === 0 && !also) return;
    let head = before;
    try {
      const blocks = calls.length > 0 ? await minedSince(node.rpc, before, latest) : { head: before, blocks: [] };
      const clock = calls.length > 0 ? await this.clocks.afterCalls(node, vnetId, calls) : undefined;
      this.host.db.transaction(() => {
        for (const record of records) this.host.recordTransaction(record);
        this.journal.append(vnetId, calls, blocks.blocks);
        if (clock) this.clocks.set(vnetId, clock);
        also?.();
      })();
      head = blocks.head;
    } catch (error) {
      if (calls.length > 0) await node.kill();
      throw isDiskFull(error) ? new ChainRequestError(503, diskFullMessage()) : error;
    }
    if (calls.length > 0) this.heads.set(node, head);
    if (records.length > 0) this.onRecorded?.(vnetId, records);
  }

  /**
   * Applies a vnet's journal after `generation` (the last row its loaded state holds) to its freshly started chain, in
   * order. `noted` hears each call and its answer (the engine notes the snapshots taken again). A call the chain
   * refuses now, or a transaction or block with another hash, is reported, not fatal: the rest still applies.
   */
  async replay(
    node: ChainNode,
    vnetId: string,
    generation: number,
    noted: (call: JournalCall, answer: JsonRpcResponse) => Promise<void>,
  ): Promise<ReplayReport> {
    const calls = this.journal.calls(vnetId, generation);
    const held = this.journal.count(vnetId) - calls.length;
    if (calls.length === 0) return { calls: 0, held, differences: [] };
    const blocks = this.journal.blocks(vnetId);
    const differences: string[] = [];
    let head = BigInt(await node.rpc.request<string>("eth_blockNumber"));
    for (const [index, call] of calls.entries()) {
      const mayMine = MAY_MINE.has(call.method);
      const block = mayMine ? blocks.get(head + 1n) : undefined;
      let sent: { method: string; params: readonly unknown[] } = call;
      if (block) {
        await this.placeBlock(node, block, differences);
        // The Admin RPC's evm_increaseTime moves the clock and mines one block: that block, at its timestamp, is all.
        if (call.method === "evm_increaseTime") sent = { method: "evm_mine", params: [] };
      }
      // anvil answers a send before it seals the block: a send that was mined when acknowledged goes as its `Sync`
      // form (the same transaction), so that the next call finds it mined, as it did the first time.
      if (call.mined && SYNC_FORMS[call.method]) sent = { method: SYNC_FORMS[call.method], params: call.params };
      const [answer] = await forward(node.rpc, [{ jsonrpc: "2.0", id: index, method: sent.method, params: sent.params }]);
      if ("error" in answer) differences.push(`${call.method} (write ${index + 1}) was refused: ${answer.error.message}`);
      else if (call.txHash !== undefined && sentHash(sent.method, answer)?.toLowerCase() !== call.txHash.toLowerCase())
        differences.push(`${call.method} (write ${index + 1}) sent another transaction`);
      await noted(call, answer);
      if (mayMine) head = BigInt(await node.rpc.request<string>("eth_blockNumber"));
    }
    const last = [...blocks.values()].filter((b) => b.number <= head).sort((a, b) => (a.number < b.number ? 1 : -1))[0];
    if (last) {
      const block = await node.rpc.request<{ hash: string } | null>("eth_getBlockByNumber", [`0x${last.number.toString(16)}`, false]);
      if (block?.hash !== last.hash) differences.push(`block ${last.number} came out with another hash`);
    }
    this.heads.set(node, head);
    return { calls: calls.length, held, differences };
  }

  /**
   * Makes the next block the one journaled: its base fee and its timestamp, in one batch (anvil's own
   * evm_setNextBlockTimestamp also moves the chain's clock there, so later blocks follow on).
   */
  private async placeBlock(node: ChainNode, block: JournalBlock, differences: string[]): Promise<void> {
    const calls = [
      ...(block.baseFee === undefined ? [] : [{ method: "anvil_setNextBlockBaseFeePerGas", params: [block.baseFee] }]),
      { method: "evm_setNextBlockTimestamp", params: [block.timestamp] },
    ];
    const answers = await node.rpc.batch(calls.map((c, id) => ({ jsonrpc: "2.0" as const, id, ...c })));
    for (const answer of answers)
      if ("error" in answer) differences.push(`block ${block.number} could not be placed as it was: ${answer.error.message}`);
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

/**
 * The head, and the blocks after `before` (at most `MAX_BLOCKS_PER_WRITE` of them, from the first): the newest block
 * first, which is all when one block was mined (the common case: one call).
 */
async function minedSince(rpc: JsonRpcClient, before: bigint, known?: RpcBlock): Promise<{ head: bigint; blocks: JournalBlock[] }> {
  const latest = known ?? (await rpc.request<RpcBlock>("eth_getBlockByNumber", ["latest", false]));
  const head = BigInt(latest.number);
  if (head <= before) return { head, blocks: [] };
  if (head === before + 1n) return { head, blocks: [journalBlock(latest)] };
  const numbers: bigint[] = [];
  for (let n = before + 1n; n < head && numbers.length < MAX_BLOCKS_PER_WRITE - 1; n++) numbers.push(n);
  const answers = await rpc.batch(
    numbers.map((n, id) => ({ jsonrpc: "2.0" as const, id, method: "eth_getBlockByNumber", params: [`0x${n.toString(16)}`, false] })),
  );
  const blocks = answers.flatMap((answer) =>
    "result" in answer && answer.result !== null ? [journalBlock(answer.result as RpcBlock)] : [],
  );
  return { head, blocks: [...blocks, journalBlock(latest)] };
}

/** What `JournaledWrites.commit` may be given besides the calls and records. */
export interface CommitOptions {
  /** Runs inside the same database transaction (a relay's outcome). */
  readonly also?: () => void;
  /** The chain's head block, when the caller read it after the calls ran: not read again. */
  readonly latest?: RpcBlock;
}

/** A block as the journal keeps it. */
function journalBlock(block: RpcBlock): JournalBlock {
  return {
    number: BigInt(block.number),
    timestamp: Number(BigInt(block.timestamp)),
    hash: block.hash,
    ...(block.baseFeePerGas ? { baseFee: block.baseFeePerGas } : {}),
  };
}
