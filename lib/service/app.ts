/**
 * The local service as a Fastify app: every endpoint of the spec over one store, behind authentication, rate
 * limiting and CORS, with one error handler. `listen.ts` only listens; tests build the app with `buildApp`
 * and use `inject` or a real port.
 */
import { isValidChecksumAddress } from "../domain/address";
import { ADDRESS_FORMAT } from "../api/common";
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from "fastify";
import { ChainRequestError, type ChainEngine, type ChainHost } from "./chains/types";
import { Authenticator, type Requester } from "./auth";
import type { Socket } from "node:net";
import { Server as TlsServer } from "node:tls";
import { answerClientError } from "./client-errors";
import { addCorsHeaders } from "./cors";
import { diskFullMessage, errorBody, forbidden, isDiskFull, knownStatus, ServiceError, unauthorized, type ErrorData } from "./errors";
import { createAnvilEngine } from "./chains";
import { chainsDirOf, removeOrphanedStates } from "./chains/state-files";
import { loggerOptions, redactUrl, type LogSettings } from "./log";
import { DEFAULT_RATE_LIMITS, SlidingWindowLimiter, type RateDecision, type RateLimitSettings } from "./rate-limit";
import { applySeed, DEFAULT_SEED, type Seed } from "./seed";
import { Store } from "./store";
import { validatorCompiler } from "./validation";
import { registerRoutes } from "./routes";
import { registerWeb } from "../web";
import { serviceForWeb } from "./web-interface";
import { attachWebSocketRpc } from "./routes/rpc/websocket";
import { HttpRpc, serveRpcFirst } from "./routes/rpc/http";
import { serveRpcConnections } from "./routes/rpc/http-connections";
import { loadNativeHop, NativeHop } from "./routes/rpc/native-hop";

/** Largest request body: 1 MB. Larger bodies get the spec's 400 body. */
export const BODY_LIMIT_BYTES = 1024 * 1024;

/** Options of the service app. Everything is optional: the default is an in-memory service with the default seed. */
export interface ServiceOptions {
  /** Data dir for the database; null or absent keeps everything in memory. Ignored when `store` is given. */
  readonly dataDir?: string | null;
  /** An open store to use (the app closes it on close). */
  readonly store?: Store;
  /** The seed a fresh store starts with. Default: `default-seed.json`. */
  readonly seed?: Seed;
  /** Fixes the first seeded user's access key (`CHAINFORM_ACCESS_KEY`); otherwise one is generated at first start. */
  readonly accessKey?: string;
  /** Rate limits; the spec's by default. */
  readonly rateLimits?: Partial<RateLimitSettings>;
  /** Builds the chain engine; default: anvil chains (`createAnvilEngine`). `NoChainEngine` answers 402 instead. */
  readonly createChainEngine?: (host: ChainHost) => ChainEngine;
  /** At most this many chains run at once (`serve --max-chains`); default `DEFAULT_MAX_RUNNING_CHAINS` (64). */
  readonly maxChains?: number;
  /** The deadline of every call to a chain, in ms (`serve --rpc-timeout SECONDS`); default 30000 (docs/chain-state.md). */
  readonly rpcTimeoutMs?: number;
  /** Upstream RPC URLs to fork from, by network id (for the chain engine). */
  readonly forkUrls?: Readonly<Record<string, string>>;
  /** Where recordings of upstream answers are kept (`--fork-cache`); default `<dataDir>/fork-cache`. */
  readonly forkCacheDir?: string | null;
  /** Serve forks from recordings only (`--offline`). */
  readonly offline?: boolean;
  /** Base URL the RPC URLs are built on; default: the request's own scheme and host. `listen.ts` sets it. */
  readonly baseUrl?: string;
  /**
   * The structured log (./log.ts): off by default; `true` logs at info to stderr; settings choose the level and a
   * file. Secrets are always scrubbed.
   */
  readonly logger?: boolean | LogSettings;
  /** Serve HTTPS with this PEM key and certificate (`--tls`); plain HTTP otherwise. */
  readonly https?: { readonly key: string; readonly cert: string };
  /**
   * Whether plain-HTTP RPC connections may be handed to the native hop (routes/rpc/native-hop.ts) where it is built
   * and loads. Default true; `CHAINFORM_NATIVE_RPC=off` turns it off for the process. Tests run the RPC URLs both ways.
   */
  readonly nativeRpc?: boolean;
}

