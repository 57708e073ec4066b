/**
 * The RPC URLs' data plane as one pipeline of decisions (docs/service.md "RPC URLs"), which every transport calls
 * (./http.ts: Node's HTTP server, plain and TLS; ./websocket.ts: `ws`). A call goes through these steps, in order:
 *
 * 1. route (./route.ts): the request's path decoded and split; a path under `/rpc/` that names no RPC URL is the
 *    spec's 404.
 * 2. resolve (`RpcPipeline.resolve`): an Admin RPC secret to its vnet, a Public RPC vnet id checked. Only URLs of
 *    existing vnets are remembered, so a made-up key leaves nothing behind.
 * 3. rate (`RpcPipeline.rate`): an existing vnet's URL counts in its own window (`--rpc-rate-limit`); anything else
 *    under `/rpc/` counts in the caller's address's window, as the API's anonymous requests do.
 * 4. body (./body.ts): the size limit, UTF-8 JSON, requests written anew as the only text a chain gets.
 * 5. per call (./answer.ts, chains/calls/rpc-proxy.ts): the Public RPC's refusals, pass-through or recorded.
 * 6. the answer's head and the spec's error bodies (`RpcPipeline.head`, `errorReply`), built here once.
 */
import type { ChainEngine, RpcAccess } from "../chains";
import { corsHeaders } from "../cors";
import { errorBody, type ErrorData } from "../errors";
import type { RateDecision, RateLimitSettings, SlidingWindowLimiter } from "../rate-limit";
import type { Store } from "../store";
import { answerCalls, answerNow, isUnknownVnet, type RpcCalls } from "./answer";
import { readRpcBody } from "./body";
import { readOnlyCalls } from "./hosted-hosts";
import { FilterLedger } from "./filters";
import { rpcLimits, type RpcLimits } from "../caller-limits";
import { routeRpc, type RpcRoute } from "./route";

/** The message of an unknown RPC URL's 404 (never the URL itself: an Admin RPC URL is a secret). */
export const UNKNOWN_RPC_URL = "no Virtual Environment has this RPC URL";
/** The message of a call to a stopped vnet's RPC URL (docs/hosted-clients.md "A stopped vnet"). */
export const STOPPED_VNET =
  'this Virtual TestNet is stopped: its chain and data are kept, and its RPC URLs answer again once it runs (PATCH .../vnets/{id} {"status": "running"})';
/** The message of a 429 on an RPC URL. */
export const TOO_MANY_REQUESTS = "too many requests: back off until X-Svc-Reset-Timestamp";

/** What the data plane needs from the service: the store, the engine, the rate limiter it shares with the API. */
export interface RpcPlaneContext {
  readonly store: Store;
  readonly engine: ChainEngine;
  /** The service's one limiter: the API's anonymous requests and unknown RPC URLs count in the same windows. */
  readonly limiter: SlidingWindowLimiter;
  readonly limits: RateLimitSettings;
  /** Largest body; a larger one gets the spec's 400. */
  readonly bodyLimit: number;
  /** The service's log: every 5xx goes there with its error id. */
  readonly log?: { error(details: object, message: string): void };
  /** What one caller may hold (../caller-limits.ts); the defaults unless a test lowers them. */
  readonly rpcLimits?: Partial<RpcLimits>;
}

/** An RPC URL's vnet, as step 2 found it. */
export interface RpcTarget {
  readonly vnetId: string;
  readonly access: RpcAccess;
  /** The URL's window: one per existing vnet's URL. */
  readonly bucket: string;
}

/** An answer, whichever transport sends it: its status, headers (without Content-Length) and body. */
export interface RpcReply {
  /** 204 (no body) when there is nothing to answer: notifications only, as anvil's HTTP port answers them. */
  readonly status: 200 | 204 | 400 | 404 | 429 | 500;
  readonly headers: Record<string, string | number>;
  readonly body: Buffer | string;
  /** The connection must close after it (the rest of an oversized body is not read). */
  readonly close?: boolean;
}

/** Targets remembered at the most (spellings of existing vnets' URLs: one each, unless a caller varies the query). */
const MOST_ROUTES = 1024;

