/**
 * The WebSocket RPC URLs of Virtual Environments (docs/service.md "RPC URLs"): the HTTP RPC URLs with a `ws://`
 * (`wss://` over TLS) scheme, listed as `Admin websocket RPC` and `Public websocket RPC`. Every call goes through
 * the same engine path as over HTTP (./answer.ts: the same allow-list, records, per-URL rate limit, and read-only
 * calls passed to the chain and back as bytes); the URL is resolved once, at the upgrade; `eth_subscribe` and
 * `eth_unsubscribe` go to the chain's own WebSocket, one upstream connection per client connection, and its
 * notifications come back as they are.
 */
import type { IncomingMessage, Server } from "node:http";
import type { Duplex } from "node:stream";
import WebSocket, { WebSocketServer, type RawData } from "ws";
import type { ChainEngine, JsonRpcRequest, JsonRpcResponse, RpcAccess } from "../../chains/types";
import { ChainRequestError } from "../../chains/types";
import { rawErrorAnswer } from "../../client-errors";
import type { RateDecision } from "../../rate-limit";
import type { Store, VnetRecord } from "../../store";
import { answerNow, answerParsed, parseJsonRpc, type ParsedRpc } from "./answer";

/** Subscription kinds passed to the chain: new blocks, logs, pending transactions. */
export const SUBSCRIPTION_KINDS: ReadonlySet<string> = new Set(["newHeads", "logs", "newPendingTransactions"]);
/** Largest WebSocket message: 1 MB, as the HTTP body limit. */
const MAX_MESSAGE_BYTES = 1024 * 1024;

/** What the WebSocket RPC needs from the service. */
export interface WebSocketRpcContext {
  readonly store: Store;
  readonly engine: ChainEngine;
  /** Counts one call on an RPC URL path (`/rpc/public/{id}`), as the HTTP RPC does. */
  readonly rate: (path: string) => RateDecision;
}

/**
 * Serves WebSocket upgrades of the RPC URLs on `server`; anything else that asks to upgrade gets the spec's 404
 * body. Returns a function that closes every connection (on service shutdown).
 */
export function attachWebSocketRpc(server: Server, context: WebSocketRpcContext): () => void {
  const sockets = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
  server.on("upgrade", (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = (request.url ?? "").split("?")[0];
    const target = resolve(context.store, path);
    if (!target) return refuse(socket, 404, "no Virtual Environment has this RPC URL", context.rate(path));
    const decision = context.rate(path);
    if (!decision.allowed) return refuse(socket, 429, "too many requests: back off until X-Svc-Reset-Timestamp", decision);
    sockets.handleUpgrade(request, socket, head, (client) => serve(client, target.vnet, target.access, path, context));
  });
  return () => {
    for (const client of sockets.clients) client.terminate();
    sockets.close();
  };
}

function resolve(store: Store, path: string): { vnet: VnetRecord; access: RpcAccess } | undefined {
  const match = /^\/rpc\/(admin|public)\/([^/]+)$/.exec(path);
  if (!match) return undefined;
  const vnet = match[1] === "admin" ? store.environments.vnetBySecret(match[2]) : store.environments.vnet(match[2]);
  return vnet ? { vnet, access: match[1] as RpcAccess } : undefined;
}

/** Answers an upgrade request with a plain HTTP error: the spec's body and rate headers. */
function refuse(socket: Duplex, status: 404 | 429, message: string, rate: RateDecision): void {
  socket.end(rawErrorAnswer(status, message, rate, status === 404 ? { rid: "rid:vnet" } : undefined));
}

