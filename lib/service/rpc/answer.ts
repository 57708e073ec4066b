/**
 * Step 5 of the RPC pipeline (./pipeline.ts): a body's requests run on a vnet's chain by the engine, whichever
 * transport brought them. The engine decides per call what the URL refuses, what passes through as bytes and what
 * is recorded (chains/calls/rpc-proxy.ts). What reaches it is the text ./body.ts wrote, never the caller's bytes.
 *
 * Answers are anvil's own HTTP answers (docs/service.md "RPC URLs"): where anvil's IPC socket answers otherwise, the
 * engine asks again (chains/wire/json-rpc.ts `GENERIC_IPC_ERROR`).
 */
import { ChainRequestError, type ChainEngine, type JsonRpcResponse, type RpcAccess } from "../chains";
import { rpcError, type RpcBody } from "./body";

/** A body of requests (not one answer for the whole body). */
export type RpcCalls = Exclude<RpcBody, { response: unknown }>;

/**
 * Runs a body's requests on a vnet and returns the answer to send: the chain's bytes, or JSON text (empty when
 * nothing is to be answered: notifications only). Notifications run and get no answer, and a batch's invalid
 * entries are answered where they stand, as anvil's HTTP port does. Engine failures become JSON-RPC errors, except
 * that a vnet the engine does not know (404: deleted) is thrown, for the caller to answer as its transport does.
 */
export async function answerCalls(engine: ChainEngine, vnetId: string, calls: RpcCalls, access: RpcAccess): Promise<Buffer | string> {
  const { requests, invalid, batch } = calls;
  let answers: JsonRpcResponse[] = [];
  if (requests.length > 0) {
    try {
      const body = batch ? requests : requests[0];
      const result = invalid.length === 0 ? await engine.rpc(vnetId, body, access, calls.text) : await engine.rpc(vnetId, body, access);
      if (Buffer.isBuffer(result)) return result;
      answers = Array.isArray(result) ? result : [result];
    } catch (error) {
      if (error instanceof ChainRequestError && error.status === 404) throw error;
      answers = requests.map((r) => engineFailure(r.id ?? null, error));
    }
  }
  // Each entry in its place; a notification's answer is left out.
  const all: JsonRpcResponse[] = [];
  let next = 0;
  for (const entry of calls.order) {
    if (entry !== null) all.push(entry);
    else if (requests[next++].id !== undefined) all.push(answers[next - 1]);
  }
  if (all.length === 0) return "";
  return batch ? JSON.stringify(all) : JSON.stringify(all[0]);
}

/**
 * A body's answer at once, by callback, when the chain takes it now (`ChainEngine.rpcNow`: every call passes
 * through, the chain runs, its lock and a socket are free): `done` gets the chain's bytes. Otherwise, or when the
 * chain did not answer as a pass-through, `otherwise` is called, for the general path (`answerCalls`), which waits
 * and reports.
 */
export function answerNow(
  engine: ChainEngine,
  vnetId: string,
  calls: RpcCalls,
  access: RpcAccess,
  done: (answer: Buffer) => void,
  otherwise: () => void,
): void {
  const now =
    calls.invalid.length === 0 &&
    engine.rpcNow?.(vnetId, calls.batch ? calls.requests : calls.requests[0], access, calls.text, (answer) =>
      answer === null ? otherwise() : done(answer),
    );
  if (!now) otherwise();
}

/** Whether an error says the vnet is gone (its RPC URL is then unknown: 404). */
export function isUnknownVnet(error: unknown): boolean {
  return error instanceof ChainRequestError && error.status === 404;
}

function engineFailure(id: string | number | null, error: unknown): JsonRpcResponse {
  if (error instanceof ChainRequestError) return rpcError(id, -32000, error.message);
  return rpcError(id, -32603, "Internal error");
}
