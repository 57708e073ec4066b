/**
 * The service's API (the control plane) as a Fastify app: every endpoint of the spec over one store, behind the
 * cross-cutting plugins (each in its concern's folder: cors/, auth/, rate-limit/, errors/, validation/). It knows neither the RPC
 * URLs (./rpc) nor the web UI (lib/web): listen.ts composes the three. Tests build the app with `buildApp` and use
 * `inject` or a real port.
 */
import { isValidChecksumAddress } from "../domain/address";
import { ADDRESS_FORMAT } from "../api/common";
import Fastify, { type FastifyInstance, type FastifyServerOptions } from "fastify";
import type { ChainEngine, ChainHost, SharedForkCache } from "./chains";
import { Authenticator } from "./auth";
import type { Socket } from "node:net";
import { answerClientError } from "./errors/client-errors";
import { addCorsHeaders } from "./cors";
import type { ServiceContext } from "./context";
import { chainHostOf } from "./chain-host";
import { chainsDirOf, createAnvilEngine, removeOrphanedStates, secretPartsOf } from "./chains";
import type { RpcLimits } from "./caller-limits";
import { loggerOptions, type LogSettings } from "./log";
import { DEFAULT_RATE_LIMITS, SlidingWindowLimiter, type RateLimitSettings } from "./rate-limit";
import { applySeed, DEFAULT_SEED, type Seed } from "./seed";
import { Store } from "./store";
import { validatorCompiler } from "./validation";
import { registerRoutes } from "./routes";
import { authenticate, requireCredentials } from "./auth/plugin";
import { corsHeaders, corsPreflight } from "./cors/plugin";
import { errors, frameworkErrorMessage, sendError } from "./errors/plugin";
import { jsonBodies } from "./validation/json-bodies";
import { rateLimit, takeRequestRate } from "./rate-limit/plugin";

export type { ServiceContext } from "./context";

/** Largest request body: 1 MB. Larger bodies get the spec's 400 body. */
export const BODY_LIMIT_BYTES = 1024 * 1024;

/** Options of the service app. Everything is optional: the default is an in-memory service with the default seed. */
export interface ServiceOptions {
  /** Data dir for the database; null or absent keeps everything in memory. Ignored when `store` is given. */
  readonly dataDir?: string | null;
  /** An open store to use (the app closes it on close). */
  readonly store?: Store;
  /** The seed a fresh store starts with. Default: `seed/default-seed.json`. */
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
  /** A chain unused this long (ms) is stopped, its state kept (`serve --idle-stop`); 0 never; default the engine's 5 minutes. */
  readonly idleStopMs?: number;
  /** Upstream RPC URLs to fork from, by network id (for the chain engine). */
  readonly forkUrls?: Readonly<Record<string, string>>;
  /** Where recordings of upstream answers are kept (`--fork-cache`); default `<dataDir>/fork-cache`. */
  readonly forkCacheDir?: string | null;
  /** The fork cache shared with other services that `forkCacheDir` mirrors (`--fork-cache oci://…`). */
  readonly sharedForkCache?: SharedForkCache | null;
  /** Serve forks from recordings only (`--offline`). */
  readonly offline?: boolean;
  /** Offline, read an account no recording holds as empty, logged once per account (`--offline-empty-accounts`). */
  readonly offlineEmptyAccounts?: boolean;
  /** Base URL the RPC URLs are built on; default: the request's own scheme and host. `listen.ts` sets it. */
  readonly baseUrl?: string;
  /**
   * The structured log (./log): off by default; `true` logs at info to stderr; settings choose the level and a
   * file. Secrets are always scrubbed.
   */
  readonly logger?: boolean | LogSettings;
  /** Lower bounds on what one caller may hold through the RPC URLs and connections (caller-limits.ts), for tests. */
  readonly rpcLimits?: Partial<RpcLimits>;
  /** Serve HTTPS with this PEM key and certificate (`--tls`); plain HTTP otherwise. */
  readonly https?: { readonly key: string; readonly cert: string };
}

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
      ? loggerOptions({
          ...logSettings,
          secrets: [
            ...(logSettings.secrets ?? []),
            ...Object.values(options.forkUrls ?? {}).flatMap((url) => [url, ...secretPartsOf(url)]),
          ],
        })
      : false,
    bodyLimit: BODY_LIMIT_BYTES,
    // Response schemas with anyOf are checked by the serializer's Ajv, which must know the address format.
    serializerOpts: { ajv: { formats: { [ADDRESS_FORMAT]: isValidChecksumAddress } } },
    routerOptions: { maxParamLength: 500 },
    // Requests Node's HTTP parser refuses (bare LF, bad Content-Length, ...) get the spec's 400 (errors/client-errors.ts).
    clientErrorHandler: (error: Error & { code?: string }, socket: Socket) =>
      answerClientError(error, socket, (address) => limiter.take(`ip:${address}`, rateLimits.unauthenticatedLimit, rateLimits.burstLimit)),
    // Errors Fastify meets before any hook runs: the hooks' headers, then the spec's 400.
    frameworkErrors: (error, request, reply) => {
      addCorsHeaders(request, reply);
      if (!takeRequestRate(request, reply, authenticator.authenticate(request.headers))) return;
      sendError(reply, 400, frameworkErrorMessage(error));
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
      ((host) =>
        createAnvilEngine(host, {
          log: chainLog,
          maxRunningChains: options.maxChains,
          rpcTimeoutMs: options.rpcTimeoutMs,
          idleTimeoutMs: options.idleStopMs,
        }))
    )(chainHostOf(store, options)),
    limiter,
    rateLimits,
    bodyLimit: BODY_LIMIT_BYTES,
    baseUrl: options.baseUrl,
  };
  app.decorate("service", context);
  app.setValidatorCompiler(validatorCompiler);
  // The cross-cutting plugins, in the order their hooks run on a request.
  await app.register(corsHeaders);
  await app.register(authenticate, { authenticator });
  await app.register(rateLimit);
  await app.register(corsPreflight);
  await app.register(requireCredentials);
  await app.register(errors, { bodyLimit: BODY_LIMIT_BYTES });
  await app.register(jsonBodies);
  await app.register(registerRoutes);
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
    exclusive: true,
  });
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
