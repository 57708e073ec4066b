/**
 * How the CLI reports failures: one line saying what went wrong and what to do, a non-zero exit code, and the
 * details only with `--verbose`. Every line passes through a redactor, so no access key, bearer token or Admin RPC
 * secret reaches the terminal.
 */
import {
  ApiError,
  BaseError,
  CertificateError,
  ClientConfigError,
  ConnectionError,
  InsecureUrlError,
  PlainHttpServiceError,
  RateLimitError,
  TimeoutError,
  describeAttempts,
  optionsFromEnv,
} from "../client";
import { createRedactor } from "../client/transport/redact";
import { UsageError } from "./command";

/** Exit code of a failure that is not bad usage. */
export const EXIT_ERROR = 1;
/** Exit code of bad usage (unknown flag, missing argument). */
export const EXIT_USAGE = 2;

/** A failure the CLI explains in one line (`message`: what is wrong and what to do); `details` show with --verbose. */
export class CliError extends Error {
  override readonly name = "CliError";
  /** Longer explanation, e.g. a tool's own output; shown with --verbose. */
  readonly details: string | undefined;
  /** The process exit code. */
  readonly exitCode: number;

  constructor(message: string, options: { details?: string; exitCode?: number; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.details = options.details;
    this.exitCode = options.exitCode ?? EXIT_ERROR;
  }
}

/** What the CLI prints for a failure. */
export interface ExplainedError {
  /** One line: what went wrong and what to do. */
  readonly line: string;
  /** Details for --verbose, or "". */
  readonly details: string;
  readonly exitCode: number;
}

/** A redactor for everything the CLI prints: the credentials in `env` and every Admin RPC secret. */
export function redactorFor(env: NodeJS.ProcessEnv = process.env): (text: string) => string {
  return createRedactor([env.CHAINFORM_ACCESS_KEY, env.CHAINFORM_BEARER_TOKEN]);
}

const CREDENTIALS_HINT =
  "set CHAINFORM_ACCESS_KEY to a valid access key (`chainform serve` prints one in its ready line, `chainform up --keep` the export line of its service) or CHAINFORM_BEARER_TOKEN to a valid token (`chainform token`)";

/**
 * Turns any error into the one line the CLI prints, with its exit code.
 * @example
 * explainError(new ConnectionError({...})).line // "cannot reach the chainform service at http://127.0.0.1:8787: ..."
 */
export function explainError(error: unknown, env: NodeJS.ProcessEnv = process.env, command?: string): ExplainedError {
  const baseUrl = optionsFromEnv({}, env).baseUrl;
  const details = error instanceof CliError ? (error.details ?? "") : error instanceof Error ? error.message : String(error);
  const explained = (line: string, exitCode = EXIT_ERROR): ExplainedError => ({ line, details: details === line ? "" : details, exitCode });

  if (error instanceof CliError) return explained(error.message, error.exitCode);
  if (error instanceof UsageError) return explained(error.message, EXIT_USAGE);
  if ((error as { code?: string } | null)?.code?.startsWith("ERR_PARSE_ARGS")) {
    return { line: explainParseArgsError(error as Error & { code: string }, command), details: "", exitCode: EXIT_USAGE };
  }
  if (error instanceof RateLimitError) {
    const seconds = Math.ceil(error.retryAfterMs / 1000);
    return explained(
      `the service's rate limit for this key is used up: wait ${seconds} s and run the command again (limits are per key, so a CI job can use a key of its own)`,
    );
  }
  if (error instanceof ApiError) return explained(explainApiError(error, env));
  if (error instanceof CertificateError) {
    return explained(
      error.code === "ERR_TLS_CERT_ALTNAME_INVALID"
        ? `the TLS certificate of ${baseUrl} does not name that host: set CHAINFORM_BASE_URL to the baseUrl \`chainform serve\` printed`
        : `the TLS certificate of ${baseUrl} is not trusted (${error.code}): set CHAINFORM_CA_FILE to the certificate file \`chainform serve --tls\` printed (caFile in its ready line)`,
    );
  }
  if (error instanceof PlainHttpServiceError) {
    const plain = baseUrl.replace(/^https:/i, "http:");
    return explained(
      `the chainform service at ${baseUrl} speaks plain HTTP, not HTTPS: set CHAINFORM_BASE_URL=${plain} (loopback hosts), or start the service with \`chainform serve --tls\``,
    );
  }
  if (error instanceof ClientConfigError && error.option === "caFile") {
    return explained(`CHAINFORM_CA_FILE is unusable: ${error.shortMessage} ${error.details}`);
  }
  if (error instanceof ConnectionError) {
    return explained(
      error.sent
        ? `the connection to the chainform service at ${baseUrl} broke before it answered (${describeAttempts(error)}): check the service and run the command again`
        : `cannot reach the chainform service at ${baseUrl}: start one with \`npx --no-install chainform serve\`, or set CHAINFORM_BASE_URL to the address of a running service`,
    );
  }
  if (error instanceof TimeoutError) {
    return explained(
      `the chainform service at ${baseUrl} did not answer within ${Math.round(error.timeoutMs / 1000)} s: check that it is healthy and run the command again`,
    );
  }
  if (error instanceof InsecureUrlError) {
    return explained(
      `CHAINFORM_BASE_URL uses plain http:// for ${error.host}, which would send the key in clear text: use https:// (http:// is only for loopback hosts)`,
    );
  }
  if (error instanceof ClientConfigError) {
    if (/accountSlug|projectSlug/.test(error.shortMessage)) {
      return explained("no project chosen: set CHAINFORM_ACCOUNT and CHAINFORM_PROJECT (the local service's default project is acme/demo)");
    }
    return explained(`the client settings are unusable: ${error.shortMessage} Check the CHAINFORM_* variables.`);
  }
  if (error instanceof BaseError) return explained(error.shortMessage);
  return explained(error instanceof Error ? error.message : String(error));
}

/**
 * A failure to listen (Node's `listen EADDRINUSE 127.0.0.1:8787`) as a line saying what to do, or the error itself
 * when it is something else.
 * @example
 * listenFailure(Object.assign(new Error("listen EADDRINUSE"), { code: "EADDRINUSE" }), "127.0.0.1", 8787, "--port N")
 * // CliError("port 8787 on 127.0.0.1 is already in use (...): stop what listens there, or pass --port N ...")
 */
export function listenFailure(error: unknown, host: string, port: number, portFlag: string): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === "EADDRINUSE") {
    return new CliError(
      `port ${port} on ${host} is already in use (another \`chainform serve\` or \`up --keep\`?): stop what listens there, or pass ${portFlag} with another port (0 picks a free one)`,
      { cause: error },
    );
  }
  if (code === "EACCES") {
    return new CliError(
      `this user may not listen on port ${port} (ports below 1024 need privileges): pass ${portFlag} with a port of 1024 or above`,
      { cause: error },
    );
  }
  if (code === "EADDRNOTAVAIL") {
    return new CliError(
      `${host} is not an address of this machine: pass --host with one of its addresses (127.0.0.1, or 0.0.0.0 for all)`,
      { cause: error },
    );
  }
  return error;
}