/** The pipeline's state: the Admin secrets and Public ids of existing vnets seen, and their targets, nothing else. */
export class RpcPipeline {
  /** `admin:{secret}` and `public:{id}` of existing vnets seen, to their vnet (at most one entry per URL of a vnet). */
  private readonly known = new Map<string, RpcTarget>();
  /** Targets (any spelling, with a query) of the URLs in `known`, to their route. */
  private readonly routes = new Map<string, RpcRoute | null>();
  /** Whether the engine itself refuses a deleted vnet (404): only then may a URL be resolved from memory. */
  private readonly engineKnowsVnets: boolean;
  /** What one caller may hold. */
  readonly limits: RpcLimits;
  /** The live filters of each URL. */
  readonly filters: FilterLedger;

  constructor(readonly context: RpcPlaneContext) {
    this.limits = rpcLimits(context.rpcLimits);
    this.filters = new FilterLedger(this.limits.filtersPerUrl);
    this.engineKnowsVnets = typeof context.engine.rpcNow === "function";
    context.engine.onVnetsDestroyed?.((vnetIds) => this.forgetVnets(vnetIds));
  }

  /** Step 1: what a request target names (null: not under `/rpc/`, the API's). */
  route(target: string): RpcRoute | null {
    // A suite calls one or two URLs over and over: the target of an existing vnet's URL is decoded and split once.
    const remembered = this.routes.get(target);
    if (remembered !== undefined) return remembered;
    const route = routeRpc(target);
    if (route?.kind === "rpc" && this.known.has(`${route.access}:${route.key}`) && this.routes.size < MOST_ROUTES) {
      this.routes.set(target, route);
    }
    return route;
  }

  /** Step 2: the vnet an RPC URL names, or undefined when none exists. */
  resolve(route: RpcRoute): RpcTarget | undefined {
    if (route.kind !== "rpc") return undefined;
    const name = `${route.access}:${route.key}`;
    const remembered = this.engineKnowsVnets ? this.known.get(name) : undefined;
    if (remembered) return remembered;
    const { environments } = this.context.store;
    const vnet = route.access === "admin" ? environments.vnetBySecret(route.key) : environments.vnet(route.key);
    if (!vnet) return undefined;
    // Each URL of a vnet has its own window, shared by its HTTP calls and WebSocket messages.
    const known: RpcTarget = { vnetId: vnet.id, access: route.access, bucket: `rpc:${route.access}:${vnet.id}` };
    this.known.set(name, known);
    return known;
  }

  /** Forgets a URL whose vnet the engine says is gone. */
  forget(route: RpcRoute): void {
    if (route.kind !== "rpc") return;
    this.known.delete(`${route.access}:${route.key}`);
    this.routes.clear(); // rare: a vnet deleted
  }

  /** Forgets every URL of these vnets (they are being deleted): no secret of a deleted vnet stays in memory. */
  forgetVnets(vnetIds: readonly string[]): void {
    const gone = new Set(vnetIds);
    for (const [name, target] of this.known) if (gone.has(target.vnetId)) this.known.delete(name);
    for (const vnetId of vnetIds) for (const access of ["admin", "public"]) this.filters.forget(`rpc:${access}:${vnetId}`);
    this.routes.clear();
  }

  /** The vnets whose URLs are remembered (for tests: a deleted one is never among them). */
  rememberedVnets(): ReadonlySet<string> {
    return new Set([...this.known.values()].map((target) => target.vnetId));
  }

  /**
   * Step 3: counts a call (`count: false`: a CORS preflight, reported and never counted): in the URL's window for an
   * existing vnet, in the caller's address's anonymous window for anything else.
   */
  rate(target: RpcTarget | undefined, address: string | undefined, count = true): RateDecision {
    const { limiter, limits } = this.context;
    if (target) return limiter.take(target.bucket, limits.rpcLimit, limits.rpcLimit, count);
    return limiter.take(`ip:${address ?? "unknown"}`, limits.unauthenticatedLimit, limits.burstLimit, count);
  }

  /** Step 6: the head of every answer on an RPC URL: JSON, the rate headers, the CORS headers for an `Origin`. */
  head(rate: RateDecision, origin: string | undefined): Record<string, string | number> {
    const headers: Record<string, string | number> = {
      "content-type": "application/json; charset=utf-8",
      "x-svc-limit": rate.limit,
      "x-svc-remaining": rate.remaining,
      "x-svc-reset-timestamp": rate.resetTimestamp,
    };
    if (origin !== undefined) Object.assign(headers, corsHeaders(origin));
    return headers;
  }

