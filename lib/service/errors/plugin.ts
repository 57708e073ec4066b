/**
 * The API's one error handler (docs/service.md "Errors"): every error becomes a status of the spec's table and its
 * error body; a 5xx hides the cause, carries an error id and is logged with it (also a 5xx answered without passing
 * the handler); an unknown path is the spec's 404. No message quotes a request's path: any segment of it may be a
 * secret (an access key, an Admin RPC secret, a sign-in token), so a message names the route's shape instead, with
 * only the words the service's own routes are made of.
 */
import type { IncomingMessage } from "node:http";
import type { FastifyRequest } from "fastify";
import { DEFAULT_RPC_LIMITS } from "../caller-limits";
import { ChainRequestError } from "../chains";
import { diskFullMessage, errorBody, isDiskFull, knownStatus, sendError, ServiceError, type ErrorData } from "./index";
import { parseHostedHost } from "../../domain/hosted-names";
import { REDACTED, scrubSecrets } from "../log";
import { global } from "../global-plugin";

export { sendError };

/** The error handler, the 404 handler and the 5xx log. `bodyLimit` names the limit in the 400 of an oversized body. */
export const errors = global<{ bodyLimit: number }>(async (app, { bodyLimit }) => {
  // Every 5xx is in the log with its error id, also those answered without passing the error handler.
  const loggedErrors = new WeakSet<FastifyRequest>();
  app.setErrorHandler(async (error, request, reply) => {
    const { status, message, data } = classify(error, bodyLimit);
    const body = errorBody(status, message, data);
    // Fastify refuses a body over its route's limit before reading it, and closes the connection in case more of it is
    // on the way: a caller still sending then sees a broken pipe, not the answer. The rest is read away first (up to
    // a bound), so every such request gets its answer, and a body read to its end leaves the connection usable.
    const code = (error as { code?: unknown }).code;
    if (code === "FST_ERR_CTP_BODY_TOO_LARGE") await readAway(request.raw, DEFAULT_RPC_LIMITS.discardBytes);
    if (typeof code === "string" && code.startsWith("FST_ERR_CTP_") && request.raw.complete) reply.removeHeader("connection");
    if (status >= 500) {
      loggedErrors.add(request);
      request.log.error({ errorId: body.error.id, status, err: error }, "request failed");
    }
    return reply.code(status).send(body);
  });
  app.addHook("onSend", async (request, reply, payload) => {
    if (reply.statusCode >= 500 && !loggedErrors.has(request) && typeof payload === "string") {
      request.log.error({ errorId: errorIdIn(payload), status: reply.statusCode }, "request failed");
    }
    return payload;
  });
  // The fixed words of every route (`public`, `v1`, `environments`, ...): the only segments a message may show.
  const words = new Set<string>();
  app.addHook("onRoute", (route) => {
    for (const segment of route.url.split("/")) if (/^[a-z][a-z0-9_-]*$/.test(segment)) words.add(segment);
  });
  app.setNotFoundHandler((request, reply) => {
    // Under a hosted host name a path's segment may be a key or a secret: the path is never quoted there.
    const hostedHost = parseHostedHost(request.headers.host);
    if (hostedHost)
      return sendError(
        reply,
        404,
        `no route ${routeShape(request.method, "/", words).split(" ")[0]} on this ${hostedHost.kind} host: see docs/hosted-clients.md`,
      );
    sendError(reply, 404, `no route ${routeShape(request.method, request.url, words)}`);
  });
});

/** Reads a request's body to its end and drops it; stops past `bound` bytes (the connection then closes). */
function readAway(request: IncomingMessage, bound: number): Promise<void> {
  if (request.complete || request.destroyed) return Promise.resolve();
  return new Promise((done) => {
    let size = 0;
    const finish = () => {
      request.removeListener("data", onData);
      done();
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > bound) {
        request.pause();
        finish();
      }
    };
    request.on("data", onData);
    request.once("end", finish);
    request.once("close", finish);
    request.once("error", finish);
    request.resume();
  });
}

/** The longest method name shown (a request may name any). */
const LONGEST_METHOD = 16;

/**
 * How a 404 names a request: its method and its path with each segment that is not one of `words` written `{…}`.
 *
 * @example
 * routeShape("POST", "/cf_abc123?x=1", new Set(["v1"])) // "POST /{…}"
 * routeShape("GET", "/v1/nope/x", new Set(["v1"])) // "GET /v1/{…}/{…}"
 */
export function routeShape(method: string, url: string, words: ReadonlySet<string>): string {
  const path = url.split(/[?#]/, 1)[0];
  const segments = path
    .split("/")
    .slice(1, 33)
    .map((segment) => (segment === "" || words.has(segment) ? segment : "{…}"));
  const shown = /^[A-Z]{1,16}$/.test(method) ? method : `${method.slice(0, LONGEST_METHOD).replace(/[^A-Za-z]/g, "?")}`;
  return `${shown} /${segments.join("/")}${path.split("/").length > 33 ? "/…" : ""}`;
}

/** The message of an error Fastify meets before routing (a path it cannot decode): never the path itself. */
export function frameworkErrorMessage(error: { code?: string; message: string }): string {
  if (error.code === "FST_ERR_BAD_URL") return "the request's path is not valid percent-encoded UTF-8";
  return `the request could not be routed${error.code ? ` (${error.code})` : ""}`;
}

/** Maps any error to a status of the spec's table and a message safe to show. */
function classify(error: unknown, bodyLimit: number): { status: ReturnType<typeof knownStatus>; message: string; data?: ErrorData } {
  if (error instanceof ServiceError) return { status: error.status, message: withoutSecrets(error.message), data: error.data };
  if (error instanceof ChainRequestError) {
    return { status: error.status, message: withoutSecrets(error.message), data: error.field ? { field: error.field } : undefined };
  }
  const fastifyError = error as { code?: string; statusCode?: number; message?: string };
  switch (fastifyError.code) {
    case "FST_ERR_CTP_BODY_TOO_LARGE":
      return { status: 400, message: `request body larger than ${bodyLimit} bytes` };
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
      return { status: 400, message: "unsupported Content-Type: send application/json" };
    case "FST_ERR_CTP_INVALID_JSON_BODY":
    case "FST_ERR_CTP_EMPTY_JSON_BODY":
      return { status: 400, message: `invalid JSON body: ${fastifyError.message}` };
  }
  if (error instanceof SyntaxError) return { status: 400, message: `invalid JSON body: ${error.message}` };
  if (isDiskFull(error)) return { status: 503, message: diskFullMessage() };
  const status = fastifyError.statusCode ?? 500;
  if (status >= 400 && status < 500) return { status: knownStatus(status), message: scrubSecrets(String(fastifyError.message)) };
  return { status: 500, message: "internal server error: quote the error id when reporting it" };
}

/** A word of 32 random bytes in base64url, as Admin RPC secrets and the service's own secrets are written. */
const SECRET_WORD = /(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/g;

/**
 * A route's message with what may be a secret taken out: routes quote the id a request named (`environment {id} not
 * found`), and a caller may have put an access key, a token or an Admin RPC secret there.
 */
function withoutSecrets(message: string): string {
  return scrubSecrets(message).replace(SECRET_WORD, REDACTED);
}

/** The error id of an error body, or undefined. */
function errorIdIn(payload: string): string | undefined {
  try {
    return (JSON.parse(payload) as { error?: { id?: string } }).error?.id;
  } catch {
    return undefined;
  }
}
