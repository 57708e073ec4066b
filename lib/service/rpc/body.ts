/**
 * Step 4 of the RPC pipeline (./pipeline.ts): a body read into JSON-RPC requests, and the only text that ever goes
 * on to a chain. A body must be UTF-8 JSON (else the spec's -32700, and nothing is sent on); each valid request is
 * written again by the service as `{"jsonrpc":"2.0","id":...,"method":...,"params":...}`. A caller's own bytes
 * (leading or trailing whitespace, invalid UTF-8, duplicate members, members of its own) never reach a chain:
 * anvil's IPC socket stalls on whitespace left after a request and drops frames that are not UTF-8, which froze a
 * chain for every caller (docs/service.md "RPC URLs").
 */
import { isUtf8 } from "node:buffer";
import type { JsonRpcRequest, JsonRpcResponse } from "../chains/types";

type RpcId = string | number | null;

/**
 * A body read: one answer for all of it (not UTF-8 JSON, not a request, an empty batch), or its requests written
 * anew, the error answers of its invalid entries where they stand, and the requests as the canonical text the
 * chain gets.
 */
export type RpcBody =
  | { readonly response: JsonRpcResponse }
  | {
      readonly batch: boolean;
      /** The valid requests, in order, with their four members only. */
      readonly requests: JsonRpcRequest[];
      /** The error answers of the invalid entries of a batch (none for a single request). */
      readonly invalid: JsonRpcResponse[];
      /** A batch's entries in order: an invalid entry's answer, or null where the next valid request's answer goes. */
      readonly order: readonly (JsonRpcResponse | null)[];
      /** `JSON.stringify` of the request (single) or of the valid requests (batch): what a chain may be sent. */
      readonly text: string;
    };

/** The parse error of a body that is not UTF-8 JSON (the spec's code; anvil's HTTP port answers such bodies -32600). */
export const PARSE_ERROR = "Parse error: the body is not JSON";
/** What anvil's HTTP port answers a body or an entry that is not a request it takes: -32600 with this message. */
export const INVALID_REQUEST = "Invalid request";

/** The members a request may have: anvil refuses any other (-32600). */
const MEMBERS: ReadonlySet<string> = new Set(["jsonrpc", "id", "method", "params"]);

/**
 * Reads a body (bytes as received, or a WebSocket text message) into requests written anew. What is refused is
 * refused as anvil's HTTP port refuses it (-32600 "Invalid request": a batch with an entry that is not an object
 * as a whole, an object entry that is not a request on its own), except that a body that is not UTF-8 JSON is
 * the spec's -32700.
 *
 * @example
 * readRpcBody(Buffer.from(' {"jsonrpc":"2.0","id":1,"method":"eth_chainId"}  '))
 * // { batch: false, requests: [...], invalid: [], order: [null], text: '{"jsonrpc":"2.0","id":1,"method":"eth_chainId"}' }
 */
export function readRpcBody(body: Buffer | string): RpcBody {
  if (typeof body !== "string" && !isUtf8(body)) return { response: rpcError(null, -32700, PARSE_ERROR) };
  let json: unknown;
  try {
    json = JSON.parse(typeof body === "string" ? body : body.toString("utf8"));
  } catch {
    return { response: rpcError(null, -32700, PARSE_ERROR) };
  }
  if (Array.isArray(json)) {
    if (json.length === 0 || !json.every(isObject)) return { response: rpcError(null, -32600, INVALID_REQUEST) };
    const requests: JsonRpcRequest[] = [];
    const invalid: JsonRpcResponse[] = [];
    const order: (JsonRpcResponse | null)[] = [];
    for (const entry of json) {
      if (isRequest(entry)) {
        requests.push(canonical(entry));
        order.push(null);
      } else {
        const refused = rpcError(idOf(entry), -32600, INVALID_REQUEST);
        invalid.push(refused);
        order.push(refused);
      }
    }
    return { batch: true, requests, invalid, order, text: JSON.stringify(requests) };
  }
  if (!isRequest(json)) return { response: rpcError(idOf(json), -32600, INVALID_REQUEST) };
  const request = canonical(json);
  return { batch: false, requests: [request], invalid: [], order: [null], text: JSON.stringify(request) };
}

/** A request with its four members only, in the order anvil writes them (members left out stay out). */
function canonical(request: JsonRpcRequest): JsonRpcRequest {
  const { id, method, params } = request;
  if (id === undefined) return params === undefined ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", method, params };
  return params === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** An id anvil takes and echoes as it was written: a string, or an integer JavaScript holds exactly. */
function isId(id: unknown): id is string | number {
  return typeof id === "string" || (typeof id === "number" && Number.isSafeInteger(id));
}

function isRequest(value: unknown): value is JsonRpcRequest {
  if (!isObject(value)) return false;
  for (const key in value) if (!MEMBERS.has(key)) return false;
  const id = value.id;
  return (
    value.jsonrpc === "2.0" &&
    typeof value.method === "string" &&
    (id === undefined || id === null || isId(id)) &&
    (value.params === undefined || typeof value.params === "object")
  );
}

function idOf(value: unknown): RpcId {
  const id = isObject(value) ? value.id : undefined;
  return isId(id) ? id : null;
}

/** A JSON-RPC error answer. */
export function rpcError(id: RpcId, code: number, message: string): JsonRpcResponse {
  return { jsonrpc: "2.0", id, error: { code, message } };
}