/** What routes reach through `app.service`. */
export interface ServiceContext {
  readonly store: Store;
  readonly engine: ChainEngine;
  /** The base URL RPC URLs are built on; settable once the server knows its address. */
  baseUrl: string | undefined;
}

declare module "fastify" {
  interface FastifyInstance {
    service: ServiceContext;
    /** The RPC URLs' native hop, where it runs (tests and benchmarks look at what it did). */
    nativeHop: NativeHop | null;
  }
  interface FastifyRequest {
    /** The authenticated user; null on public routes called without credentials. */
    requester: Requester | null;
  }
  interface FastifyContextConfig {
    /** The route needs no credentials (supported networks, RPC URLs). */
    public?: boolean;
    /** The route is an RPC URL: its own rate limit, counted per URL. */
    rpc?: boolean;
  }
}

export { redactUrl } from "./log";

/**
 * Builds the service app (not listening).
 *
 * @example
 * const app = await buildApp({ rateLimits: { rateLimit: 5 } });
 * const response = await app.inject({ url: "/v1/supported-networks" });
 */
export async function buildApp(options: ServiceOptions = {}): Promise<FastifyInstance> {
  const store = options.store ?? openStore(options);
  prepareStore(store, options);
  const rateLimits = { ...DEFAULT_RATE_LIMITS, ...options.rateLimits };
  const logSettings = options.logger === true ? {} : options.logger || undefined;
  const authenticator = new Authenticator(store.accounts, store.secret("jwt_secret"));
  const limiter = new SlidingWindowLimiter(rateLimits.windowMs);

  const app = Fastify({
    ...(options.https && { https: options.https }),
    logger: logSettings
      ? loggerOptions({ ...logSettings, secrets: [...(logSettings.secrets ?? []), ...Object.values(store.forkUrls)] })
      : false,
    bodyLimit: BODY_LIMIT_BYTES,
    // Response schemas with anyOf are checked by the serializer's Ajv, which must know the address format.
    serializerOpts: { ajv: { formats: { [ADDRESS_FORMAT]: isValidChecksumAddress } } },
    routerOptions: { maxParamLength: 500 },
    clientErrorHandler: (error: Error & { code?: string }, socket: Socket) =>
      answerClientError(error, socket, (address) => limiter.take(`ip:${address}`, rateLimits.unauthenticatedLimit, rateLimits.burstLimit)),
    frameworkErrors: (error, request, reply) => {
      if (!gate(request, reply)) return;
      sendError(reply, 400, error.message);
    },
  } as FastifyServerOptions) as unknown as FastifyInstance;
  const chainLog = app.log.child({ component: "chains" });
  // State files of environments deleted while the service died (kill -9 during a delete) are removed before any chain starts.
  if (store.dataDir !== null) {
    const removed = removeOrphanedStates(chainsDirOf(store.dataDir), (vnetId) => store.environments.vnet(vnetId) !== undefined);
    if (removed.length > 0) chainLog.info({ removed: removed.length }, "removed the state files of deleted environments");
  }
  const context: ServiceContext = {
    store,
    engine: (
      options.createChainEngine ??
      ((host) => createAnvilEngine(host, { log: chainLog, maxRunningChains: options.maxChains, rpcTimeoutMs: options.rpcTimeoutMs }))
    )(store),
    baseUrl: options.baseUrl,
  };
  app.decorate("service", context);
  app.decorateRequest("requester", null);
  app.setValidatorCompiler(validatorCompiler);
  acceptEmptyJsonBodies(app);

  /** Counts the request, sets CORS and rate headers; false when it has been answered (429). */
  function gate(request: FastifyRequest, reply: FastifyReply): Authentication | undefined {
    addCorsHeaders(request, reply);
    const authentication = authenticator.authenticate(request.headers);
    const decision = takeRate(request, authentication);
    reply.headers({
      "x-svc-limit": decision.limit,
      "x-svc-remaining": decision.remaining,
      "x-svc-reset-timestamp": decision.resetTimestamp,
    });
    if (decision.allowed) return authentication;
    sendError(reply, 429, "too many requests: back off until X-Svc-Reset-Timestamp");
    return undefined;
  }

  /** Counts the request in its bucket; CORS preflights are never counted and never refused (docs/service.md). */
  function takeRate(request: FastifyRequest, authentication: Authentication): RateDecision {
    const count = request.method !== "OPTIONS";
    if (request.routeOptions.config?.rpc) return rpcRate(request.url.split("?")[0], count);
    if (authentication.kind === "authenticated") {
      return limiter.take(authentication.requester.rateKey, rateLimits.rateLimit, rateLimits.burstLimit, count);
    }
    return limiter.take(`ip:${request.ip}`, rateLimits.unauthenticatedLimit, rateLimits.burstLimit, count);
  }

  app.addHook("onRequest", async (request, reply) => {
    const authentication = gate(request, reply);
    if (!authentication) return reply;
    if (request.method === "OPTIONS") return reply.code(204).send();
    if (request.is404 || request.routeOptions.config?.public) {
      if (authentication.kind === "authenticated") request.requester = authentication.requester;
      return;
    }
    if (authentication.kind === "anonymous") throw unauthorized("missing credentials: send X-Access-Key, Basic or Bearer");
    if (authentication.kind === "invalid") throw unauthorized(authentication.reason);
    const requester = authentication.requester;
    if (requester.readOnly && request.method !== "GET" && request.method !== "HEAD") {
      throw forbidden("this access key is read-only");
    }
    request.requester = requester;
  });

  app.setErrorHandler((error, request, reply) => {
    const { status, message, data } = classify(error);
    const body = errorBody(status, message, data);
    if (status >= 500) {
      loggedErrors.add(request);
      request.log.error({ errorId: body.error.id, status, err: error }, "request failed");
    }
    reply.code(status).send(body);
  });
  // Every 5xx is in the log with its error id, also those answered without passing the error handler.
  const loggedErrors = new WeakSet<FastifyRequest>();
  app.addHook("onSend", async (request, reply, payload) => {
    if (reply.statusCode >= 500 && !loggedErrors.has(request) && typeof payload === "string") {
      request.log.error({ errorId: errorIdIn(payload), status: reply.statusCode }, "request failed");
    }
    return payload;
  });
  app.setNotFoundHandler((request, reply) => {
    sendError(reply, 404, `no route ${request.method} ${redactUrl(request.url.split("?")[0])}`);
  });

  await app.register(registerRoutes);
  // RPC calls are answered before Fastify routes them (routes/rpc/http.ts): a test suite makes thousands a second.
  // Only `--log-level debug` or `trace` sends them through Fastify, so that each call is a line of the log.
  const logsEveryRpcCall = logSettings !== undefined && ["debug", "trace"].includes(logSettings.level ?? "info");
  const plainHttp = !(app.server instanceof TlsServer);
  // On plain HTTP, connections whose calls pass through go to the native hop where it is built (routes/rpc/native-hop.ts).
  const addon = plainHttp && !logsEveryRpcCall && options.nativeRpc !== false ? loadNativeHop() : null;
  // The native hop, where it runs: every RPC URL's calls then count in its windows.
  const hop =
    addon &&
    new NativeHop(
      addon,
      {
        keepAliveMs: app.server.keepAliveTimeout,
        bodyLimit: BODY_LIMIT_BYTES,
        windowMs: rateLimits.windowMs,
        rpcLimit: rateLimits.rpcLimit,
      },
      context.engine,
    );
  app.decorate("nativeHop", hop);
  // The bucket key of the last path is kept: calls come on one URL after another, and a key made afresh is hashed afresh.
  let lastRpcPath = "";
  let lastRpcBucket = "";
  /** Counts one call on an RPC URL's path (`count: false` for CORS preflights: reported, not counted). */
  const rpcRate = (path: string, count = true): RateDecision => {
    if (hop !== null) return hop.take(path, count);
    if (path !== lastRpcPath) [lastRpcPath, lastRpcBucket] = [path, `rpc:${path}`];
    return limiter.take(lastRpcBucket, rateLimits.rpcLimit, rateLimits.rpcLimit, count);
  };
  const closeWebSockets = attachWebSocketRpc(app.server, { store, engine: context.engine, rate: rpcRate });
  // On plain HTTP, calls are read off the connection itself (routes/rpc/http-connections.ts), the cheapest way in.
  const httpRpc = new HttpRpc({ store, engine: context.engine, rate: rpcRate, bodyLimit: BODY_LIMIT_BYTES, log: app.log });
  const rpcStops = logsEveryRpcCall
    ? []
    : [serveRpcFirst(app.server, httpRpc), ...(plainHttp ? [serveRpcConnections(app.server, httpRpc, hop)] : [])];
  const stopRpcFirst = () => rpcStops.forEach((stop) => stop());
  // Upgraded connections are not the HTTP server's to close: end them first, or closing would wait for them.
  app.addHook("preClose", async () => {
    stopRpcFirst();
    closeWebSockets();
    await hop?.close();
  });
  await registerWeb(app, serviceForWeb(store, context.engine));
  app.addHook("onClose", async () => {
    await context.engine.close();
    store.close();
  });
  return app;
}

