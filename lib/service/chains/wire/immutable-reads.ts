/**
 * Answers of one node to reads that cannot change while the node does not: an account's balance, nonce, code,
 * account info or storage slot at a block given by number (`eth_getBalance [address, "0x25"]`, not `"latest"`). A
 * suite run again asks the same thousands of them (forge's fork backend pins every read to its fork block), and each
 * answered here skips the round trip to the chain and its work there (docs/performance.md "Reads of an unchanged
 * state").
 *
 * Why an answer kept here stays true: the state at a mined block changes only in place, by a cheat on the head
 * (`anvil_setBalance`), or by going back (`evm_revert`, `anvil_reset`, `anvil_rollback`, a state loaded). Every such
 * call the service makes goes by `JsonRpcClient.request` or `.batch`, which call `changed()` for any method that
 * is not a plain read: that forgets everything. The pass-through doors carry reads only (the engine sends there
 * only what `passesThrough` in ../calls/rpc-proxy.ts allows), and a chain started again is a new node with a new
 * client. A read of a block not mined yet is an error, and only results are kept. An answer is kept only when
 * nothing changed between its call and its answer (`generation`). Blocks mined by the chain itself (interval
 * mining) change no mined block.
 */

/** The reads kept: their params end with the block, and nothing else in them names a moment. */
const KEPT_METHODS: ReadonlyMap<string, number> = new Map([
  ["eth_getBalance", 2],
  ["eth_getTransactionCount", 2],
  ["eth_getCode", 2],
  ["eth_getAccountInfo", 2],
  ["eth_getStorageAt", 3],
]);
/** A transaction hash, as a receipt is asked for. */
const HASH = /^0x[0-9a-fA-F]{64}$/;
/** A block number as a quantity (lowercase hex, no leading zero), never a tag or a hash. */
const BLOCK_NUMBER = /^0x(?:0|[1-9a-f][0-9a-f]{0,15})$/;
/**
 * Methods that change no state: reads, traces (which run a transaction again on a copy), anvil's state dump (the
 * service's saves) and its log switch. Anything else sent by `request` or `batch` may change state, and forgets the
 * answers kept.
 */
const PLAIN_READ =
  /^(?:eth_(?:get[A-Za-z]*|call|estimateGas|chainId|blockNumber|gasPrice|feeHistory|maxPriorityFeePerGas|blobBaseFee|syncing|createAccessList)|net_[A-Za-z]+|web3_clientVersion|debug_trace[A-Za-z]*|trace_(?:transaction|block|call|get)|anvil_(?:dumpState|setLoggingEnabled|nodeInfo|metadata|getAutomine|getIntervalMining))$/;
/** The start of every answer of anvil's this keeps (then the id, then `,"result":`). */
const ANSWER_PREFIX = '{"jsonrpc":"2.0","id":';
const RESULT_MEMBER = Buffer.from(',"result":');
/** A result of null (a receipt not mined yet): never kept. */
const NULL_RESULT = Buffer.from(',"result":null');
/** Bytes of answers kept per node at the most: past it, everything is forgotten and kept again as asked. */
const MOST_BYTES = 16 * 1024 * 1024;

/** Whether a call may change the chain's state (so that the reads kept are forgotten). */
export function mayChangeState(method: unknown): boolean {
  return typeof method !== "string" || !PLAIN_READ.test(method);
}

/** A call's id as the answer writes it, for the ids this answers (integers, plain printable ASCII strings); else null. */
function idText(id: unknown): string | null {
  if (typeof id === "number") return Number.isSafeInteger(id) && id >= 0 ? String(id) : null;
  return typeof id === "string" && /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/.test(id) ? `"${id}"` : null;
}

/** The reads of one node whose answers cannot change until the node's state does. */
export class ImmutableReads {
  /** Answers kept: the call's method and params, to the answer after its id (`,"result":...}`). */
  private readonly kept = new Map<string, Buffer>();
  private bytes = 0;
  /** Counts the calls that may have changed state: an answer is kept only if none was sent while it was asked. */
  generation = 0;

  /** Forgets every answer: a call that may change state is being sent. */
  changed(): void {
    this.generation += 1;
    this.forget();
  }

