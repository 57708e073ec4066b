/**
 * Step 4 of the RPC pipeline (./pipeline.ts): a body read into JSON-RPC requests, and the only text that ever goes
 * on to a chain. A body must be UTF-8 JSON (else the spec's -32700, and nothing is sent on); each valid request is
 * written again by the service as `{"jsonrpc":"2.0","id":...,"method":...,"params":...}`. A caller's own bytes
 * (leading or trailing whitespace, invalid UTF-8, duplicate members, members of its own) never reach a chain:
 * anvil's IPC socket stalls on whitespace left after a request and drops frames that are not UTF-8, which froze a
 * chain for every caller (docs/service.md "RPC URLs").
 */
import { isUtf8 } from "node:buffer";
import type { JsonRpcRequest, JsonRpcResponse } from "../chains";

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

/**
 * The deepest nesting of arrays and objects a body may have. anvil's HTTP port reads 127 levels (the outer request
 * object and its params count) and answers -32600 "Invalid request" with a null id from 128 on; the engine may send
 * a single call on to the chain inside a batch (one level more: chains/json-rpc.ts `askPrecisely`), so the service
 * takes one level less, and answers deeper bodies as anvil does. The bound keeps every recursive step after the
 * parse (JSON.stringify, `deepFreeze`, the engine's checks) thousands of frames short of the stack's end: a body
 * nested 5,000 deep once stopped the service.
 */
export const MAX_NESTING = 126;

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
  // Bytes read as Latin-1 are one character per byte: equal texts are equal bytes (`SingleCalls` relies on it).
  const key = typeof body === "string" ? body : body.length <= LONGEST_REMEMBERED ? body.toString("latin1") : null;
  const known = key === null ? null : SINGLE_CALLS.read(key);
  if (known !== null) return known;
  if (typeof body !== "string" && !isUtf8(body)) return { response: rpcError(null, -32700, PARSE_ERROR) };
  // Before the parse: nothing recursive ever sees a body nested deeper than anvil reads.
  if (nestingExceeds(body, MAX_NESTING)) return { response: rpcError(null, -32600, INVALID_REQUEST) };
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
  const text = JSON.stringify(request);
  if (key !== null) SINGLE_CALLS.remember(key, request, text);
  return { batch: false, requests: [request], invalid: [], order: [null], text };
}

/**
 * The calls with each request that `refusal` answers taken out of what the chain gets and answered where it stands
 * (a refused notification gets no answer); the others go on as they came.
 *
 * @example
 * refusedInPlace(calls, (request) => (request.method === "eth_sign" ? rpcError(request.id ?? null, -32601, "no") : undefined))
 */
export function refusedInPlace(
  calls: Exclude<RpcBody, { response: unknown }>,
  refusal: (request: JsonRpcRequest) => JsonRpcResponse | undefined,
): Exclude<RpcBody, { response: unknown }> {
  const requests: JsonRpcRequest[] = [];
  const invalid: JsonRpcResponse[] = [...calls.invalid];
  const order: (JsonRpcResponse | null)[] = [];
  let next = 0;
  for (const entry of calls.order) {
    if (entry !== null) {
      order.push(entry);
      continue;
    }
    const request = calls.requests[next++]!;
    const refused = refusal(request);
    if (refused === undefined) {
      requests.push(request);
      order.push(null);
    } else if (request.id !== undefined) {
      invalid.push(refused);
      order.push(refused);
    }
  }
  return { batch: calls.batch, requests, invalid, order, text: JSON.stringify(calls.batch ? requests : (requests[0] ?? null)) };
}

/**
 * Whether a JSON text (bytes or characters) opens more than `limit` arrays and objects at once, by one pass over it
 * with no recursion and no allocation. Brackets inside strings do not count (a backslash escapes the next unit). A
 * text that is not JSON may be misread; the parse refuses it then.
 *
 * @example
 * nestingExceeds('{"params":[[1]]}', 2) // true
 */
export function nestingExceeds(text: Buffer | string, limit: number): boolean {
  const bytes = typeof text !== "string";
  const length = text.length;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < length; i += 1) {
    const c = bytes ? text[i] : text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* \ */) i += 1;
      else if (c === 0x22 /* " */) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      depth += 1;
      if (depth > limit) return true;
    } else if (c === 0x5d /* ] */ || c === 0x7d /* } */) depth -= 1;
  }
  return false;
}

/** How a canonical request with an id begins: its id's text follows. */
const CANONICAL_HEAD = '{"jsonrpc":"2.0","id":';
/** A body longer than this is never remembered (nor looked up). */
const LONGEST_REMEMBERED = 2048;
/** Texts remembered at the most; the texts come from callers, so the map is emptied when full. */
const MOST_REMEMBERED = 1024;
/** What may follow an id's value in JSON: whitespace, a comma, the object's end (not `.0` or `e0` of a number). */
const ID_ENDS: ReadonlySet<number> = new Set([0x20, 0x09, 0x0a, 0x0d, 0x2c, 0x7d]);
const SINGLE: readonly (JsonRpcResponse | null)[] = Object.freeze([null]);
const NONE: JsonRpcResponse[] = Object.freeze([]) as unknown as JsonRpcResponse[];