/** One client connection: calls go to the engine, subscriptions to the chain's WebSocket. */
function serve(client: WebSocket, vnet: VnetRecord, access: RpcAccess, path: string, context: WebSocketRpcContext): void {
  let upstream: Promise<WebSocket> | null = null;
  let release: (() => void) | null = null;
  const send = (answer: unknown) => {
    if (client.readyState === WebSocket.OPEN) client.send(JSON.stringify(answer));
  };
  const close = () => {
    release?.();
    release = null;
    void upstream?.then(
      (socket) => socket.close(),
      () => undefined,
    );
    upstream = null;
  };
  client.on("close", close);
  client.on("error", close);

  /** The chain's WebSocket for this client, opened on the first subscription. */
  function chainSocket(): Promise<WebSocket> {
    upstream ??= (async () => {
      if (!context.engine.subscriptionChannel) throw new ChainRequestError(402, "no chain engine: subscriptions are not available");
      const channel = await context.engine.subscriptionChannel(vnet.id);
      release = channel.release;
      const socket = new WebSocket(channel.url);
      await new Promise<void>((resolve, reject) => {
        socket.once("open", () => resolve());
        socket.once("error", reject);
      });
      socket.on("message", (data: RawData) => {
        if (client.readyState === WebSocket.OPEN) client.send(data.toString());
      });
      // The chain went away (stopped or crashed): its subscriptions are gone, so is this connection.
      socket.on("close", () => client.close(1011, "the chain's subscription channel closed"));
      return socket;
    })();
    return upstream;
  }

  client.on("message", (data: RawData) => {
    const text = data.toString();
    const parsed = parseJsonRpc(text);
    if ("response" in parsed) return send(parsed.response);
    const { requests, invalid } = parsed;
    if (!context.rate(path).allowed) {
      const limited = requests.map((r) => rpcError(r.id ?? null, -32005, "too many requests on this RPC URL: back off and retry"));
      return send(parsed.batch ? [...limited, ...invalid] : limited[0]);
    }
    const subscriptions = requests.filter((r) => r.method === "eth_subscribe" || r.method === "eth_unsubscribe");
    if (subscriptions.length > 0) {
      if (parsed.batch) {
        return send([
          ...requests.map((r) => rpcError(r.id ?? null, -32600, "eth_subscribe and eth_unsubscribe cannot be batched")),
          ...invalid,
        ]);
      }
      return subscribe(requests[0]);
    }
    // A message of calls the chain answers alone goes to it and back by callback when it can (as over HTTP).
    const raw = Buffer.isBuffer(data) ? data : Buffer.from(text);
    answerNow(context.engine, vnet.id, parsed, raw, text, access, deliver, () => void answerInTurn(parsed, text));
  });

  /** The general path: the engine's answer, or an error answer per call when the vnet was deleted meanwhile. */
  async function answerInTurn(parsed: Exclude<ParsedRpc, { response: unknown }>, text: string): Promise<void> {
    let answer: Buffer | string;
    try {
      answer = await answerParsed(context.engine, vnet.id, parsed, text, access);
    } catch (error) {
      // The vnet was deleted while this connection was open.
      const answers = [...parsed.requests.map((r) => rpcError(r.id ?? null, -32000, failure(error))), ...parsed.invalid];
      return send(parsed.batch ? answers : answers[0]);
    }
    deliver(answer);
  }

  /** The chain's bytes or our JSON text: a text frame either way. */
  function deliver(answer: Buffer | string): void {
    if (answer.length > 0 && client.readyState === WebSocket.OPEN) client.send(answer, { binary: false });
  }

  async function subscribe(request: JsonRpcRequest): Promise<void> {
    const kind = Array.isArray(request.params) ? request.params[0] : undefined;
    if (request.method === "eth_subscribe" && !SUBSCRIPTION_KINDS.has(String(kind))) {
      return send(
        rpcError(
          request.id ?? null,
          -32602,
          `unsupported subscription ${JSON.stringify(kind)}: use newHeads, logs or newPendingTransactions`,
        ),
      );
    }
    try {
      (await chainSocket()).send(JSON.stringify(request));
    } catch (error) {
      send(rpcError(request.id ?? null, -32000, failure(error)));
    }
  }
}

function failure(error: unknown): string {
  return error instanceof ChainRequestError ? error.message : "Internal error";
}

function rpcError(id: string | number | null, code: number, message: string): JsonRpcResponse {
  return { jsonrpc: "2.0", id, error: { code, message } };
}