/**
 * node:util's parseArgs messages in the CLI's words: `Option '--seed <value>' argument missing` becomes
 * `--seed needs a value: ...`, and an unknown option loses the advice about `--` (with its stray quote).
 */
export function explainParseArgsError(error: Error & { code: string }, command?: string): string {
  const help = command ? `\`chainform ${command} --help\` lists the options` : "`chainform --help` lists the commands";
  const quoted = /'(-[^' ]+)/.exec(error.message)?.[1];
  switch (error.code) {
    case "ERR_PARSE_ARGS_UNKNOWN_OPTION":
      return `unknown option ${quoted ?? error.message}: ${help}`;
    case "ERR_PARSE_ARGS_INVALID_OPTION_VALUE":
      if (quoted && /argument missing/.test(error.message))
        return `${quoted} needs a value: pass it as \`${quoted} VALUE\` or \`${quoted}=VALUE\``;
      if (quoted && /does not take an argument/.test(error.message)) return `${quoted} takes no value: pass it alone`;
      return `${error.message}: ${help}`;
    case "ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL": {
      const argument = /Unexpected argument '(.*)'\./.exec(error.message)?.[1];
      return `unexpected argument ${JSON.stringify(argument ?? "")}: this command takes none; ${help}`;
    }
    default:
      return `${error.message}: ${help}`;
  }
}

function explainApiError(error: ApiError, env: NodeJS.ProcessEnv): string {
  const quoted = `${error.status}${error.slug ? ` ${error.slug}` : ""}${error.errorId ? `, error id ${error.errorId}` : ""}`;
  if (error.status === 401) {
    const given = env.CHAINFORM_ACCESS_KEY || env.CHAINFORM_BEARER_TOKEN;
    return given
      ? `the service rejected the credentials (${quoted}): ${CREDENTIALS_HINT}`
      : `no credentials (${quoted}): ${CREDENTIALS_HINT}`;
  }
  if (error.status === 403) return `the key may not do this (${quoted}): use a key with write access to the project`;
  if (error.status === 404 && /project|account/.test(String(error.rid))) {
    const options = optionsFromEnv({}, env);
    return `project ${options.accountSlug ?? "?"}/${options.projectSlug ?? "?"} was not found or this key cannot see it (${quoted}): check CHAINFORM_ACCOUNT and CHAINFORM_PROJECT`;
  }
  const gaveUp = error.attempts > 1 ? ` (gave up after ${describeAttempts(error)})` : "";
  return `the service answered ${quoted}${gaveUp}: ${error.shortMessage}`;
}
