/**
 * The WebSocket RPC URLs of Virtual Environments (docs/service.md "RPC URLs"): the HTTP RPC URLs with a `ws://`
 * (`wss://` over TLS) scheme, listed as `Admin websocket RPC` and `Public websocket RPC`. A thin transport on `ws`:
 * the URL goes through the pipeline's route, resolve and rate steps once, at the upgrade (./pipeline.ts), and each
 * message through its rate, body and per-call steps, as an HTTP call does (the same allow-list, records, per-URL
 * rate limit, canonical text to the chain, read-only calls passed to the chain and back as bytes); `eth_subscribe` and
 * `eth_unsubscribe` go to the chain's own WebSocket (./subscriptions.ts).
 *
 * No client can hold more than its share (../caller-limits.ts): a client that does not read its answers is closed with
 * 1013 once a few MB wait for it, idle connections are pinged and the dead dropped, and an unexpected error in one
 * message becomes that message's error answer (logged with an error id), never the process's end.
 */
import { randomUUID } from "node:crypto";
import type { IncomingMessage, Server } from "node:http";
import type { Duplex } from "node:stream";
import WebSocket, { WebSocketServer, type RawData } from "ws";
import type { JsonRpcResponse } from "../chains";
import { ChainRequestError } from "../chains";
import { rawErrorAnswer } from "../errors/client-errors";
import { redactUrl } from "../log";
import type { RateDecision } from "../rate-limit";
import { answerCalls, answerNow, type RpcCalls } from "./answer";
import { readRpcBody, rpcError } from "./body";
import { readOnlyCalls } from "./hosted-hosts";
import type { RpcLimits } from "../caller-limits";
import { HOSTED_PATH_IN_LOGS, type HostedRouter } from "./http";
import { STOPPED_VNET, TOO_MANY_REQUESTS, UNKNOWN_RPC_URL, type RpcPipeline, type RpcTarget } from "./pipeline";
import type { RpcRoute } from "./route";
import { ConnectionSubscriptions, UrlSubscriptions } from "./subscriptions";

export { SUBSCRIPTION_KINDS } from "./subscriptions";

/** Largest WebSocket message: 1 MB, as the HTTP body limit. */
const MAX_MESSAGE_BYTES = 1024 * 1024;
/** Why a client that does not read its answers is closed (1013: try again later). */
export const UNREAD_REASON = "too many answers wait unread: read them, then connect again";

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
export function attachWebSocketRpc(server: Server, pipeline: RpcPipeline, log?: UpgradeLog, routeHosted?: HostedRouter): () => void {
  const sockets = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
  const perUrl = new UrlSubscriptions();
  const { limits } = pipeline;
  const upgrade = (request: IncomingMessage, socket: Duplex, head: Buffer, route: RpcRoute | null, hosted: boolean) => {
    const target = route ? pipeline.resolve(route) : undefined;
    const decision = pipeline.rate(target, request.socket.remoteAddress);
    const status = !decision.allowed ? 429 : !target ? 404 : 101;
    const url = hosted ? HOSTED_PATH_IN_LOGS : redactUrl(request.url ?? "");
    log?.info({ req: { method: request.method, url, remoteAddress: request.socket.remoteAddress }, status }, "websocket upgrade");
    if (status === 429) return refuse(socket, 429, TOO_MANY_REQUESTS, decision);
    if (!target) return refuse(socket, 404, UNKNOWN_RPC_URL, decision);
    if (pipeline.context.store.environments.isStopped(target.vnetId)) return refuse(socket, 400, STOPPED_VNET, decision);
    const readOnly = route?.kind === "rpc" && route.readOnly === true;
    sockets.handleUpgrade(request, socket, head, (client) => serve(client, target, pipeline, perUrl, readOnly));
  };
  const guarded = (request: IncomingMessage, socket: Duplex, head: Buffer, route: RpcRoute | null, hosted: boolean) => {
    try {
      upgrade(request, socket, head, route, hosted);
    } catch (failure) {
      // An error nothing expected ends this connection, logged with an error id, never the process.
      pipeline.internalError({}, failure);
      socket.destroy();
    }
  };
  server.on("upgrade", (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    // Under a hosted host name the host and path decide (./hosted-hosts.ts), as for HTTP calls.
    const hosted = routeHosted ? routeHosted(request.headers.host, request.url ?? "") : null;
    if (hosted instanceof Promise) {
      return void hosted.then(
        (route) => guarded(request, socket, head, route, true),
        (failure: unknown) => {
          pipeline.internalError({}, failure);
          socket.destroy();
        },
      );
    }
    guarded(request, socket, head, hosted ?? pipeline.route(request.url ?? ""), hosted !== null);
  });
  const heartbeat = setInterval(() => beat(sockets.clients), limits.heartbeatMs);
  heartbeat.unref();
  return () => {
    clearInterval(heartbeat);
    for (const client of sockets.clients) client.terminate();
    sockets.close();
  };
}

/** Clients that answered the last ping (or sent anything since). */
const alive = new WeakSet<WebSocket>();

/** Drops every client that has not answered the previous ping, and pings the others. */
function beat(clients: Iterable<WebSocket>): void {
  for (const client of clients) {
    if (!alive.has(client)) {
      client.terminate();
      continue;
    }
    alive.delete(client);
    client.ping();
  }
}

