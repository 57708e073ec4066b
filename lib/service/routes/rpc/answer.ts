/**
 * What an RPC URL answers to a body, whichever way it came (HTTP before or through Fastify, a WebSocket message):
 * the body split into JSON-RPC requests and the error answers of invalid entries, the calls run by the engine, the
 * answer as the text to send. A body of read-only calls the chain answers alone goes to the chain as it is and its
 * answer comes back as the chain's bytes (`ChainEngine.rpcBytes`).
 */
import { ChainRequestError, type ChainEngine, type JsonRpcRequest, type JsonRpcResponse, type RpcAccess } from "../../chains/types";

type RpcId = string | number | null;

/** A body split: one answer for all of it (not JSON, not a request, an empty batch), or its requests and the errors of its invalid entries. */
export type ParsedRpc = { response: JsonRpcResponse } | { batch: boolean; requests: JsonRpcRequest[]; invalid: JsonRpcResponse[] };

/** Splits a body into valid JSON-RPC requests and the error answers of invalid ones. */
export function parseJsonRpc(text: string): ParsedRpc {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { response: rpcError(null, -32700, "Parse error: the body is not JSON") };
  }
  if (Array.isArray(json)) {
    if (json.length === 0) return { response: rpcError(null, -32600, "Invalid Request: empty batch") };
    const requests = json.filter(isRequest);
    const invalid = json.filter((entry) => !isRequest(entry)).map((entry) => rpcError(idOf(entry), -32600, "Invalid Request"));
    return { batch: true, requests, invalid };
  }
  if (!isRequest(json)) return { response: rpcError(idOf(json), -32600, "Invalid Request: expected a JSON-RPC 2.0 request") };
  return { batch: false, requests: [json], invalid: [] };
}

/**
 * Runs a parsed body's requests on a vnet and returns the answer to send: the chain's bytes, or JSON text (empty when
 * nothing is to be answered). `raw` is the body as received. Engine failures become JSON-RPC errors, except that a
 * vnet the engine does not know (404: deleted) is thrown, for the caller to answer as its transport does.
 */
export async function answerParsed(
  engine: ChainEngine,
  vnetId: string,
  parsed: ParsedRpc,
  raw: Buffer | string,
  access: RpcAccess,
): Promise<Buffer | string> {
  if ("response" in parsed) return JSON.stringify(parsed.response);
  const { requests, invalid, batch } = parsed;
  let answers: JsonRpcResponse[] = [];
  if (requests.length > 0) {
    try {
      const result =
        engine.rpcBytes && invalid.length === 0
          ? await engine.rpcBytes(vnetId, requests, batch, raw, access)
          : await engine.rpc(vnetId, batch ? requests : requests[0], access);
      if (Buffer.isBuffer(result)) return result;
      answers = Array.isArray(result) ? result : [result];
    } catch (error) {
      if (error instanceof ChainRequestError && error.status === 404) throw error;
      answers = requests.filter((r) => r.id !== undefined).map((r) => engineFailure(r.id ?? null, error));
    }
  }
  const all = [...answers, ...invalid];
  return batch ? JSON.stringify(all) : all.length > 0 ? JSON.stringify(all[0]) : "";
}

/**
 * A parsed body's answer at once, by callback, when the chain takes it now (`ChainEngine.rpcBytesNow`: every call
 * passes through, the chain runs, its lock and a socket are free): `done` gets the chain's bytes. Otherwise, or when
 * the chain fails to answer, `otherwise` is called, for the general path (`answerParsed`), which waits and reports.
 * `raw` is the body as received and `text` the same decoded.
 */
export function answerNow(
  engine: ChainEngine,
  vnetId: string,
  parsed: ParsedRpc,
  raw: Buffer,
  text: string,
  access: RpcAccess,
  done: (answer: Buffer) => void,
  otherwise: () => void,
): void {
  const now =
    !("response" in parsed) &&
    parsed.invalid.length === 0 &&
    engine.rpcBytesNow?.(vnetId, parsed.requests, parsed.batch, raw, text, access, (answer) =>
      answer === null ? otherwise() : done(answer),
    );
  if (!now) otherwise();
}

/** Whether an error says the vnet is gone (its RPC URL is then unknown: 404). */
export function isUnknownVnet(error: unknown): boolean {
  return error instanceof ChainRequestError && error.status === 404;
}

function isRequest(value: unknown): value is JsonRpcRequest {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const request = value as Record<string, unknown>;
  const id = request.id;
  return (
    request.jsonrpc === "2.0" &&
    typeof request.method === "string" &&
    (id === undefined || id === null || typeof id === "string" || typeof id === "number") &&
    (request.params === undefined || typeof request.params === "object")
  );
}

function idOf(value: unknown): RpcId {
  const id = typeof value === "object" && value !== null ? (value as { id?: unknown }).id : undefined;
  return typeof id === "string" || typeof id === "number" ? id : null;
}

/** A JSON-RPC error answer. */
export function rpcError(id: RpcId, code: number, message: string): JsonRpcResponse {
  return { jsonrpc: "2.0", id, error: { code, message } };
}

function engineFailure(id: RpcId, error: unknown): JsonRpcResponse {
  if (error instanceof ChainRequestError) return rpcError(id, -32000, error.message);
  return rpcError(id, -32603, "Internal error");
}
