/**
 * The HTTP RPC URLs served before Fastify routes a request. A test suite makes tens of thousands of calls a minute
 * through an RPC URL, each a few bytes to the chain and back, so what a call costs on top of the chain's own time
 * is the service's HTTP machinery: Fastify's routing, hooks, body parsing and reply serialization took most of it
 * (docs/performance.md "RPC URLs"). `HttpRpc.reply` answers a `POST /rpc/admin/{secret}` or
 * `POST /rpc/public/{vnetId}`: counted in its URL's rate limit and answered by ./answer.ts, with what Fastify would
 * have sent (the `X-Svc-*` headers, the CORS headers, the spec's error bodies for 404, 429 and an oversized body).
 * The calls reach it straight off the connection on plain HTTP (./http-connections.ts), and here, from Node's HTTP
 * server ahead of Fastify, over TLS and on connections handed to Node's server. Anything else (other methods, other
 * paths, percent-encoded or over-long keys) goes on to Fastify as before.
 *
 * An Admin RPC URL's secret is resolved from memory once seen. A deleted vnet is known by the engine at once
 * (`destroyVnets`), so a remembered URL of a deleted vnet answers 404 and is forgotten.
 */
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { ChainEngine, RpcAccess } from "../../chains/types";
import { corsHeaders } from "../../cors";
import { errorBody, type ErrorData } from "../../errors";
import type { RateDecision } from "../../rate-limit";
import type { Store } from "../../store";
import { answerNow, answerParsed, isUnknownVnet, parseJsonRpc, type ParsedRpc } from "./answer";
import { UNKNOWN_RPC_URL } from ".";

/** What the HTTP RPC needs from the service. */
export interface HttpRpcContext {
  readonly store: Store;
  readonly engine: ChainEngine;
  /** Counts one call on an RPC URL path (`/rpc/public/{id}`), as Fastify's rate hook does. */
  readonly rate: (path: string) => RateDecision;
  /** Largest body; a larger one gets the spec's 400, as Fastify's body limit gives. */
  readonly bodyLimit: number;
  /** The service's log: every 5xx goes there with its error id, as Fastify's error handler does. */
  readonly log?: { error(details: object, message: string): void };
}

/** The RPC paths served here: the key as Fastify's router would take it (no `%`, at most its 500-character parameter). */
export const RPC_PATH = /^\/rpc\/(admin|public)\/([^/%]{1,500})$/;

type Listener = (request: IncomingMessage, response: ServerResponse) => void;

/** An RPC URL's answer, whichever way it is sent: its status, headers (without Content-Length) and body. */
export interface RpcReply {
  readonly status: 200 | 400 | 404 | 429 | 500;
  readonly headers: Record<string, string | number>;
  readonly body: Buffer | string;
  /** The connection must close after it (the rest of an oversized body is not read). */
  readonly close?: boolean;
  /** A single call that passed through: the chain answered it alone (the native hop may take the connection). */
  readonly passedThrough?: { readonly vnetId: string; readonly method: string };
}

/**
 * Serves the HTTP RPC URLs on `server` ahead of the request listeners it has (Fastify's). Returns a function that
 * hands every request back to them (on close, so that Fastify answers what comes in while it closes).
 */
export function serveRpcFirst(server: Server, rpc: HttpRpc): () => void {
  const listeners = server.listeners("request") as Listener[];
  server.removeAllListeners("request");
  let active = true;
  server.on("request", (request: IncomingMessage, response: ServerResponse) => {
    if (active && request.method === "POST" && serveRequest(rpc, request, response)) return;
    for (const listener of listeners) listener.call(server, request, response);
  });
  return () => {
    active = false;
  };
}

/** Serves an RPC URL request that came through Node's HTTP server; false when it is not one (Fastify's, then). */
function serveRequest(rpc: HttpRpc, request: IncomingMessage, response: ServerResponse): boolean {
  const url = request.url ?? "";
  const query = url.indexOf("?");
  const path = query < 0 ? url : url.slice(0, query);
  const match = RPC_PATH.exec(path);
  if (!match) return false;
  const origin = request.headers.origin;
  const declared = Number(request.headers["content-length"]);
  const body = declared > rpc.bodyLimit ? Promise.resolve(null) : readBody(request, rpc.bodyLimit);
  body
    .then((bytes) => rpc.reply(path, match[1] as RpcAccess, match[2], origin, bytes))
    .then((reply) => send(response, reply))
    // The caller went away mid-body: nothing to answer.
    .catch(() => response.destroy());
  return true;
}

/** Answers the RPC URLs' calls: the rate limit, the URL's vnet, the engine's answer, the spec's error bodies. */
export class HttpRpc {
  /** Admin RPC secrets seen, and their vnet. */
  private readonly secrets = new Map<string, string>();
  /** Whether the engine itself refuses a deleted vnet (404): only then may a URL be resolved from memory. */
  private readonly engineKnowsVnets: boolean;

  constructor(private readonly context: HttpRpcContext) {
    this.engineKnowsVnets = typeof context.engine.rpcBytes === "function";
  }

  /** Largest body; a larger one gets the spec's 400. */
  get bodyLimit(): number {
    return this.context.bodyLimit;
  }