  /**
   * Steps 2 to 6 for a POST on an RPC URL route whose body is read (`null`: larger than the limit). `done` gets the
   * answer, once; an error nothing expected is answered as the spec's 500 with an error id, and logged. A call that
   * passes through and whose chain, lock and socket are free goes to the chain and back with no promise
   * (`ChainEngine.rpcNow`).
   */
  answer(
    route: RpcRoute,
    address: string | undefined,
    origin: string | undefined,
    body: Buffer | null,
    done: (reply: RpcReply) => void,
  ): void {
    let answered = false;
    const once = (reply: RpcReply) => {
      if (answered) return;
      answered = true;
      done(reply);
    };
    let headers: RpcReply["headers"] = {};
    try {
      const target = this.resolve(route);
      const rate = this.rate(target, address);
      headers = this.head(rate, origin);
      this.decide(route, target, rate, body, headers, once);
    } catch (failure) {
      once(this.internalError(headers, failure));
    }
  }

  /** Steps 3 to 6 of `answer`. */
  private decide(
    route: RpcRoute,
    target: RpcTarget | undefined,
    rate: RateDecision,
    body: Buffer | null,
    headers: RpcReply["headers"],
    done: (reply: RpcReply) => void,
  ): void {
    if (!rate.allowed) return done(errorReply(429, headers, TOO_MANY_REQUESTS));
    if (body === null) return done(errorReply(400, headers, `request body larger than ${this.context.bodyLimit} bytes`));
    if (!target) return done(errorReply(404, headers, UNKNOWN_RPC_URL, { rid: "rid:vnet" }));
    if (this.context.store.environments.isStopped(target.vnetId)) return done(errorReply(400, headers, STOPPED_VNET, { rid: "rid:vnet" }));
    const read = route.kind === "rpc" && route.readOnly ? readOnlyCalls(readRpcBody(body)) : readRpcBody(body);
    if ("response" in read) return done({ status: 200, headers, body: JSON.stringify(read.response) });
    if (read.requests.length === 0 && !this.exists(target)) {
      // Nothing for the engine to run, so nothing tells whether the vnet still exists: ask the store.
      this.forget(route);
      return done(errorReply(404, headers, UNKNOWN_RPC_URL, { rid: "rid:vnet" }));
    }
    const filters = this.filters.admit(target.bucket, read);
    const calls = filters?.calls ?? read;
    answerNow(
      this.context.engine,
      target.vnetId,
      calls,
      target.access,
      (answer) => {
        filters?.settle(answer);
        done({ status: 200, headers, body: answer });
      },
      () =>
        void this.run(route, target, calls, headers).then(
          (reply) => {
            if (filters && reply.status === 200) filters.settle(reply.body);
            done(reply);
          },
          (failure: unknown) => done(this.internalError(headers, failure)),
        ),
    );
  }

  /** The spec's 500 for an error nothing expected, logged with its error id (the log scrubs secrets). */
  internalError(headers: RpcReply["headers"], failure: unknown): RpcReply {
    const body = errorBody(500, "internal server error: quote the error id when reporting it");
    this.context.log?.error({ errorId: body.error.id, status: 500, err: failure }, "RPC call failed");
    return { status: 500, headers, body: JSON.stringify(body) };
  }

  /** The general path: the engine's answer, the spec's 404 for a vnet it says is gone, a 500 for its failures. */
  private async run(route: RpcRoute, target: RpcTarget, calls: RpcCalls, headers: RpcReply["headers"]): Promise<RpcReply> {
    try {
      const body = await answerCalls(this.context.engine, target.vnetId, calls, target.access);
      if (body.length > 0) return { status: 200, headers, body };
      delete headers["content-type"];
      return { status: 204, headers, body };
    } catch (failure) {
      if (!isUnknownVnet(failure)) return this.internalError(headers, failure);
      this.forget(route);
      return errorReply(404, headers, UNKNOWN_RPC_URL, { rid: "rid:vnet" });
    }
  }

  private exists(target: RpcTarget): boolean {
    return this.context.store.environments.vnet(target.vnetId) !== undefined;
  }
}

/** Step 6: an answer with the spec's error body. */
export function errorReply(status: 400 | 404 | 429 | 500, headers: RpcReply["headers"], message: string, data?: ErrorData): RpcReply {
  return { status, headers, body: JSON.stringify(errorBody(status, message, data)) };
}
