/**
 * What a forked chain reads from its upstream to build blocks and execute past the fork point, recorded when a fork is
 * created live so that offline it mines, takes transactions and moves time for as long as the user wants
 * (docs/forking.md). Measured on anvil 1.7 by logging its proxy's calls while it mines, sends, deploys, moves time,
 * snapshots and reverts: at start it reads the chain id, the fork block and the gas price; a new block reads the
 * EIP-2935 history contract's account and the ring slot of its parent (`(number - 1) % 8191`, a new slot per block
 * until the ring wraps); a transaction reads the coinbase (the zero address); a fee estimate without a gas price
 * (`cast send`) reads `eth_feeHistory` of the ten blocks up to the fork; `BLOCKHASH` of a block before the fork reads
 * that block; the explorer's overview reads the fork block with its transactions. Neither the EIP-4788 beacon roots nor the EIP-7002/7251 request contracts are read by anvil's blocks;
 * their accounts (and the request contracts' four queue slots) are recorded all the same, for calls that read them.
 *
 * The ring is read whole in one `eth_call` that overrides the history contract's code with a loop returning its 8191
 * slots (8191 single reads would cost hosted RPC quotas dearly), and kept as that one answer, from which the proxy
 * answers each slot.
 */
import { checkResult } from "./answer-checks";
import type { Recordings } from "./recordings";
import { callKey } from "./recordings";
import { JsonRpcError } from "../wire/json-rpc";
import { UpstreamError, type Upstream, type UpstreamAnswer, type UpstreamCall } from "./upstream";

/** The EIP-2935 block-hash history contract. */
export const HISTORY_CONTRACT = "0x0000f90827f1c53a10cb7a02335b175320002935";
/** Slots of the EIP-2935 ring buffer. */
export const HISTORY_RING = 8191;
/** The EIP-4788 beacon roots contract and the EIP-7002/7251 request contracts. */
const SYSTEM_CONTRACTS = [
  HISTORY_CONTRACT,
  "0x000f3df6d732807ef1319fb7b8bb8522d0beac02",
  "0x00000961ef480eb55e80d19ad83579a64c007002",
  "0x0000bbddc7ce488642fb579f8b00f3a590007251",
] as const;
/** The request contracts' queue state: excess, count, head and tail. */
const REQUEST_QUEUE_SLOTS = 4;
/** anvil's coinbase. */
const COINBASE = "0x0000000000000000000000000000000000000000";
/** How far back `BLOCKHASH` reaches. */
const BLOCKHASH_WINDOW = 256n;
/** The `eth_feeHistory` a fee estimate asks at the fork point (alloy's, so cast's and forge's). */
const FEE_HISTORY_BLOCKS = "0xa";
const FEE_HISTORY_PERCENTILES = [20];
/** Calls per JSON-RPC batch: within what hosted RPCs accept. */
const BATCH_SIZE = 50;
/** The name the recordings are marked with once the inputs are in. */
export const BLOCK_INPUTS_MARK = "block-inputs-v1";

/**
 * Runtime code that returns the 8191 slots of the account it runs as: `for (i = 0; i < 8191; i++) mem[i*32] = sload(i);
 * return mem[0 .. 8191*32]`. Run as the history contract's code (a state override), it reads the ring whole.
 */
const RING_DUMP_CODE = "0x60005b80548160051b5260010180611fff11600257" + "6203ffe06000f3";

/** The `eth_call` whose answer is the whole ring at a block. */
export function ringDumpCall(block: bigint): UpstreamCall {
  return {
    method: "eth_call",
    params: [{ to: HISTORY_CONTRACT, data: "0x" }, hex(block), { [HISTORY_CONTRACT]: { code: RING_DUMP_CODE } }],
  };
}

/** A ring slot's value from the recorded dump, as `eth_getStorageAt` answers it; undefined when not recorded. */
export function ringSlot(recordings: Recordings, block: bigint, slot: bigint): string | undefined {
  if (slot < 0n || slot >= BigInt(HISTORY_RING)) return undefined;
  const dump = ringDumpCall(block);
  const answer = recordings.get(callKey(dump.method, dump.params)) as { result?: unknown } | undefined;
  if (typeof answer?.result !== "string" || answer.result.length !== 2 + HISTORY_RING * 64) return undefined;
  const at = 2 + Number(slot) * 64;
  return `0x${answer.result.slice(at, at + 64)}`;
}

/** What recording the inputs cost: JSON-RPC calls, HTTP requests and time. */
export interface BlockInputsCost {
  readonly calls: number;
  readonly requests: number;
  readonly ms: number;
}