  /**
   * The answer to a call on `path` (`/rpc/{access}/{key}`) with `body`, or null when the body is larger than the
   * limit. The call counts in the URL's rate limit first, as Fastify's rate hook counts it before the body is read.
   */
  reply(path: string, access: RpcAccess, key: string, origin: string | undefined, body: Buffer | null): Promise<RpcReply> {
    return new Promise((resolve, reject) => this.answer(path, access, key, origin, body, resolve, reject));
  }

  /**
   * `reply` with callbacks: `done` gets the answer; `fail` an error nothing answers. A call the chain answers alone
   * whose chain, lock and socket are free goes to the chain and back with no promise (`ChainEngine.rpcBytesNow`): at
   * tens of thousands of calls a second, the promises and microtask turns of the general path cost more than the
   * chain's own read and write. `counted`: the call already counts in its URL's window (the native hop counted it,
   * then handed it back), with that decision.
   */
  answer(
    path: string,
    access: RpcAccess,
    key: string,
    origin: string | undefined,
    body: Buffer | null,
    done: (reply: RpcReply) => void,
    fail: (error: unknown) => void,
    counted?: RateDecision | null,
  ): void {
    const rate = counted ?? this.context.rate(path);
    const headers: Record<string, string | number> = {
      "content-type": "application/json; charset=utf-8",
      "x-svc-limit": rate.limit,
      "x-svc-remaining": rate.remaining,
      "x-svc-reset-timestamp": rate.resetTimestamp,
    };
    if (origin !== undefined) Object.assign(headers, corsHeaders(origin));
    if (!rate.allowed) return done({ status: 429, headers, body: error(429, "too many requests: back off until X-Svc-Reset-Timestamp") });
    if (body === null) {
      headers.connection = "close"; // the rest of the body is not read, as Fastify does
      return done({ status: 400, headers, body: error(400, `request body larger than ${this.context.bodyLimit} bytes`), close: true });
    }
    const vnetId = this.vnetOf(access, key);
    if (vnetId === undefined) return done(notFound(headers));
    const text = body.toString();
    const parsed = parseJsonRpc(text);
    // Nothing for the engine to run, so nothing tells whether the vnet still exists: ask the store.
    if (("response" in parsed || parsed.requests.length === 0) && !this.exists(access, key)) return done(notFound(headers));
    answerNow(
      this.context.engine,
      vnetId,
      parsed,
      body,
      text,
      access,
      (answer) =>
        done({
          status: 200,
          headers,
          body: answer,
          passedThrough: "requests" in parsed && !parsed.batch ? { vnetId, method: parsed.requests[0].method } : undefined,
        }),
      () => void this.run(vnetId, parsed, body, access, key, headers).then(done, fail),
    );
  }

  /** The general path: the engine's answer, the spec's 404 for a vnet it says is gone, a 500 for its failures. */
  private async run(
    vnetId: string,
    parsed: ParsedRpc,
    body: Buffer,
    access: RpcAccess,
    key: string,
    headers: RpcReply["headers"],
  ): Promise<RpcReply> {
    try {
      return { status: 200, headers, body: await answerParsed(this.context.engine, vnetId, parsed, body, access) };
    } catch (failure) {
      if (!isUnknownVnet(failure)) {
        const body = errorBody(500, "internal server error: quote the error id when reporting it");
        this.context.log?.error({ errorId: body.error.id, status: 500, err: failure }, "RPC call failed");
        return { status: 500, headers, body: JSON.stringify(body) };
      }
      this.secrets.delete(key);
      return notFound(headers);
    }
  }

  /** The vnet an RPC URL names, from memory where the engine will refuse a deleted one; undefined when unknown. */
  private vnetOf(access: RpcAccess, key: string): string | undefined {
    const { environments } = this.context.store;
    if (!this.engineKnowsVnets) return (access === "admin" ? environments.vnetBySecret(key) : environments.vnet(key))?.id;
    if (access === "public") return key;
    let vnetId = this.secrets.get(key);
    if (vnetId === undefined) {
      vnetId = environments.vnetBySecret(key)?.id;
      if (vnetId !== undefined) this.secrets.set(key, vnetId);
    }
    return vnetId;
  }

  private exists(access: RpcAccess, key: string): boolean {
    const { environments } = this.context.store;
    return (access === "admin" ? environments.vnetBySecret(key) : environments.vnet(key)) !== undefined;
  }
}

/** The body, or null when it is larger than `limit` (the rest is not read). */
function readBody(request: IncomingMessage, limit: number): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        request.removeAllListeners("data");
        request.pause();
        resolve(null);
      } else chunks.push(chunk);
    });
    request.on("end", () => resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size)));
    request.on("error", reject);
  });
}

function send(response: ServerResponse, reply: RpcReply): void {
  if (response.headersSent || response.destroyed) return;
  const { headers, body } = reply;
  headers["content-length"] = typeof body === "string" ? Buffer.byteLength(body) : body.length;
  response.writeHead(reply.status, headers);
  response.end(body);
}

function notFound(headers: RpcReply["headers"]): RpcReply {
  return { status: 404, headers, body: error(404, UNKNOWN_RPC_URL, { rid: "rid:vnet" }) };
}

function error(status: 400 | 404 | 429 | 500, message: string, data?: ErrorData): string {
  return JSON.stringify(errorBody(status, message, data));
}
