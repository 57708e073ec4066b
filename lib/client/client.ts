import type { AuthMode } from "./transport/auth";
import { createTransport, type RequestOptions, type ResponseEvent, type Transport } from "./transport/transport";
import { defaultUserAgent } from "./version";

/** Settings of {@link createClient}. Only `baseUrl` and a credential are needed; the rest has defaults. */
export interface ClientOptions {
  /** Service address, e.g. `https://api.example.com`. `http://` is accepted only for loopback hosts. */
  baseUrl: string;
  /** API access key (sent as `X-Access-Key`, or as the Basic-auth username with `authMode: "basic"`). */
  accessKey?: string | undefined;
  /** JWT bearer token (sent as `Authorization: Bearer`). */
  bearerToken?: string | undefined;
  /** @default "bearer" when only `bearerToken` is given, else "header" */
  authMode?: AuthMode | undefined;
  /** Account used by account- and project-scoped operations unless a call overrides it. */
  accountSlug?: string | undefined;
  /** Project used by project-scoped operations unless a call overrides it. */
  projectSlug?: string | undefined;
  /** Per-attempt timeout, from sending to the end of the body. @default 30000 */
  timeoutMs?: number | undefined;
  /** Retries after the first attempt. @default 4 */
  maxRetries?: number | undefined;
  /** No retry starts after this many milliseconds from the first attempt. @default 60000 */
  maxRetryTimeMs?: number | undefined;
  /** First backoff ceiling; doubles per retry (full jitter). @default 250 */
  retryBaseDelayMs?: number | undefined;
  /** Largest backoff ceiling. @default 8000 */
  retryMaxDelayMs?: number | undefined;
  /** @default "chainform/<version>" */
  userAgent?: string | undefined;
  /** Wait for the rate limit window instead of sending into a 429. @default true */
  pacing?: boolean | undefined;
  /** Margin added to `X-Svc-Reset-Timestamp` (second resolution) before sending again. @default 1000 */
  resetMarginMs?: number | undefined;
  /** Most parallel connections to the service. @default 10 */
  connections?: number | undefined;
  /** TLS settings, e.g. the CA of a local service started with `--tls`. */
  tls?: { ca?: string | Buffer; rejectUnauthorized?: boolean } | undefined;
  /** Called after every HTTP answer (retries included), e.g. to count calls. Paths are redacted. */
  onResponse?: ((event: ResponseEvent) => void) | undefined;
}

/**
 * What every operation needs: the transport and the default account and project. `createClient` returns this
 * plus one method per operation; standalone operations accept either.
 */
export interface BaseClient {
  /** The HTTP layer: pool, auth, pacing, retries. */
  readonly transport: Transport;
  /** Default account slug. */
  readonly accountSlug: string | undefined;
  /** Default project slug. */
  readonly projectSlug: string | undefined;
  /** Sends one request through the transport (for endpoints the client has no operation for). */
  request<T>(options: RequestOptions): Promise<T>;
  /** Closes the connection pool; the client is unusable afterwards. */
  close(): Promise<void>;
}

/**
 * Builds the {@link BaseClient} behind `createClient`: checks the base URL (throwing `InsecureUrlError` for a
 * non-loopback `http://` before anything is sent) and sets up the transport.
 */
export function createBaseClient(options: ClientOptions): BaseClient {
  const transport = createTransport(
    options.baseUrl,
    { accessKey: options.accessKey, bearerToken: options.bearerToken, authMode: options.authMode },
    {
      timeoutMs: options.timeoutMs ?? 30_000,
      maxRetries: options.maxRetries ?? 4,
      maxRetryTimeMs: options.maxRetryTimeMs ?? 60_000,
      retryBaseDelayMs: options.retryBaseDelayMs ?? 250,
      retryMaxDelayMs: options.retryMaxDelayMs ?? 8_000,
      userAgent: options.userAgent ?? defaultUserAgent,
      pacing: options.pacing ?? true,
      resetMarginMs: options.resetMarginMs ?? 1_000,
      connections: options.connections ?? 10,
      tls: options.tls,
      onResponse: options.onResponse,
    },
  );
  return {
    transport,
    accountSlug: options.accountSlug,
    projectSlug: options.projectSlug,
    request: (request) => transport.request(request),
    close: () => transport.close(),
  };
}
