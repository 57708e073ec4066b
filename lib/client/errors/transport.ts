import { BaseError } from "./base";

/** Where a failed request was: its method and (redacted) path. */
export interface RequestLocation {
  /** Request method. */
  method: string;
  /** Request path, secrets redacted. */
  path: string;
}

function requestLines(location: RequestLocation, attempts?: number): string[] {
  return [`Request: ${location.method} ${location.path}`, ...(attempts && attempts > 1 ? [`Attempts: ${attempts}`] : [])];
}

/**
 * The service did not answer within `timeoutMs` (after any retries the request allowed).
 *
 * @example
 * catch (error) { if (error instanceof TimeoutError) console.log(`gave up after ${error.timeoutMs} ms`) }
 */
export class TimeoutError extends BaseError {
  override name = "TimeoutError";
  /** Request method. */
  readonly method: string;
  /** Request path, secrets redacted. */
  readonly path: string;
  /** The per-request timeout that elapsed. */
  readonly timeoutMs: number;
  /** How many times the request was tried. */
  readonly attempts: number;

  constructor(parameters: RequestLocation & { timeoutMs: number; attempts: number; cause?: unknown }) {
    super(`The request took longer than ${parameters.timeoutMs} ms.`, {
      cause: parameters.cause,
      details: "The service did not answer in time. Raise `timeoutMs` or check that the service is healthy.",
      docsPath: "#timeouterror",
      metaMessages: requestLines(parameters, parameters.attempts),
    });
    this.method = parameters.method;
    this.path = parameters.path;
    this.timeoutMs = parameters.timeoutMs;
    this.attempts = parameters.attempts;
  }
}

/**
 * The connection to the service failed: refused, reset, closed before an answer, or the name did not resolve.
 * `sent` says whether the request may have reached the service.
 *
 * @example
 * catch (error) { if (error instanceof ConnectionError && !error.sent) console.log("service is down") }
 */
export class ConnectionError extends BaseError {
  override name = "ConnectionError";
  /** Request method. */
  readonly method: string;
  /** Request path, secrets redacted. */
  readonly path: string;
  /** The system or undici error code, e.g. `ECONNREFUSED`, `UND_ERR_SOCKET`. */
  readonly code: string | undefined;
  /** false when the request certainly never reached the service (e.g. connection refused). */
  readonly sent: boolean;
  /** How many times the request was tried. */
  readonly attempts: number;

  constructor(
    parameters: RequestLocation & { code: string | undefined; sent: boolean; attempts: number; details: string; cause?: unknown },
  ) {
    super(parameters.sent ? "The connection to the service broke before it answered." : "Could not connect to the service.", {
      cause: parameters.cause,
      details: parameters.details,
      docsPath: "#connectionerror",
      metaMessages: requestLines(parameters, parameters.attempts),
    });
    this.method = parameters.method;
    this.path = parameters.path;
    this.code = parameters.code;
    this.sent = parameters.sent;
    this.attempts = parameters.attempts;
  }
}

/**
 * The base URL uses plain `http://` for a host that is not loopback. Nothing was sent: an access key must not
 * cross a network in clear text.
 *
 * @example
 * createClient({ baseUrl: "http://example.com", accessKey }) // throws InsecureUrlError
 */
export class InsecureUrlError extends BaseError {
  override name = "InsecureUrlError";
  /** The host that was refused. */
  readonly host: string;

  constructor(parameters: { host: string }) {
    super(`Refusing plain http:// to ${parameters.host}: use https:// (http is allowed only for loopback hosts).`, {
      details: "Loopback hosts are 127.0.0.0/8, ::1 and localhost.",
      docsPath: "#insecureurlerror",
    });
    this.host = parameters.host;
  }
}

/**
 * The service answered with a success status but a body the client cannot use (not JSON, or a shape that does
 * not match the operation).
 *
 * @example
 * catch (error) { if (error instanceof InvalidResponseError) console.log(error.status, error.details) }
 */
export class InvalidResponseError extends BaseError {
  override name = "InvalidResponseError";
  /** Request method. */
  readonly method: string;
  /** Request path, secrets redacted. */
  readonly path: string;
  /** HTTP status of the answer. */
  readonly status: number;

  constructor(parameters: RequestLocation & { status: number; details: string; cause?: unknown }) {
    super("The service answered with a body the client cannot read.", {
      cause: parameters.cause,
      details: parameters.details,
      docsPath: "#invalidresponseerror",
      metaMessages: [...requestLines(parameters), `Status: ${parameters.status}`],
    });
    this.method = parameters.method;
    this.path = parameters.path;
    this.status = parameters.status;
  }
}

/**
 * A setting or parameter given to the client is unusable (e.g. no credentials, an empty id). Nothing was sent.
 *
 * @example
 * createClient({ baseUrl }) // throws ClientConfigError: no accessKey or bearerToken
 */
export class ClientConfigError extends BaseError {
  override name = "ClientConfigError";

  constructor(shortMessage: string, details?: string) {
    super(shortMessage, { details, docsPath: "#clientconfigerror" });
  }
}
