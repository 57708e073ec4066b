import { Pool } from "undici";
import type { ErrorBody } from "../../api";
import { ApiError, RateLimitError } from "../errors/api";
import { CertificateError, ConnectionError, InvalidResponseError, PlainHttpServiceError, TimeoutError } from "../errors/transport";
import { authHeaders, type Credentials } from "./auth";
import { fullJitterDelay, parseRetryAfter, sleep } from "./backoff";
import { Pacer, readRateLimitHeaders, type Ticket } from "./pacer";
import { createRedactor, scrubDeep } from "./redact";
import { isPlainHttpAnswer, UNTRUSTED_CERTIFICATE_CODES } from "./trusted-certificates";
import { buildPath, parseBaseUrl, type QueryValues } from "./url";

/**
 * When a failed request may be sent again.
 * - `idempotent`: after 429, 502/503/504, timeouts and any connection failure (GET, PUT, DELETE, and POSTs
 *   whose repetition is harmless).
 * - `unsent`: only when the service certainly did not act: 429 (refused by the limiter) and connections that
 *   never opened.
 */
export type RetryPolicy = "idempotent" | "unsent";

/** One HTTP request as an operation describes it. */
export interface RequestOptions {
  method: "GET" | "POST" | "PUT" | "DELETE";
  /** Path below the base URL with encoded segments, e.g. `/v1/supported-networks`. */
  path: string;
  query?: QueryValues;
  /** JSON body. */
  body?: unknown;
  /** A binary body, sent as `application/octet-stream` instead of `body` (a fixture file). */
  bytes?: Buffer;
  /** A success's body is returned as its bytes (a Buffer), not parsed (a fixture file). */
  bytesAnswer?: boolean;
  /** Send the credentials (default true; the public endpoint passes false). */
  auth?: boolean;
  /** Default: `idempotent` for GET, PUT and DELETE, `unsent` for POST. */
  retry?: RetryPolicy;
  /** Checks and unwraps the parsed body; throw {@link ShapeMismatch} when it does not fit. */
  parse?: (body: unknown) => unknown;
  /** A success whose body is not JSON is handed to `parse` as its text instead of failing (default false). */
  anyBody?: boolean;
}

/** Thrown by a `parse` function: the body does not have the expected shape (becomes InvalidResponseError). */
export class ShapeMismatch extends Error {
  override name = "ShapeMismatch";
}

/** What {@link TransportSettings.onResponse} receives for every answer (retries included). Secrets redacted. */
export interface ResponseEvent {
  method: string;
  path: string;
  status: number;
  /** 1 for the first try. */
  attempt: number;
  durationMs: number;
  /** `X-Svc-Remaining`, when present. */
  remaining: number | undefined;
}

/** Behaviour settings of the transport, with their defaults filled in by `createClient`. */
export interface TransportSettings {
  timeoutMs: number;
  maxRetries: number;
  maxRetryTimeMs: number;
  retryBaseDelayMs: number;
  retryMaxDelayMs: number;
  userAgent: string;
  pacing: boolean;
  resetMarginMs: number;
  connections: number;
  tls?: TlsSettings | undefined;
  onResponse?: ((event: ResponseEvent) => void) | undefined;
}

/** TLS settings of the connection pool: the trusted CAs (replacing the system roots) and whether to verify. */
export interface TlsSettings {
  ca?: string | Buffer | (string | Buffer)[];
  rejectUnauthorized?: boolean;
}

/** The HTTP layer of a client: one undici Pool for the base URL's origin, auth, pacing and retries. */
export interface Transport {
  /** Sends a request (with pacing and retries) and returns the parsed JSON body, or undefined for an empty one. */
  request<T>(options: RequestOptions): Promise<T>;
  /** Removes every secret the client knows of from a text. */
  scrub(text: string): string;
  /** Closes the connection pool. */
  close(): Promise<void>;
  readonly settings: Readonly<TransportSettings>;
}

type Failure =
  | { kind: "status"; status: number; text: string; headers: Record<string, string | string[] | undefined> }
  | { kind: "timeout"; cause: unknown }
  | { kind: "connection"; code: string | undefined; sent: boolean; cause: unknown; message: string }
  | { kind: "certificate"; code: string; cause: unknown; message: string }
  | { kind: "plain-http"; code: string | undefined; cause: unknown; message: string }
  | { kind: "invalid"; status: number; details: string; cause?: unknown };

class AttemptFailure {
  constructor(readonly failure: Failure) {}
}

const NOT_SENT_CODES = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EADDRNOTAVAIL",
  "UND_ERR_CONNECT_TIMEOUT",
]);
const TIMEOUT_CODES = new Set(["UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT", "ETIMEDOUT"]);
const RETRYABLE_STATUSES = new Set([502, 503, 504]);
/** Retries of a connection the service refused (or a name that did not resolve): a few, for a restarting service. */
const REFUSED_RETRIES = 4;

