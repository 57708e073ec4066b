/**
 * The service's structured log: Fastify's logger (pino, one JSON object a line) to stderr or a file. Every line
 * passes through a scrubber first, so no secret reaches it: Admin RPC URL secrets, dashboard sign-in tokens, access
 * keys, bearer tokens (JWTs), Authorization header values and the upstream RPC URLs (they carry API keys).
 */
import type { FastifyServerOptions } from "fastify";

/** What stands in for a secret in the log. */
export const REDACTED = "[redacted]";

/** How the service logs. */
export interface LogSettings {
  /** pino level: fatal, error, warn, info (default), debug, trace, silent. */
  readonly level?: string;
  /** Append to this file instead of writing to stderr. */
  readonly file?: string;
  /** Upstream RPC URLs (secrets) to scrub wherever they appear. */
  readonly secrets?: readonly string[];
}

/** The log levels `--log-level` takes. */
export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;

/**
 * A regular expression source that matches `word` in any case, each letter written as itself or percent-encoded
 * (`admin`, `ADMIN`, `%61dmin`, `%41%44min`): a path is decoded before it is routed (rpc/route.ts), so every
 * spelling that reaches an RPC URL, or looks like one, must be found here too (and a doubly encoded `%2561` as well:
 * a proxy in front may decode once more).
 */
function anySpelling(word: string): string {
  const escape = (code: number) => `%(?:25)*${code.toString(16)[0]}[${code.toString(16)[1]}${code.toString(16)[1].toUpperCase()}]`;
  return [...word]
    .map(
      (c) => `(?:${c.toLowerCase()}|${c.toUpperCase()}|${escape(c.toLowerCase().charCodeAt(0))}|${escape(c.toUpperCase().charCodeAt(0))})`,
    )
    .join("");
}

/** One or more slashes, as written or percent-encoded. */
const SLASHES = "(?:/|%2[fF])+";
/** An Admin RPC URL's path in any spelling, up to its secret's end (the secret may hold encoded slashes or more segments). */
// It starts only at the first slash of a run: a text of slashes is then read once, not once per slash.
const ADMIN_RPC_PATH = new RegExp(
  `(?<!/|%2[fF])${SLASHES}${anySpelling("rpc")}${SLASHES}${anySpelling("admin")}(?:${SLASHES}[^?#\\s"'<>]*)+`,
  "g",
);
/** A `token` query parameter in any spelling, up to its value's end. */
const TOKEN_PARAMETER = new RegExp(`([?&;]${anySpelling("token")}(?:=|%3[dD]))[^&#\\s"']*`, "g");

/**
 * A path segment shaped as an Admin RPC secret (32 random bytes, base64url: 43 characters): the hosted clients' doors
 * carry it where the hosted service puts a vnet's key (`/api/v1/vnet-type/{key}`, `…/etherscan/verify/testnet/{key}`,
 * `…/fork/{key}/verify` on `rpc.tenderly.co`), so it is redacted wherever it stands in a path.
 */
