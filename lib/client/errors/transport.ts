import { BaseError } from "./base";

/** Where a failed request was: its method and (redacted) path. */
export interface RequestLocation {
  /** Request method. */
  method: string;
  /** Request path, secrets redacted. */
  path: string;
}

/** How often and over how long a request was tried before the client gave up. */
export interface AttemptsMade {
  /** How many times the request was sent (1 when it was not retried). */
  readonly attempts: number;
  /** Milliseconds from the first attempt to the failure of the last. */
  readonly elapsedMs: number;
}

/**
 * "5 attempts over 12.4 s": what a retried request cost before it failed, for messages.
 * @example
 * describeAttempts({ attempts: 5, elapsedMs: 12_400 }) // "5 attempts over 12.4 s"
 */
export function describeAttempts(made: AttemptsMade): string {
  return `${made.attempts} attempt${made.attempts === 1 ? "" : "s"} over ${seconds(made.elapsedMs)} s`;
}

/** The `Attempts:` line of an error's message: "Attempts: 5 over 12.4 s", or "Attempts: 5" when the time is unknown. */
export function attemptsLine(made: { attempts: number; elapsedMs?: number | undefined }): string {
  return `Attempts: ${made.attempts}${made.elapsedMs === undefined ? "" : ` over ${seconds(made.elapsedMs)} s`}`;
}

function seconds(ms: number): string {
  return ms < 10_000 ? (ms / 1000).toFixed(1) : String(Math.round(ms / 1000));
}

function requestLines(location: RequestLocation, made?: Partial<AttemptsMade>): string[] {
  const attempts = made?.attempts;
  if (!attempts || attempts <= 1) return [`Request: ${location.method} ${location.path}`];
  return [`Request: ${location.method} ${location.path}`, attemptsLine({ attempts, elapsedMs: made.elapsedMs })];
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
  /** Milliseconds from the first attempt to the end of the last. */
  readonly elapsedMs: number;

  constructor(parameters: RequestLocation & { timeoutMs: number; attempts: number; elapsedMs?: number; cause?: unknown }) {
    super(`The request took longer than ${parameters.timeoutMs} ms.`, {
      cause: parameters.cause,
      details: "The service did not answer in time. Raise `timeoutMs` or check that the service is healthy.",
      docsPath: "#timeouterror",
      metaMessages: requestLines(parameters, parameters),
    });
    this.method = parameters.method;
    this.path = parameters.path;
    this.timeoutMs = parameters.timeoutMs;
    this.attempts = parameters.attempts;
    this.elapsedMs = parameters.elapsedMs ?? 0;
  }
}

/**
 * The base URL says `https://` but the service there speaks plain HTTP: the TLS handshake read an HTTP answer.
 * Nothing was sent and nothing is retried (another attempt meets the same service).
 *
 * @example
 * catch (error) { if (error instanceof PlainHttpServiceError) console.log(`try ${error.suggestedBaseUrl}`) }
 */
export class PlainHttpServiceError extends BaseError {
  override name = "PlainHttpServiceError";
  /** Request method. */
  readonly method: string;
  /** Request path, secrets redacted. */
  readonly path: string;
  /** The TLS error code, e.g. `ERR_SSL_WRONG_VERSION_NUMBER`. */
  readonly code: string | undefined;

  constructor(parameters: RequestLocation & { code: string | undefined; details: string; cause?: unknown }) {
    super("The service at the base URL speaks plain HTTP, not HTTPS.", {
      cause: parameters.cause,
      details: `Use http:// in the base URL (accepted for loopback hosts), or serve TLS (\`chainform serve --tls\`). ${parameters.details}`,
      docsPath: "#plainhttpserviceerror",
      metaMessages: requestLines(parameters),
    });
    this.method = parameters.method;
    this.path = parameters.path;
    this.code = parameters.code;
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
  /** Milliseconds from the first attempt to the end of the last. */
  readonly elapsedMs: number;

  constructor(
    parameters: RequestLocation & {
      code: string | undefined;
      sent: boolean;
      attempts: number;
      elapsedMs?: number;
      details: string;
      cause?: unknown;
    },
  ) {
    super(parameters.sent ? "The connection to the service broke before it answered." : "Could not connect to the service.", {
      cause: parameters.cause,
      details: parameters.details,
      docsPath: "#connectionerror",
      metaMessages: requestLines(parameters, parameters),
    });
    this.method = parameters.method;
    this.path = parameters.path;
    this.code = parameters.code;
    this.sent = parameters.sent;
    this.attempts = parameters.attempts;
    this.elapsedMs = parameters.elapsedMs ?? 0;
  }
}

/**
 * The TLS handshake failed because the client does not trust the service's certificate (self-signed, unknown CA,
 * expired, or not naming the host). Nothing was sent, and the request is not retried: it cannot succeed until the
 * settings change.
 *
 * @example
 * createClient({ baseUrl: "https://build-box:8787", accessKey, caFile: ".chainform/tls-cert.pem" })
 */
export class CertificateError extends BaseError {
  override name = "CertificateError";
  /** Request method. */
  readonly method: string;
  /** Request path, secrets redacted. */
  readonly path: string;
  /** The TLS error code, e.g. `DEPTH_ZERO_SELF_SIGNED_CERT`, `ERR_TLS_CERT_ALTNAME_INVALID`. */
  readonly code: string;

  constructor(parameters: RequestLocation & { code: string; details: string; cause?: unknown }) {
    super(
      parameters.code === "ERR_TLS_CERT_ALTNAME_INVALID"
        ? "The service's TLS certificate does not name the host of the base URL."
        : `The service's TLS certificate is not trusted (${parameters.code}).`,
      {
        cause: parameters.cause,
        details:
          parameters.code === "ERR_TLS_CERT_ALTNAME_INVALID"
            ? `Use a base URL whose host the certificate names (chainform serve prints one). ${parameters.details}`
            : `For a service started with \`chainform serve --tls\`, set caFile (CHAINFORM_CA_FILE, provider argument ca_file) to the certificate file its ready line names. ${parameters.details}`,
        docsPath: "#certificateerror",
        metaMessages: requestLines(parameters),
      },
    );
    this.method = parameters.method;
    this.path = parameters.path;
    this.code = parameters.code;
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
  /** The client option at fault, when one is (e.g. `caFile`). */
  readonly option: string | undefined;

  constructor(shortMessage: string, details?: string, where: { option?: string } = {}) {
    super(shortMessage, { details, docsPath: "#clientconfigerror" });
    this.option = where.option;
  }
}