/** Creates the transport for a base URL and credentials. Throws InsecureUrlError for non-loopback http://. */
export function createTransport(baseUrl: string, credentials: Credentials, settings: TransportSettings): Transport {
  const { origin, prefix } = parseBaseUrl(baseUrl);
  const auth = authHeaders(credentials);
  const scrub = createRedactor([credentials.accessKey, credentials.bearerToken]);
  const pool = new Pool(origin, {
    connections: settings.connections,
    keepAliveTimeout: 10_000,
    ...(settings.tls ? { connect: { ...settings.tls } } : {}),
  });
  // The service counts authenticated requests per key and the public endpoint per client address.
  const pacers = { auth: new Pacer(settings), anonymous: new Pacer(settings) };

  async function attempt(options: RequestOptions, fullPath: string, attemptNo: number): Promise<unknown> {
    const authenticated = options.auth !== false;
    const pacer = pacers[authenticated && auth.mode !== "none" ? "auth" : "anonymous"];
    const ticket: Ticket | undefined = settings.pacing ? await pacer.acquire() : undefined;
    let released = false;
    const release = (state: ReturnType<typeof readRateLimitHeaders>, hadAnswer: boolean) => {
      if (ticket && !released) pacer.release(ticket, state, hadAnswer);
      released = true;
    };
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, settings.timeoutMs);
    const started = performance.now();
    try {
      const headers: Record<string, string> = {
        accept: "application/json",
        "user-agent": settings.userAgent,
        ...(authenticated ? auth.headers : {}),
      };
      let body: string | Buffer | undefined;
      if (options.bytes !== undefined) {
        headers["content-type"] = "application/octet-stream";
        body = options.bytes;
      } else if (options.body !== undefined) {
        headers["content-type"] = "application/json";
        body = JSON.stringify(options.body);
      }
      const response = await pool.request({ path: fullPath, method: options.method, headers, body, signal: controller.signal });
      const bytes = options.bytesAnswer && response.statusCode < 400 ? Buffer.from(await response.body.arrayBuffer()) : undefined;
      const text = bytes === undefined ? await response.body.text() : "";
      const state = readRateLimitHeaders(response.headers);
      // A proxy's bare 5xx says nothing about the limit; a success without headers means there is none.
      release(state, state !== undefined || response.statusCode < 500);
      if (response.statusCode === 429) pacer.blockUntil(retryAt(response.headers, state?.resetAtMs));
      settings.onResponse?.({
        method: options.method,
        path: scrub(fullPath),
        status: response.statusCode,
        attempt: attemptNo,
        durationMs: performance.now() - started,
        remaining: state?.remaining,
      });
      if (response.statusCode >= 400) {
        throw new AttemptFailure({ kind: "status", status: response.statusCode, text, headers: response.headers });
      }
      if (bytes !== undefined) return bytes;
      let parsed: unknown;
      try {
        parsed = text.trim() === "" ? undefined : JSON.parse(text);
      } catch (cause) {
        if (options.anyBody) parsed = text;
        else throw new AttemptFailure({ kind: "invalid", status: response.statusCode, details: "The body is not JSON.", cause });
      }
      try {
        return options.parse ? options.parse(parsed) : parsed;
      } catch (cause) {
        if (!(cause instanceof ShapeMismatch)) throw cause;
        throw new AttemptFailure({ kind: "invalid", status: response.statusCode, details: scrub(cause.message) });
      }
    } catch (error) {
      release(undefined, false);
      if (error instanceof AttemptFailure) throw error;
      throw new AttemptFailure(classifyThrown(error, timedOut));
    } finally {
      clearTimeout(timer);
    }
  }

  function retryAt(headers: Record<string, string | string[] | undefined>, resetAtMs: number | undefined): number {
    const after = parseRetryAfter(headers["retry-after"], Date.now());
    if (after !== undefined) return Date.now() + after;
    return resetAtMs ?? Date.now();
  }

  /** Retries allowed for a kind of failure: a refused connection means the service is down, not busy. */
  function retryLimit(failure: Failure): number {
    return failure.kind === "connection" && !failure.sent ? Math.min(settings.maxRetries, REFUSED_RETRIES) : settings.maxRetries;
  }

  /** Milliseconds to wait before retrying `failure`, or undefined when the policy forbids a retry. */
  function retryDelay(failure: Failure, policy: RetryPolicy, retryNo: number): number | undefined {
    const backoff = () => fullJitterDelay(retryNo, settings.retryBaseDelayMs, settings.retryMaxDelayMs);
    switch (failure.kind) {
      case "status": {
        if (failure.status === 429) {
          const state = readRateLimitHeaders(failure.headers);
          const until = retryAt(failure.headers, state ? state.resetAtMs + settings.resetMarginMs : undefined);
          return Math.max(until - Date.now(), 0) || backoff();
        }
        return policy === "idempotent" && RETRYABLE_STATUSES.has(failure.status) ? backoff() : undefined;
      }
      case "timeout":
        return policy === "idempotent" ? backoff() : undefined;
      case "connection":
        return policy === "idempotent" || !failure.sent ? backoff() : undefined;
      case "certificate":
      case "plain-http":
      case "invalid":
        return undefined;
    }
  }

  function toError(failure: Failure, method: string, path: string, attempts: number, elapsedMs: number, waitMs?: number): Error {
    switch (failure.kind) {
      case "status": {
        const fields = { ...readErrorBody(failure.text, scrub), status: failure.status, method, path, attempts, elapsedMs };
        if (failure.status === 429) return new RateLimitError({ ...fields, retryAfterMs: waitMs ?? 0 });
        return new ApiError(fields);
      }
      case "timeout":
        return new TimeoutError({ method, path, timeoutMs: settings.timeoutMs, attempts, elapsedMs, cause: failure.cause });
      case "connection":
        return new ConnectionError({
          method,
          path,
          code: failure.code,
          sent: failure.sent,
          attempts,
          elapsedMs,
          details: scrub(failure.message),
          cause: failure.cause,
        });
      case "certificate":
        return new CertificateError({ method, path, code: failure.code, details: scrub(failure.message), cause: failure.cause });
      case "plain-http":
        return new PlainHttpServiceError({ method, path, code: failure.code, details: scrub(failure.message), cause: failure.cause });
      case "invalid":
        return new InvalidResponseError({ method, path, status: failure.status, details: failure.details, cause: failure.cause });
    }
  }

  return {
    settings,
    scrub,
    close: () => pool.close(),
    async request<T>(options: RequestOptions): Promise<T> {
      const fullPath = buildPath(prefix, options.path, options.query);
      const policy = options.retry ?? (options.method === "POST" ? "unsent" : "idempotent");
      const started = Date.now();
      const deadline = started + settings.maxRetryTimeMs;
      let charged = 0; // failures counted against maxRetries
      for (let attemptNo = 1; ; attemptNo++) {
        try {
          return (await attempt(options, fullPath, attemptNo)) as T;
        } catch (error) {
          if (!(error instanceof AttemptFailure)) throw error;
          const { failure } = error;
          const delay = retryDelay(failure, policy, charged);
          // A 429 is the limiter saying "not yet", with the time to come back: only the deadline bounds it.
          // Spending retries on it left a request that met a 429 or two with too few for real faults.
          if (!(failure.kind === "status" && failure.status === 429)) charged++;
          const exhausted = delay === undefined || charged > retryLimit(failure) || Date.now() + delay > deadline;
          if (exhausted) throw toError(failure, options.method, scrub(fullPath), attemptNo, Date.now() - started, delay);
          await sleep(delay);
        }
      }
    },
  };
}