/** Answers an upgrade request with a plain HTTP error: the spec's body and rate headers. */
function refuse(socket: Duplex, status: 400 | 404 | 429, message: string, rate: RateDecision): void {
  socket.end(rawErrorAnswer(status, message, rate, status !== 429 ? { rid: "rid:vnet" } : undefined));
}

/** One client connection: calls go to the engine, subscriptions to the chain's WebSocket; reads only when `readOnly`. */
function serve(client: WebSocket, target: RpcTarget, pipeline: RpcPipeline, perUrl: UrlSubscriptions, readOnly = false): void {
  const { engine } = pipeline.context;
  const { vnetId, access } = target;
  const { limits } = pipeline;
  alive.add(client);
  client.on("pong", () => alive.add(client));
  /** Sends a text frame; a client with more than its share unread is closed instead (its answers are dropped). */
  const send = (answer: Buffer | string | object) => {
    if (client.readyState !== WebSocket.OPEN) return;
    const text = typeof answer === "string" || Buffer.isBuffer(answer) ? answer : JSON.stringify(answer);
    if (text.length === 0) return;
    client.send(text, { binary: false });
    if (client.bufferedAmount > limits.bufferedBytes) closeUnread(client, subscriptions, limits);
  };
  const subscriptions = new ConnectionSubscriptions({
    engine,
    vnetId,
    url: target.bucket,
    perUrl,
    perConnection: limits.subscriptionsPerConnection,
    perUrlCap: limits.subscriptionsPerUrl,
    send,
    close: (code, reason) => client.close(code, reason),
  });
  client.on("close", () => subscriptions.close());
  client.on("error", () => subscriptions.close());

  let answering = 0;
  /** Counts a message being answered (the connection is not read while too many are); returns its end, once. */
  const inFlight = () => {
    if (++answering === limits.messagesInFlight) client.pause();
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      if (answering-- === limits.messagesInFlight) client.resume();
    };
  };

  client.on("message", (data: RawData) => {
    alive.add(client);
    if (client.readyState !== WebSocket.OPEN) return;
    let calls: RpcCalls | null = null;
    try {
      const read = readRpcBody(Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data));
      const body = readOnly ? readOnlyCalls(read) : read;
      if ("response" in body) return send(body.response);
      calls = body;
      onCalls(body);
    } catch (error) {
      lastResort(calls, error);
    }
  });

  function onCalls(body: RpcCalls): void {
    const { requests, invalid } = body;
    if (!pipeline.rate(target, undefined).allowed) {
      const limited = requests.map((r) => rpcError(r.id ?? null, -32005, "too many requests on this RPC URL: back off and retry"));
      return send(body.batch ? [...limited, ...invalid] : limited[0]);
    }
    const subscribing = requests.filter((r) => r.method === "eth_subscribe" || r.method === "eth_unsubscribe");
    if (subscribing.length > 0) {
      if (body.batch) {
        return send([
          ...requests.map((r) => rpcError(r.id ?? null, -32600, "eth_subscribe and eth_unsubscribe cannot be batched")),
          ...invalid,
        ]);
      }
      return void subscriptions.handle(requests[0]).catch((error: unknown) => lastResort(body, error));
    }
    const filters = pipeline.filters.admit(target.bucket, body);
    const calls = filters?.calls ?? body;
    const finished = inFlight();
    const deliver = (answer: Buffer | string) => {
      finished();
      filters?.settle(answer);
      send(answer);
    };
    // A message of calls the chain answers alone goes to it and back by callback when it can (as over HTTP).
    answerNow(
      engine,
      vnetId,
      calls,
      access,
      deliver,
      () =>
        void answerInTurn(calls, deliver).catch((error: unknown) => {
          finished();
          lastResort(calls, error);
        }),
    );
  }

  /** The general path: the engine's answer, or an error answer per call when the vnet was deleted meanwhile. */
  async function answerInTurn(calls: RpcCalls, deliver: (answer: Buffer | string) => void): Promise<void> {
    let answer: Buffer | string;
    try {
      answer = await answerCalls(engine, vnetId, calls, access);
    } catch (error) {
      // The vnet was deleted while this connection was open.
      deliver("");
      const answers = [...calls.requests.map((r) => rpcError(r.id ?? null, -32000, failure(error))), ...calls.invalid];
      return send(calls.batch ? answers : answers[0]);
    }
    deliver(answer);
  }

  /** An error nothing expected: logged with an id, and answered to each call of the message as an internal error. */
  function lastResort(calls: RpcCalls | null, error: unknown): void {
    const errorId = randomUUID();
    pipeline.context.log?.error({ errorId, err: error, transport: "websocket" }, "RPC message failed");
    const message = `Internal error (error id ${errorId})`;
    const answers: JsonRpcResponse[] = calls
      ? calls.requests.filter((r) => r.id !== undefined).map((r) => rpcError(r.id!, -32603, message))
      : [];
    if (!calls) return send(rpcError(null, -32603, message));
    if (answers.length > 0) send(calls.batch ? answers : answers[0]);
  }
}

/** Closes a client that does not read: 1013, and its subscriptions ended at once (nothing more is queued for it). */
function closeUnread(client: WebSocket, subscriptions: ConnectionSubscriptions, limits: RpcLimits): void {
  subscriptions.close();
  client.close(1013, UNREAD_REASON);
  // The close frame waits behind what the client does not read: its socket goes when that frame could not leave.
  setTimeout(() => client.terminate(), Math.min(limits.heartbeatMs, 10_000)).unref();
}

function failure(error: unknown): string {
  return error instanceof ChainRequestError ? error.message : "Internal error";
}
