/**
 * The WebSocket RPC URLs of Virtual Environments (docs/service.md "RPC URLs"): the HTTP RPC URLs with a `ws://`
 * (`wss://` over TLS) scheme, listed as `Admin websocket RPC` and `Public websocket RPC`. A thin transport on `ws`:
 * the URL goes through the pipeline's route, resolve and rate steps once, at the upgrade (./pipeline.ts), and each
 * message through its rate, body and per-call steps, as an HTTP call does (the same allow-list, records, per-URL
 * rate limit, canonical text to the chain, read-only calls passed to the chain and back as bytes); `eth_subscribe` and
 * `eth_unsubscribe` go to the chain's own WebSocket, one upstream connection per client connection, and its
 * notifications come back as they are.
 */
import type { IncomingMessage, Server } from "node:http";
import type { Duplex } from "node:stream";
import WebSocket, { WebSocketServer, type RawData } from "ws";
import type { JsonRpcRequest, JsonRpcResponse } from "../chains";
import { ChainRequestError } from "../chains";
import { rawErrorAnswer } from "../client-errors";
import { redactUrl } from "../log";
import type { RateDecision } from "../rate-limit";
import { answerCalls, answerNow, type RpcCalls } from "./answer";
import { readRpcBody } from "./body";
import { TOO_MANY_REQUESTS, UNKNOWN_RPC_URL, type RpcPipeline, type RpcTarget } from "./pipeline";

/** Subscription kinds passed to the chain: new blocks, logs, pending transactions. */
export const SUBSCRIPTION_KINDS: ReadonlySet<string> = new Set(["newHeads", "logs", "newPendingTransactions"]);
/** Largest WebSocket message: 1 MB, as the HTTP body limit. */
const MAX_MESSAGE_BYTES = 1024 * 1024;

/** Where WebSocket upgrades are logged: one line each, at info, the URL's secret redacted. */
export interface UpgradeLog {
  info(details: object, message: string): void;
}

/**
 * Serves WebSocket upgrades of the RPC URLs on `server`; anything else that asks to upgrade gets the spec's 404
 * body. Every upgrade, accepted or refused, is a line of `log` (a connection is rare beside the calls it carries,
 * and what opened it matters when reading the log). Returns a function that closes every connection (on service
 * shutdown).
 */
export function attachWebSocketRpc(server: Server, pipeline: RpcPipeline, log?: UpgradeLog): () => void {
  const sockets = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
  server.on("upgrade", (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const route = pipeline.route(request.url ?? "");
    const target = route ? pipeline.resolve(route) : undefined;
    const decision = pipeline.rate(target, request.socket.remoteAddress);
    const status = !decision.allowed ? 429 : !target ? 404 : 101;
    log?.info(
      { req: { method: request.method, url: redactUrl(request.url ?? ""), remoteAddress: request.socket.remoteAddress }, status },
      "websocket upgrade",
    );
    if (status === 429) return refuse(socket, 429, TOO_MANY_REQUESTS, decision);
    if (!target) return refuse(socket, 404, UNKNOWN_RPC_URL, decision);
    sockets.handleUpgrade(request, socket, head, (client) => serve(client, target, pipeline));
  });
  return () => {
    for (const client of sockets.clients) client.terminate();
    sockets.close();
  };
}

/** Answers an upgrade request with a plain HTTP error: the spec's body and rate headers. */
function refuse(socket: Duplex, status: 404 | 429, message: string, rate: RateDecision): void {
  socket.end(rawErrorAnswer(status, message, rate, status === 404 ? { rid: "rid:vnet" } : undefined));
}

/** One client connection: calls go to the engine, subscriptions to the chain's WebSocket. */
function serve(client: WebSocket, target: RpcTarget, pipeline: RpcPipeline): void {
  const { engine } = pipeline.context;
  const { vnetId, access } = target;
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
      if (!engine.subscriptionChannel) throw new ChainRequestError(402, "no chain engine: subscriptions are not available");
      const channel = await engine.subscriptionChannel(vnetId);
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
    const body = readRpcBody(Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data));
    if ("response" in body) return send(body.response);
    const { requests, invalid } = body;
    if (!pipeline.rate(target, undefined).allowed) {
      const limited = requests.map((r) => rpcError(r.id ?? null, -32005, "too many requests on this RPC URL: back off and retry"));
      return send(body.batch ? [...limited, ...invalid] : limited[0]);
    }
    const subscriptions = requests.filter((r) => r.method === "eth_subscribe" || r.method === "eth_unsubscribe");
    if (subscriptions.length > 0) {
      if (body.batch) {
        return send([
          ...requests.map((r) => rpcError(r.id ?? null, -32600, "eth_subscribe and eth_unsubscribe cannot be batched")),
          ...invalid,
        ]);
      }
      return subscribe(requests[0]);
    }
    // A message of calls the chain answers alone goes to it and back by callback when it can (as over HTTP).
    answerNow(engine, vnetId, body, access, deliver, () => void answerInTurn(body));
  });

  /** The general path: the engine's answer, or an error answer per call when the vnet was deleted meanwhile. */
  async function answerInTurn(calls: RpcCalls): Promise<void> {
    let answer: Buffer | string;
    try {
      answer = await answerCalls(engine, vnetId, calls, access);
    } catch (error) {
      // The vnet was deleted while this connection was open.
      const answers = [...calls.requests.map((r) => rpcError(r.id ?? null, -32000, failure(error))), ...calls.invalid];
      return send(calls.batch ? answers : answers[0]);
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
      // The request as ./body.ts wrote it anew: never the caller's bytes.
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
