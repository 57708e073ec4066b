/**
 * Cross-origin headers exactly as docs/api.md "Conventions" lists them: the origin echoed, credentials allowed,
 * the methods, the `X-Svc-*` headers exposed, and a max age. Preflights are answered by the app's request hook.
 * The API authenticates with headers a page of another origin must supply itself, so echoing the origin is safe
 * there. The dashboard authenticates with a cookie the browser adds on its own (and a page on another port of the
 * same host is same-site, so SameSite does not keep it back): it is same-origin only and gets no CORS headers.
 *
 * This folder is CORS's one home: the headers and the rule (here, which the RPC URLs use as well) and the API's
 * plugin (./plugin.ts).
 */
import type { FastifyReply, FastifyRequest } from "fastify";

/** Methods the API uses. */
export const CORS_ALLOW_METHODS = "GET, POST, PUT, PATCH, DELETE, OPTIONS";
/** Response headers a browser may read: the rate limit headers. */
export const CORS_EXPOSE_HEADERS = "X-Svc-Limit, X-Svc-Remaining, X-Svc-Reset-Timestamp";
/** Request headers a browser may send when the preflight names none. */
export const CORS_ALLOW_HEADERS = "Content-Type, X-Access-Key, Authorization";
/** How long a browser may cache a preflight, in seconds. */
export const CORS_MAX_AGE_SECONDS = 86_400;

/** Paths served to the service's own pages only (cookie-authenticated): no CORS headers there. */
const SAME_ORIGIN_ONLY = /^\/dashboard(?:[/?#]|$)/;

/** Adds the CORS headers to a response of a request with an `Origin` (none under `/dashboard`). */
export function addCorsHeaders(request: FastifyRequest, reply: FastifyReply): void {
  const origin = request.headers.origin;
  if (origin === undefined || SAME_ORIGIN_ONLY.test(request.routeOptions.url ?? request.url)) return;
  reply.headers(corsHeaders(origin));
  if (request.method === "OPTIONS") {
    reply.header("access-control-allow-headers", request.headers["access-control-request-headers"] ?? CORS_ALLOW_HEADERS);
  }
}

/** The CORS headers of an answer to a request from `origin` (a POST: preflights add `access-control-allow-headers`). */
export function corsHeaders(origin: string): Record<string, string> {
  return {
    "access-control-allow-origin": origin,
    "access-control-allow-credentials": "true",
    "access-control-allow-methods": CORS_ALLOW_METHODS,
    "access-control-expose-headers": CORS_EXPOSE_HEADERS,
    "access-control-max-age": String(CORS_MAX_AGE_SECONDS),
    vary: "Origin",
  };
}
