/**
 * The RPC proxy's pure part: which calls an RPC URL refuses by its access (the Public RPC's allow-list and its empty
 * account list), and how calls reach a chain in order, with the Admin RPC methods chainform implements run between
 * runs of ordinary calls.
 */
import { ADMIN_METHODS, isAdminMethod } from "./admin-rpc";
import { JsonRpcError, type JsonRpcClient } from "../wire/json-rpc";
import { SIGNER_METHODS, isPublicMethod, isReadOnlyMethod } from "../evm/methods";
import type { JsonRpcRequest, JsonRpcResponse, RpcAccess } from "../types";
import { connectionReason, markLost } from "./lost-chains";
import { ChainTimeoutError } from "../wire/chain-timeout";

export function rpcError(id: unknown, code: number, message: string): JsonRpcResponse {
  return { jsonrpc: "2.0", id: validId(id), error: { code, message } };
}

/**
 * What a caller hears when a call to the chain failed without an answer (a missed deadline; a closed socket, named by
 * its code only: never a path or port of the server's).
 */
export function chainDidNotAnswer(error: Error): string {
  return `the chain did not answer: ${error instanceof ChainTimeoutError ? error.message : connectionReason(error)}`;
}

/** The answer of a call the chain did not answer; marked lost when the connection failed (./lost-chains.ts). */
function notAnswered(id: unknown, error: Error): JsonRpcResponse {
  const answer = rpcError(id, -32603, chainDidNotAnswer(error));
  return error instanceof ChainTimeoutError ? answer : markLost(answer);
}

export function validId(id: unknown): string | number | null {
  return typeof id === "string" || typeof id === "number" ? id : null;
}

/** The answer the proxy gives itself (a refusal, or the Public RPC's empty account list), or undefined when the request goes to the chain. */
export function refusal(request: unknown, access: RpcAccess): JsonRpcResponse | undefined {
  const r = request as Partial<JsonRpcRequest> | null;
  if (!r || typeof r !== "object" || typeof r.method !== "string" || (r.params !== undefined && typeof r.params !== "object")) {
    return rpcError(r?.id, -32600, "Invalid Request");
  }
  if (access === "public" && !isPublicMethod(r.method)) {
    return rpcError(r.id, -32601, `the method ${r.method} does not exist or is not available on the Public RPC (use the Admin RPC)`);
  }
  // The Public RPC holds no accounts, whatever the chain has unlocked or impersonated through the Admin RPC.
  if (access === "public" && r.method === "eth_accounts") return { jsonrpc: "2.0", id: validId(r.id), result: [] };
  if (access === "public" && SIGNER_METHODS.has(r.method)) {
    return rpcError(r.id, -32000, `unknown account: the Public RPC holds no accounts; sign the transaction and use eth_sendRawTransaction`);
  }
  return undefined;
}

const REQUEST_MEMBERS: ReadonlySet<string> = new Set(["jsonrpc", "id", "method", "params"]);

/**
 * Whether a call may go to the chain as the caller wrote it, its answer coming back as the chain's bytes: a
 * read-only method the chain itself answers (so nothing to record, nothing chainform implements), that this URL does
 * not refuse or answer itself, with an id the chain echoes exactly (a string, or an integer it reads as one),
 * positional params and no other members. Anything else takes the parsed path.
 */
export function passesThrough(request: JsonRpcRequest, access: RpcAccess): boolean {
  // anvil refuses a request with members of its own (-32600); the parsed path sends only these four.
  for (const key in request) if (!REQUEST_MEMBERS.has(key)) return false;
  const { id, method, params } = request;
  if (typeof id !== "string" && !(typeof id === "number" && Number.isSafeInteger(id) && id >= 0)) return false;
  if (params !== undefined && !Array.isArray(params)) return false;
  return methodPassesThrough(method, access);
}

/** Methods' verdicts by access, once worked out: a test suite calls a few methods over and over. */
const METHOD_VERDICTS: Readonly<Record<RpcAccess, Map<string, boolean>>> = { admin: new Map(), public: new Map() };
/** Methods remembered per access at the most: the names come from callers, so the maps must not grow without end. */
const MAX_REMEMBERED_METHODS = 1024;

/** Whether the chain answers `method` alone on a URL of `access`: read-only, not chainform's, not refused or answered by the URL. */
function methodPassesThrough(method: string, access: RpcAccess): boolean {
  const verdicts = METHOD_VERDICTS[access];
  let verdict = verdicts.get(method);
  if (verdict === undefined) {
    // With a string method and positional params, what `refusal` says depends on the method and the access alone.
    verdict =
      isReadOnlyMethod(method) && !isAdminMethod(method) && refusal({ jsonrpc: "2.0", id: 0, method, params: [] }, access) === undefined;
    if (verdicts.size < MAX_REMEMBERED_METHODS) verdicts.set(method, verdict);
  }
  return verdict;
}

/**
 * Sends requests to the chain and returns the answers in order with the callers' ids. Runs of ordinary methods go
 * as one HTTP batch with ids of our own; the Admin RPC methods chainform implements (admin-rpc.ts) run in between,
 * in order, so that a batch such as [setErc20Balance, balanceOf] sees its own writes.
 */
export async function forward(rpc: JsonRpcClient, requests: readonly JsonRpcRequest[]): Promise<JsonRpcResponse[]> {
  const answers: JsonRpcResponse[] = [];
  for (let i = 0; i < requests.length;) {
    if (isAdminMethod(requests[i].method)) {
      answers.push(await runAdmin(rpc, requests[i]));
      i += 1;
      continue;
    }
    let j = i;
    while (j < requests.length && !isAdminMethod(requests[j].method)) j += 1;
    answers.push(...(await forwardBatch(rpc, requests.slice(i, j))));
    i = j;
  }
  return answers;
}

async function runAdmin(rpc: JsonRpcClient, request: JsonRpcRequest): Promise<JsonRpcResponse> {
  const id = validId(request.id);
  const params = request.params === undefined ? [] : request.params;
  if (!Array.isArray(params)) return rpcError(id, -32602, `${request.method} takes its params as an array`);
  try {
    return { jsonrpc: "2.0", id, result: await ADMIN_METHODS[request.method](rpc, params) };
  } catch (error) {
    if (error instanceof JsonRpcError)
      return {
        jsonrpc: "2.0",
        id,
        error: { code: error.code, message: error.message, ...(error.data !== undefined ? { data: error.data } : {}) },
      };
    return notAnswered(id, error as Error);
  }
}

async function forwardBatch(rpc: JsonRpcClient, requests: readonly JsonRpcRequest[]): Promise<JsonRpcResponse[]> {
  // Params left out stay out: anvil's answer to a call without them is not its answer to `[]`.
  const sent = requests.map((r, id) => ({
    jsonrpc: "2.0" as const,
    id,
    method: r.method,
    ...(r.params !== undefined && { params: r.params }),
  }));
  let raw: JsonRpcResponse[];
  try {
    raw = await rpc.batch(sent);
  } catch (error) {
    return requests.map((r) => notAnswered(r.id, error as Error));
  }
  const byId = new Map(raw.map((a) => [a.id, a]));
  return requests.map((request, i) => {
    const answer = byId.get(i);
    const id = validId(request.id);
    if (!answer) return rpcError(id, -32603, "the chain did not answer this call");
    return { ...answer, id };
  });
}