/** The store a service of these options runs on: its data dir (or memory), locked for this process alone. */
export function openStore(options: ServiceOptions): Store {
  return Store.open({
    dataDir: options.dataDir ?? null,
    forkUrls: options.forkUrls,
    forkCacheDir: options.forkCacheDir,
    offline: options.offline,
    exclusive: true,
  });
}

type Authentication = ReturnType<Authenticator["authenticate"]>;

function sendError(reply: FastifyReply, status: number, message: string, data?: ErrorData): void {
  const known = knownStatus(status);
  reply.code(known).send(errorBody(known, message, data));
}

/** Seeds a fresh store and applies `accessKey` to the first user. */
function prepareStore(store: Store, options: ServiceOptions): void {
  if (store.isEmpty()) {
    applySeed(store, options.seed ?? DEFAULT_SEED, options.accessKey);
    return;
  }
  const firstUser = store.accounts.firstUserId();
  if (options.accessKey && firstUser && store.accounts.keyOwner(options.accessKey)?.user.id !== firstUser) {
    store.accounts.setOnlyKey(firstUser, options.accessKey, store.accounts.isReadOnlyUser(firstUser));
  }
}

/**
 * JSON bodies only (any other content type is a 400), where an empty body of a body-less request (a DELETE,
 * a stop) is no body at all.
 */