/**
 * Single requests read before, so that a call that differs from an earlier one only in its id is not parsed, checked
 * and written again: a test suite makes the same few calls over and over with a new id each time. Each is kept by
 * its text with the id's text taken out (`A` + `B` of a text `A` + id + `B`), and what it was read as: its method and
 * params (frozen, shared by every call that reuses them) and the canonical text after its id.
 *
 * A text is remembered only when it is ASCII (so that its characters are the same whether it came as bytes or as a
 * WebSocket message), has no backslash, has `"id":` once, and its id's text is an id written as JSON.stringify
 * writes it (a safe integer, an ASCII string with no quote or backslash, or null) followed by what ends a value. Then
 * `"id":` in `A` is the request's own id member (no other, escaped or not, can be there) and any other such id in its
 * place makes a text that JSON.parse reads as the same request with that id: the same verdicts, the same canonical
 * text with that id. Equal keys are equal texts around the id (bytes read as Latin-1), so nothing else is checked.
 */
class SingleCalls {
  private readonly known = new Map<string, { readonly method: string; readonly params: unknown; readonly after: string }>();

  /** The body `text` is, when it differs from a remembered one only in its id; null otherwise. */
  read(text: string): RpcBody | null {
    if (this.known.size === 0) return null;
    const found = findId(text);
    if (found === null) return null;
    const known = this.known.get(text.slice(0, found.start) + text.slice(found.end));
    if (known === undefined) return null;
    const { id } = found;
    const request: JsonRpcRequest =
      known.params === undefined
        ? { jsonrpc: "2.0", id, method: known.method }
        : { jsonrpc: "2.0", id, method: known.method, params: known.params };
    return {
      batch: false,
      requests: [request],
      invalid: NONE,
      order: SINGLE,
      text: CANONICAL_HEAD + text.slice(found.start, found.end) + known.after,
    };
  }

  /** Remembers a single request read from `text` (canonical: `request`'s text), when it may be (see the class). */
  remember(text: string, request: JsonRpcRequest, canonicalText: string): void {
    if (request.id === undefined || text.includes("\\") || !isAscii(text)) return;
    const found = findId(text);
    // `"id"` once: the one found ends at `found.start`.
    if (found === null || found.id !== request.id || text.indexOf('"id"') !== found.start - 5 || text.includes('"id"', found.start)) return;
    if (this.known.size >= MOST_REMEMBERED) this.known.clear();
    const idText = text.slice(found.start, found.end);
    this.known.set(text.slice(0, found.start) + text.slice(found.end), {
      method: request.method,
      params: deepFreeze(request.params),
      after: canonicalText.slice(CANONICAL_HEAD.length + idText.length),
    });
  }
}

const SINGLE_CALLS = new SingleCalls();

/**
 * Where the value of the first `"id":` of a text is, when it is an id written as JSON.stringify writes it and what
 * follows may end a value: its start, end and value. Null otherwise.
 */
function findId(text: string): { start: number; end: number; id: string | number | null } | null {
  const at = text.indexOf('"id":');
  if (at < 0) return null;
  const start = at + 5;
  const first = text.charCodeAt(start);
  let end = start;
  let id: string | number | null;
  if (first === 0x22 /* " */) {
    end = text.indexOf('"', start + 1);
    if (end < 0 || end - start > 256) return null;
    for (let i = start + 1; i < end; i += 1) {
      const c = text.charCodeAt(i);
      if (c < 0x20 || c > 0x7e || c === 0x5c /* \ */) return null;
    }
    end += 1;
    id = text.slice(start + 1, end - 1);
  } else if (first === 0x6e /* n */) {
    if (!text.startsWith("null", start)) return null;
    end = start + 4;
    id = null;
  } else {
    if (first === 0x2d /* - */) end += 1;
    while (end - start <= 17 && text.charCodeAt(end) >= 0x30 && text.charCodeAt(end) <= 0x39) end += 1;
    const digits = text.slice(start, end);
    id = Number(digits);
    // Its digits exactly as JSON.stringify writes a safe integer: no leading zero, no `-0`.
    if (!Number.isSafeInteger(id) || String(id) !== digits) return null;
  }
  return ID_ENDS.has(text.charCodeAt(end)) ? { start, end, id } : null;
}

function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i += 1) if (text.charCodeAt(i) > 0x7f) return false;
  return true;
}

/** Freezes a parsed JSON value all the way down: params shared by many calls must not be changed by one. */
function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    for (const member of Object.values(value)) deepFreeze(member);
    Object.freeze(value);
  }
  return value;
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
