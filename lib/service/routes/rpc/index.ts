/**
 * The RPC URLs of Virtual Environments (docs/service.md "RPC URLs"): `POST /rpc/admin/{secret}` and
 * `POST /rpc/public/{vnetId}` (the same paths over WebSocket: ./websocket.ts). The URL is the credential. Bodies are
 * JSON-RPC 2.0 (single or batch) and answers are JSON-RPC with HTTP 200; a body that is not JSON gets -32700, one
 * that is not a JSON-RPC request -32600. Unknown URLs are 404.
 */
import type { FastifyInstance } from "fastify";
import { ChainRequestError, type JsonRpcRequest, type JsonRpcResponse, type RpcAccess } from "../../chains/types";
import { notFound } from "../../errors";
import type { VnetRecord } from "../../store";

type RpcId = string | number | null;

/** The RPC routes. They parse their own bodies: any content type, JSON-RPC errors instead of the API's. */
export default async function rpcRoutes(app: FastifyInstance): Promise<void> {
  const { store, engine } = app.service;
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("*", { parseAs: "string" }, (_request, body, done) => done(null, body));

  async function answer(vnet: VnetRecord | undefined, body: unknown, access: RpcAccess) {
    if (!vnet) throw notFound("rid:vnet", "no Virtual Environment has this RPC URL");
    const parsed = parseJsonRpc(typeof body === "string" ? body : "");
    if ("response" in parsed) return parsed.response;
    const { requests, invalid } = parsed;
    let answers: JsonRpcResponse[] = [];
    if (requests.length > 0) {
      try {
        const result = await engine.rpc(vnet.id, parsed.batch ? requests : requests[0], access);
        answers = Array.isArray(result) ? result : [result];
      } catch (error) {
        answers = requests.filter((r) => r.id !== undefined).map((r) => engineFailure(r.id ?? null, error));
      }
    }
    const all = [...answers, ...invalid];
    return parsed.batch ? all : all[0];
  }

  app.post("/rpc/admin/:secret", { config: { public: true, rpc: true } }, async (request) =>
    answer(store.environments.vnetBySecret((request.params as { secret: string }).secret), request.body, "admin"),
  );
  app.post("/rpc/public/:vnetId", { config: { public: true, rpc: true } }, async (request) =>
    answer(store.environments.vnet((request.params as { vnetId: string }).vnetId), request.body, "public"),
  );
}

type Parsed =
  | { response: JsonRpcResponse }
  | { batch: boolean; requests: JsonRpcRequest[]; invalid: JsonRpcResponse[] };

/** Splits a body into valid JSON-RPC requests and the error answers of invalid ones. */
export function parseJsonRpc(text: string): Parsed {
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

function rpcError(id: RpcId, code: number, message: string): JsonRpcResponse {
  return { jsonrpc: "2.0", id, error: { code, message } };
}

function engineFailure(id: RpcId, error: unknown): JsonRpcResponse {
  if (error instanceof ChainRequestError) return rpcError(id, -32000, error.message);
  return rpcError(id, -32603, "Internal error");
}