const SECRET_SEGMENT = /(?<=\/|%2[fF])[A-Za-z0-9_-]{43}(?=[/?#;\s"'<>]|%2[fF]|$)/g;

/** A dot segment (`.` or `..`, its dots as written or percent-encoded, once or more), after a slash. */
const DOT_SEGMENT = /(?:\/|%(?:25)*2f)(?:\.|%(?:25)*2e){1,2}(?=\/|%(?:25)*2f|[?#;\s"'<>]|$)/i;
/** A run of text that may be a URL or a path (up to its query). */
const PATH_LIKE = /[^\s"'<>?#]+/g;
/** A slash, as written or percent-encoded. */
const ANY_SLASH = /\/|%(?:25)*2f/i;

/**
 * A path with dot segments, with its Admin RPC secret redacted as it may be reached: its dot segments resolved as a
 * browser or a proxy resolves them (`/rpc/x/%2e%2e/admin/k` is `/rpc/admin/k`), or else dropped (`/rpc/admin/k/..`
 * still shows `k`). A path with no secret either way is left as it is.
 */
function redactDotted(path: string): string {
  const segments = path.split(ANY_SLASH);
  const resolved: string[] = [];
  const dropped: string[] = [];
  for (const segment of segments) {
    const plain = segment.replace(/%(?:25)*2e/gi, ".");
    if (plain !== "." && plain !== "..") dropped.push(segment);
    if (plain !== "..") {
      if (plain !== ".") resolved.push(segment);
    } else if (resolved.length > 1) resolved.pop();
  }
  for (const candidate of [resolved.join("/"), dropped.join("/")]) {
    const redacted = redactAdminPath(candidate);
    if (redacted !== candidate) return redacted;
  }
  return path;
}

function redactAdminPath(text: string): string {
  return text.replace(ADMIN_RPC_PATH, `/rpc/admin/${REDACTED}`);
}

/**
 * Redacts the secret of Admin RPC URLs, any path segment shaped as one, and dashboard sign-in tokens (`token=`) from a
 * URL, a path or any text, for logs and error messages, in every spelling a request may use (percent-encoded, any case, doubled slashes, dot
 * segments: a text with one has them resolved first).
 *
 * @example
 * redactUrl("/rpc/admin/abc?x=1") // "/rpc/admin/[redacted]?x=1"
 * redactUrl("/rpc/%61dmin//abc") // "/rpc/admin/[redacted]"
 * redactUrl("/rpc/./admin/abc") // "/rpc/admin/[redacted]"
 */
export function redactUrl(url: string): string {
  const undotted = DOT_SEGMENT.test(url) ? url.replace(PATH_LIKE, (path) => (DOT_SEGMENT.test(path) ? redactDotted(path) : path)) : url;
  return redactAdminPath(undotted).replace(TOKEN_PARAMETER, `$1${REDACTED}`).replace(SECRET_SEGMENT, REDACTED);
}

/**
 * Removes every secret the service knows the shape of from a text: `/rpc/admin/<secret>`, `token=` query values,
 * `cf_` access keys, JWTs, `Bearer`/`Basic` credentials, and the given secrets.
 *
 * @example
 * scrubSecrets("POST /rpc/admin/abc") // "POST /rpc/admin/[redacted]"
 */
export function scrubSecrets(text: string, secrets: readonly string[] = []): string {
  let out = redactUrl(text)
    .replace(/\bcf_[A-Za-z0-9_-]{8,}/g, REDACTED)
    .replace(/\beyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g, REDACTED)
    // Prose ("send X-Access-Key, Basic or Bearer") is no credential: the service's own 401 message read "Basic [redacted] Bearer".
    .replace(/\b(Bearer|Basic)\s+(?!(?:or|and|to|the|an?|credentials?)\b)[A-Za-z0-9._~+/=-]+/gi, `$1 ${REDACTED}`);
  for (const secret of secrets) if (secret.length >= 4) out = out.split(secret).join(REDACTED);
  return out;
}

/**
 * Applies `scrub` to every string inside a plain value (errors become plain objects with their message and stack).
 */
function scrubDeep(value: unknown, scrub: (text: string) => string, depth = 0): unknown {
  if (typeof value === "string") return scrub(value);
  if (depth > 8 || value === null || typeof value !== "object") return value;
  if (value instanceof Error) {
    const { name, message, stack } = value;
    const code = (value as { code?: unknown }).code;
    return { type: name, message: scrub(message), stack: stack && scrub(stack), ...(code !== undefined && { code }) };
  }
  if (Array.isArray(value)) return value.map((v) => scrubDeep(v, scrub, depth + 1));
  // Requests, replies and other instances are left to their serializers (below), which keep only safe fields.
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, scrubDeep(v, scrub, depth + 1)]));
}

/** Fastify's logger options for these settings: stderr or a file, every argument scrubbed. */
export function loggerOptions(settings: LogSettings = {}): FastifyServerOptions["logger"] {
  const scrub = (text: string) => scrubSecrets(text, settings.secrets);
  return {
    level: settings.level ?? "info",
    ...(settings.file ? { file: settings.file } : { stream: process.stderr }),
    hooks: {
      logMethod(args: unknown[], method: (...args: unknown[]) => void) {
        method.apply(
          this,
          args.map((arg) => scrubDeep(arg, scrub)),
        );
      },
    },
    serializers: {
      req: (request: { method: string; url: string; ip?: string }) => ({
        method: request.method,
        url: scrub(request.url),
        remoteAddress: request.ip,
      }),
    },
  } as FastifyServerOptions["logger"];
}
