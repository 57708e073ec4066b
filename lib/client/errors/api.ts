import type { Rid } from "../../api";
import { BaseError } from "./base";
import { attemptsLine } from "./transport";

/** Arguments of {@link ApiError}: what the service answered and which request it answered. */
export interface ApiErrorParameters {
  /** HTTP status. */
  status: number;
  /** `error.slug`, e.g. `resource_not_found`; "" when the body had none. */
  slug: string;
  /** `error.id`, to quote in bug reports; "" when the body had none. */
  errorId: string;
  /** `error.message`, scrubbed of secrets. */
  serviceMessage: string;
  /** `error.data.rid`, when present. */
  rid?: Rid | string;
  /** The whole `error.data`, scrubbed of secrets. */
  data?: Record<string, unknown>;
  /** Request method. */
  method: string;
  /** Request path (query included), with any Admin RPC secret redacted. */
  path: string;
  /** Anything below, e.g. nothing for a plain answer. */
  cause?: unknown;
  /** How many times the request was sent. @default 1 */
  attempts?: number;
  /** Milliseconds from the first attempt to this answer. @default 0 */
  elapsedMs?: number;
}

/**
 * The service answered with an error status (4xx or 5xx). Carries the structured fields of the spec's
 * error body plus the request's method and (redacted) path.
 *
 * @example
 * try { await client.getEnvironment({ environmentId }) }
 * catch (error) {
 *   if (error instanceof ApiError && error.status === 404) console.log("gone", error.errorId)
 *   else throw error
 * }
 */
export class ApiError extends BaseError {
  override name = "ApiError";
  /** HTTP status. */
  readonly status: number;
  /** `error.slug` of the body. */
  readonly slug: string;
  /** `error.id` of the body: quote it in bug reports. */
  readonly errorId: string;
  /** `error.data.rid`: the resource type at fault. */
  readonly rid: string | undefined;
  /** `error.data` of the body. */
  readonly data: Record<string, unknown> | undefined;
  /** The service's explanation (`error.message`). */
  readonly serviceMessage: string;
  /** Request method. */
  readonly method: string;
  /** Request path, secrets redacted. */
  readonly path: string;
  /** How many times the request was sent before this answer was final (more than 1 after retries). */
  readonly attempts: number;
  /** Milliseconds from the first attempt to this answer. */
  readonly elapsedMs: number;

  constructor(parameters: ApiErrorParameters, extra: { docsPath?: string; metaMessages?: string[] } = {}) {
    super(parameters.serviceMessage || `The service answered ${parameters.status}.`, {
      cause: parameters.cause,
      details: parameters.serviceMessage,
      docsPath: extra.docsPath ?? "#apierror",
      metaMessages: [
        `Request: ${parameters.method} ${parameters.path}`,
        `Status: ${parameters.status}${parameters.slug ? ` ${parameters.slug}` : ""}${parameters.rid ? ` (${parameters.rid})` : ""}`,
        ...(parameters.errorId ? [`Error ID: ${parameters.errorId}`] : []),
        ...((parameters.attempts ?? 1) > 1 ? [attemptsLine({ attempts: parameters.attempts!, elapsedMs: parameters.elapsedMs })] : []),
        ...(extra.metaMessages ?? []),
      ],
    });
    this.status = parameters.status;
    this.slug = parameters.slug;
    this.errorId = parameters.errorId;
    this.rid = parameters.rid;
    this.data = parameters.data;
    this.serviceMessage = parameters.serviceMessage;
    this.method = parameters.method;
    this.path = parameters.path;
    this.attempts = parameters.attempts ?? 1;
    this.elapsedMs = parameters.elapsedMs ?? 0;
  }
}

/**
 * The service kept answering 429 (or the pacer would have had to wait past the retry budget): the rate limit
 * of the key is exhausted for longer than `maxRetryTimeMs`. `retryAfterMs` says when to try again.
 *
 * @example
 * catch (error) { if (error instanceof RateLimitError) await sleep(error.retryAfterMs) }
 */
export class RateLimitError extends ApiError {
  override name = "RateLimitError";
  /** Milliseconds until the service should accept a request again. */
  readonly retryAfterMs: number;

  constructor(parameters: ApiErrorParameters & { retryAfterMs: number; attempts: number }) {
    super(parameters, {
      docsPath: "#ratelimiterror",
      metaMessages: [`Retry after: ${Math.ceil(parameters.retryAfterMs / 1000)} s`],
    });
    this.retryAfterMs = parameters.retryAfterMs;
  }
}