function acceptEmptyJsonBodies(app: FastifyInstance): void {
  // A body whose schema requires no field may be left out entirely (simulation bodies: every field optional):
  // it is then `{}`. (Fastify validates a missing body as null, the same as a JSON `null`, which stays a 400.)
  app.addHook("preValidation", async (request) => {
    const schema = request.routeOptions.schema?.body as { type?: string; required?: string[] } | undefined;
    if (request.body === undefined && schema?.type === "object" && (schema.required ?? []).length === 0) request.body = {};
  });
  const parseJson = app.getDefaultJsonParser("error", "error");
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("application/json", { parseAs: "string" }, (request, body, done) => {
    if (body === "") return done(null, undefined);
    parseJson(request, body as string, done);
  });
}

/** Maps any error to a status of the spec's table and a message safe to show. */
function classify(error: unknown): { status: ReturnType<typeof knownStatus>; message: string; data?: ErrorData } {
  if (error instanceof ServiceError) return { status: error.status, message: error.message, data: error.data };
  if (error instanceof ChainRequestError) {
    return { status: error.status, message: error.message, data: error.field ? { field: error.field } : undefined };
  }
  const fastifyError = error as { code?: string; statusCode?: number; message?: string };
  switch (fastifyError.code) {
    case "FST_ERR_CTP_BODY_TOO_LARGE":
      return { status: 400, message: `request body larger than ${BODY_LIMIT_BYTES} bytes` };
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
      return { status: 400, message: "unsupported Content-Type: send application/json" };
    case "FST_ERR_CTP_INVALID_JSON_BODY":
    case "FST_ERR_CTP_EMPTY_JSON_BODY":
      return { status: 400, message: `invalid JSON body: ${fastifyError.message}` };
  }
  if (error instanceof SyntaxError) return { status: 400, message: `invalid JSON body: ${error.message}` };
  if (isDiskFull(error)) return { status: 503, message: diskFullMessage() };
  const status = fastifyError.statusCode ?? 500;
  if (status >= 400 && status < 500) return { status: knownStatus(status), message: redactUrl(String(fastifyError.message)) };
  return { status: 500, message: "internal server error: quote the error id when reporting it" };
}

/** The error id of an error body, or undefined. */
function errorIdIn(payload: string): string | undefined {
  try {
    return (JSON.parse(payload) as { error?: { id?: string } }).error?.id;
  } catch {
    return undefined;
  }
}
