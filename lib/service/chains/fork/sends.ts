/**
 * Transactions sent to a fork served from recordings only (offline, or with no upstream configured). anvil accepts a
 * transaction into its pool before it executes it; when the execution then reads an account or slot nobody recorded,
 * the fork read fails and anvil keeps the transaction in its pool, unmined: `eth_sendTransactionSync` waits for it
 * until the service's deadline, and the sender's later transactions queue behind its nonce. So on such a fork only,
 * each send is first executed as a call (`eth_call` at "pending", with the same sender, recipient, value, data and
 * gas); when that call fails on a read never recorded, the send is answered with that error and never reaches the
 * chain, as a read beyond the recordings is (docs/forking.md). Live and fresh chains pay nothing for this.
 */
import { JsonRpcError, type JsonRpcClient } from "../wire/json-rpc";
import { TRANSACTION_METHODS } from "../evm/methods";
import { forward, rpcError } from "../calls/rpc-proxy";
import type { JsonRpcRequest, JsonRpcResponse } from "../types";
import { parseTransaction, recoverTransactionAddress, type Hex } from "../evm/viem";
import { NEVER_RECORDED, NOT_RECORDED } from "./proxy";

/** The fields of a transaction object that decide what its execution reads. */
const EXECUTION_FIELDS = ["from", "to", "value", "data", "input", "gas"] as const;

/** The methods whose first parameter is a signed transaction rather than a transaction object. */
const RAW_METHODS: ReadonlySet<string> = new Set(["eth_sendRawTransaction", "eth_sendRawTransactionSync"]);

/** A transaction as `eth_call` takes it. */
export type CallObject = Partial<Record<(typeof EXECUTION_FIELDS)[number], string>>;

/**
 * Forwards calls to a fork served from recordings only, as `forward` does, but answers each transaction whose
 * execution would read what was never recorded with that error instead of sending it.
 */
export async function forwardToReplayedFork(rpc: JsonRpcClient, requests: readonly JsonRpcRequest[]): Promise<JsonRpcResponse[]> {
  if (!requests.some((request) => TRANSACTION_METHODS.has(request.method))) return forward(rpc, requests);
  const refused = await Promise.all(
    requests.map(async (request) => {
      if (!TRANSACTION_METHODS.has(request.method)) return null;
      const tx = await callObjectOf(request);
      const reason = tx && (await unrecordedRead(rpc, tx));
      return reason ? rpcError(request.id, NOT_RECORDED, reason) : null;
    }),
  );
  const sent = requests.filter((_, i) => refused[i] === null);
  const answers = sent.length > 0 ? await forward(rpc, sent) : [];
  let next = 0;
  return refused.map((answer) => answer ?? answers[next++]!);
}

/**
 * Why a transaction cannot be sent to a fork served from recordings only: the error of the read never recorded its
 * execution makes (prefixed "the transaction was not sent"), or null when it reads only what was recorded, or fails
 * otherwise (a revert, too little ether: the chain answers those as it always does).
 */
export async function unrecordedRead(rpc: JsonRpcClient, tx: CallObject): Promise<string | null> {
  try {
    await rpc.request("eth_call", [tx, "pending"]);
    return null;
  } catch (error) {
    if (!(error instanceof JsonRpcError)) return null;
    // A revert's text is the contract's to choose: only the chain's own error about its fork counts.
    const at = error.message.indexOf(NEVER_RECORDED);
    if (at < 0 || /revert/i.test(error.message.slice(0, at))) return null;
    return `the transaction was not sent: ${error.message.slice(at)}`;
  }
}

/** The call a send would execute: its transaction object's fields, or a signed transaction's decoded; null when unreadable. */
async function callObjectOf(request: JsonRpcRequest): Promise<CallObject | null> {
  const [first] = Array.isArray(request.params) ? (request.params as unknown[]) : [];
  if (RAW_METHODS.has(request.method)) {
    if (typeof first !== "string") return null;
    try {
      const signed = parseTransaction(first as Hex);
      const from = await recoverTransactionAddress({ serializedTransaction: first as never });
      const tx: CallObject = { from, value: hex(signed.value ?? 0n) };
      if (signed.to) tx.to = signed.to;
      if (signed.data) tx.data = signed.data;
      if (signed.gas !== undefined) tx.gas = hex(signed.gas);
      return tx;
    } catch {
      // anvil answers a malformed transaction itself.
      return null;
    }
  }
  if (!first || typeof first !== "object") return null;
  const tx: CallObject = {};
  for (const field of EXECUTION_FIELDS) {
    const value = (first as Record<string, unknown>)[field];
    if (typeof value === "string") tx[field] = value;
  }
  return tx;
}

const hex = (value: bigint) => `0x${value.toString(16)}`;
