/**
 * What the service's plugins share (the API, the RPC URLs, the web UI: listen.ts composes them): the store, the
 * chain engine, the one rate limiter with its limits, and the base URL. The API app (app.ts) builds it and
 * decorates itself with it as `app.service`; the other plugins read it there and import no plugin.
 */
import type { ChainEngine } from "./chains";
import type { RateLimitSettings, SlidingWindowLimiter } from "./rate-limit";
import type { Store } from "./store";

/** What every plugin reaches through `app.service`. */
export interface ServiceContext {
  readonly store: Store;
  readonly engine: ChainEngine;
  /** One limiter for the whole service: a caller's anonymous API requests and its calls to unknown RPC URLs share a window. */
  readonly limiter: SlidingWindowLimiter;
  readonly rateLimits: RateLimitSettings;
  /** Largest request body, in bytes; a larger one gets the spec's 400. */
  readonly bodyLimit: number;
  /** The base URL RPC URLs are built on; settable once the server knows its address. */
  baseUrl: string | undefined;
}

declare module "fastify" {
  interface FastifyInstance {
    service: ServiceContext;
  }
}