/**
 * The calls whose answers a chain needs to build blocks at `block`: the chain facts anvil reads at start, the system
 * contracts and the coinbase, the fee history up to the fork, and the blocks `BLOCKHASH` may ask.
 */
export function blockInputCalls(block: bigint): UpstreamCall[] {
  const at = hex(block);
  const calls: UpstreamCall[] = [
    { method: "eth_chainId", params: [] },
    { method: "eth_gasPrice", params: [] },
    { method: "eth_getBlockByNumber", params: [at, false] },
    // The fork block with its transactions: the explorer's overview and block page show it.
    { method: "eth_getBlockByNumber", params: [at, true] },
    { method: "eth_feeHistory", params: [FEE_HISTORY_BLOCKS, at, FEE_HISTORY_PERCENTILES] },
  ];
  for (const account of [...SYSTEM_CONTRACTS, COINBASE]) {
    for (const method of ["eth_getBalance", "eth_getTransactionCount", "eth_getCode"]) calls.push({ method, params: [account, at] });
  }
  for (const contract of SYSTEM_CONTRACTS.slice(2)) {
    for (let slot = 0; slot < REQUEST_QUEUE_SLOTS; slot++)
      calls.push({ method: "eth_getStorageAt", params: [contract, hex(BigInt(slot)), at] });
  }
  const first = block > BLOCKHASH_WINDOW ? block - BLOCKHASH_WINDOW : 0n;
  for (let n = first; n < block; n++) calls.push({ method: "eth_getBlockByNumber", params: [hex(n), false] });
  return calls;
}

/**
 * Records the block inputs of a fork at `block` (what is recorded already is not asked again), then marks the
 * recordings so that a restart does not ask again. Answers that are errors are not recorded (a read the upstream
 * cannot answer now is asked again when a chain needs it). Throws what the upstream throws (`UpstreamError`).
 */
export async function recordBlockInputs(upstream: Upstream, recordings: Recordings, block: bigint): Promise<BlockInputsCost> {
  const started = performance.now();
  let calls = 0;
  let requests = 0;
  if (recordings.marked(BLOCK_INPUTS_MARK)) return { calls, requests, ms: 0 };
  const missing = blockInputCalls(block).filter((call) => !recordings.has(callKey(call.method, call.params)));
  const batches: UpstreamCall[][] = [];
  for (let i = 0; i < missing.length; i += BATCH_SIZE) batches.push(missing.slice(i, i + BATCH_SIZE));
  const dump = ringDumpCall(block);
  const ring = recordings.has(callKey(dump.method, dump.params))
    ? Promise.resolve()
    : upstream.request(dump.method, dump.params).then(
        (result) => {
          if (typeof result === "string" && result.length === 2 + HISTORY_RING * 64)
            recordings.put(callKey(dump.method, dump.params), { result });
        },
        // An upstream without state overrides: the slots are then recorded one by one as a chain reads them.
        (error: unknown) => {
          if (!(error instanceof JsonRpcError)) throw error;
        },
      );
  calls += recordings.has(callKey(dump.method, dump.params)) ? 0 : 1;
  requests += recordings.has(callKey(dump.method, dump.params)) ? 0 : 1;
  await Promise.all([
    ring,
    ...batches.map(async (batch) => {
      const answers = await batchOrSingles(upstream, batch);
      requests += answers.requests;
      answers.answers.forEach((answer, i) => {
        // Only well-formed answers are kept (./answer-checks.ts): a chain asks again for the rest when it needs them.
        if ("result" in answer && checkResult(batch[i]!.method, answer.result).keep) {
          recordings.put(callKey(batch[i]!.method, batch[i]!.params), { result: answer.result });
        }
      });
    }),
  ]);
  calls += missing.length;
  recordings.mark(BLOCK_INPUTS_MARK);
  return { calls, requests, ms: performance.now() - started };
}

/**
 * The answers of a batch; from an upstream that takes no batches (it answers something that is not a list), the
 * same calls one at a time.
 */
async function batchOrSingles(
  upstream: Upstream,
  batch: readonly UpstreamCall[],
): Promise<{ answers: UpstreamAnswer[]; requests: number }> {
  try {
    return { answers: await upstream.batch(batch), requests: 1 };
  } catch (error) {
    if (!(error instanceof UpstreamError) || error.failure !== "bad-answer") throw error;
  }
  const answers: UpstreamAnswer[] = [];
  for (const call of batch) {
    try {
      answers.push({ result: await upstream.request(call.method, call.params) });
    } catch (error) {
      if (!(error instanceof JsonRpcError)) throw error;
      answers.push({ error });
    }
  }
  return { answers, requests: 1 + batch.length };
}

function hex(n: bigint): string {
  return `0x${n.toString(16)}`;
}
