/**
 * What the service's plugins share (the API, the RPC URLs, the web UI: listen.ts composes them): the store, the
 * chain engine, the one rate limiter with its limits, and the base URL. The API app (app.ts) builds it and
 * decorates itself with it as `app.service`; the other plugins read it there and import no plugin.
 */
import type { ChainEngine } from "./chains";
import type { ContractVerifier } from "./contract-verifier";
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
  /** The contract verifier (contract-verifier.ts), once listen.ts has composed the web part that implements it. */
  verifier?: ContractVerifier;
  /**
   * The vnet id of a node gateway's chain for a network's node RPC slug (made on first use; undefined for a network
   * the service does not know). The hosted API's routes provide it (routes/hosted/gateways.ts); the RPC URLs' host
   * routing calls it (rpc/hosted-hosts.ts).
   */
  gatewayVnet?: (network: string) => Promise<string | undefined>;
}

declare module "fastify" {
  interface FastifyInstance {
    service: ServiceContext;
  }
}