  private forget(): void {
    if (this.kept.size > 0) this.kept.clear();
    this.bytes = 0;
  }

  /** The key of a call whose answer may be kept, or null. */
  keyOf(call: { readonly method?: unknown; readonly params?: unknown; readonly id?: unknown }): string | null {
    if (call.method === "eth_getTransactionReceipt") {
      // A mined transaction's receipt stays as it is until a revert or a reset (which forget everything); a null
      // (not mined yet) is never kept (`keep`).
      const [hash] = Array.isArray(call.params) && call.params.length === 1 ? call.params : [];
      return typeof hash === "string" && HASH.test(hash) && idText(call.id) !== null ? `eth_getTransactionReceipt["${hash}"]` : null;
    }
    const length = typeof call.method === "string" ? KEPT_METHODS.get(call.method) : undefined;
    const { params } = call;
    if (length === undefined || !Array.isArray(params) || params.length !== length || idText(call.id) === null) return null;
    const block = params[length - 1];
    if (typeof block !== "string" || !BLOCK_NUMBER.test(block)) return null;
    for (let i = 0; i < length - 1; i += 1) if (typeof params[i] !== "string") return null;
    return `${call.method as string}${JSON.stringify(params)}`;
  }

  /** The answer kept for `key`, with `id` as the caller's; undefined when none is kept. */
  answer(key: string, id: unknown): Buffer | undefined {
    const rest = this.kept.get(key);
    if (rest === undefined) return undefined;
    const head = `${ANSWER_PREFIX}${idText(id)}`;
    const answer = Buffer.allocUnsafe(head.length + rest.length);
    answer.write(head, 0, "latin1");
    rest.copy(answer, head.length);
    return answer;
  }

  /** Keeps the chain's answer to the call `key` (with the caller's `id`), asked at `generation`, when it is a result. */
  keep(key: string, id: unknown, generation: number, answer: Buffer): void {
    if (generation !== this.generation) return;
    const head = `${ANSWER_PREFIX}${idText(id)}`;
    if (answer.length <= head.length + RESULT_MEMBER.length || answer.toString("latin1", 0, head.length) !== head) return;
    if (answer.compare(RESULT_MEMBER, 0, RESULT_MEMBER.length, head.length, head.length + RESULT_MEMBER.length) !== 0) return;
    let end = answer.length;
    while (end > 0 && (answer[end - 1] === 0x0a || answer[end - 1] === 0x0d)) end -= 1;
    if (
      answer[end - 1] !== 0x7d /* } */ ||
      answer.compare(NULL_RESULT, 0, NULL_RESULT.length, head.length, head.length + NULL_RESULT.length) === 0
    )
      return;
    this.keepRest(key, Buffer.from(answer.subarray(head.length))); // a copy: the answer's buffer goes to the caller
  }

  /**
   * Keeps a receipt the service read itself in a batch (a send's, ../transactions/call-effects.ts), so that the
   * sender's own ask for it right after is answered here. `batchText` is the chain's answer to that batch and
   * `answers` its parse: the receipt is kept only when writing the parse again gives the chain's text exactly (then
   * the receipt alone written the same way is what the chain would answer to it alone, as a batch's answers are
   * written as single ones are).
   */
  keepReceipts(
    calls: readonly { readonly id?: unknown; readonly method: string; readonly params?: unknown }[],
    answers: readonly unknown[],
    batchText: string,
    generation: number,
  ): void {
    if (generation !== this.generation) return;
    let exact: boolean | undefined;
    for (const call of calls) {
      if (call.method !== "eth_getTransactionReceipt") continue;
      const key = this.keyOf({ ...call, id: 0 });
      const answer = answers.find((a) => (a as { id?: unknown }).id === call.id) as { result?: unknown } | undefined;
      if (key === null || answer?.result === null || answer?.result === undefined || this.kept.has(key)) continue;
      exact ??= JSON.stringify(answers) === batchText.trimEnd();
      if (!exact) return;
      this.keepRest(key, Buffer.from(`,"result":${JSON.stringify(answer.result)}}`));
    }
  }

  private keepRest(key: string, rest: Buffer): void {
    if (this.bytes + rest.length > MOST_BYTES) this.forget();
    this.kept.set(key, rest);
    this.bytes += rest.length + key.length;
  }
}
