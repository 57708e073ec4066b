import type { AuthMode } from "./transport/auth";
import { trustedCertificates } from "./transport/trusted-certificates";
import { createTransport, type RequestOptions, type ResponseEvent, type TlsSettings, type Transport } from "./transport/transport";
import { defaultUserAgent } from "./version";

/**
 * Default retries of a request. With backoff ceilings of 0.25, 0.5, 1, 2, 4 and then 8 s, eight retries span about
 * 16 s on average (32 s at most), inside the 60 s `maxRetryTimeMs`: long enough that a burst of faults (a proxy or
 * a busy service failing one request in four) does not surface, short enough to report a dead service in a minute.
 */
export const DEFAULT_MAX_RETRIES = 8;

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
  /**
   * Retries after the first attempt, for failures that are safe to repeat (429s do not count: the deadline bounds
   * them; a refused connection gets at most 4). @default 8
   */
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
  /**
   * A PEM file of certificates to trust besides the system's, e.g. the `tls-cert.pem` of a service started with
   * `chainform serve --tls`. Read once, when the client is created (`ClientConfigError` when unreadable).
   */
  caFile?: string | undefined;
  /** Lower-level TLS settings: `ca` replaces the system roots (prefer `caFile`, which adds to them). */
  tls?: TlsSettings | undefined;
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
      maxRetries: options.maxRetries ?? DEFAULT_MAX_RETRIES,
      maxRetryTimeMs: options.maxRetryTimeMs ?? 60_000,
      retryBaseDelayMs: options.retryBaseDelayMs ?? 250,
      retryMaxDelayMs: options.retryMaxDelayMs ?? 8_000,
      userAgent: options.userAgent ?? defaultUserAgent,
      pacing: options.pacing ?? true,
      resetMarginMs: options.resetMarginMs ?? 1_000,
      connections: options.connections ?? 10,
      tls: tlsSettings(options),
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

/** `tls` with the CA file's certificates (and the system roots) added to its `ca`. */
function tlsSettings(options: ClientOptions): TlsSettings | undefined {
  if (!options.caFile) return options.tls;
  const extra = options.tls?.ca === undefined ? [] : [options.tls.ca].flat();
  return { ...options.tls, ca: [...trustedCertificates(options.caFile), ...extra] };
}