function classifyThrown(error: unknown, timedOut: boolean): Failure {
  const code = errorCode(error);
  if (timedOut || (code !== undefined && TIMEOUT_CODES.has(code))) return { kind: "timeout", cause: error };
  const message = error instanceof Error ? error.message : String(error);
  if (code !== undefined && UNTRUSTED_CERTIFICATE_CODES.has(code)) return { kind: "certificate", code, cause: error, message };
  if (isPlainHttpAnswer(code, message)) return { kind: "plain-http", code, cause: error, message };
  return { kind: "connection", code, sent: !(code !== undefined && NOT_SENT_CODES.has(code)), cause: error, message };
}

function errorCode(error: unknown): string | undefined {
  for (let current = error, depth = 0; current && depth < 4; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string") return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Reads the spec's error body tolerantly: a missing or foreign body still yields an ApiError. */
function readErrorBody(text: string, scrub: (text: string) => string) {
  let parsed: Partial<ErrorBody> | undefined;
  try {
    parsed = JSON.parse(text) as Partial<ErrorBody>;
  } catch {
    parsed = undefined;
  }
  const error = parsed && typeof parsed.error === "object" && parsed.error ? parsed.error : undefined;
  const data = error?.data && typeof error.data === "object" ? scrubDeep(error.data as Record<string, unknown>, scrub) : undefined;
  return {
    slug: typeof error?.slug === "string" ? error.slug : "",
    errorId: typeof error?.id === "string" ? error.id : "",
    serviceMessage: scrub(typeof error?.message === "string" ? error.message : ""),
    rid: typeof data?.rid === "string" ? data.rid : undefined,
    data,
  };
}
