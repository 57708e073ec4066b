/**
 * Answers for requests Node's HTTP parser rejects before Fastify sees them (bad Content-Length, unknown methods,
 * obs-fold, bare LF, oversized headers, timeouts): the spec's error body and the `X-Svc-*` headers like every other
 * answer (docs/service.md "Errors"), instead of Fastify's default `{"error":"Bad Request","message":"Client Error"}`.
 */
import type { Socket } from "node:net";
import { errorBody, type ErrorData } from "./index";
import type { RateDecision } from "../rate-limit";

const STATUS_TEXT = { 400: "Bad Request", 404: "Not Found", 429: "Too Many Requests" } as const;

/** Why the parser refused the request, in words a client can act on. */
function reasonOf(code: string | undefined): string {
  switch (code) {
    case "HPE_HEADER_OVERFLOW":
      return "the request headers are too large";
    case "HPE_INVALID_METHOD":
      return "unknown HTTP method";
    case "ERR_HTTP_REQUEST_TIMEOUT":
    case "ERR_HTTP_HEADERS_TIMEOUT":
      return "the request was not received in time";
    default:
      return `malformed HTTP request${code ? ` (${code})` : ""}`;
  }
}

/**
 * The raw HTTP answer to a request the parser refused: 400 `bad_request` (429 when the client is over its limit),
 * with the error body, the rate headers, and `Connection: close` (the connection cannot be trusted any more).
 */
export function clientErrorAnswer(error: { code?: string }, rate: RateDecision): string {
  const status = rate.allowed ? 400 : 429;
  return rawErrorAnswer(status, `${reasonOf(error.code)}: the request could not be read`, rate);
}

/** A whole HTTP/1.1 error answer as raw text, for sockets no Fastify reply owns: the spec's body, the rate headers. */
export function rawErrorAnswer(status: 400 | 404 | 429, message: string, rate: RateDecision, data?: ErrorData): string {
  const body = JSON.stringify(errorBody(status, message, data));
  return [
    `HTTP/1.1 ${status} ${STATUS_TEXT[status]}`,
    "Content-Type: application/json; charset=utf-8",
    `Content-Length: ${Buffer.byteLength(body)}`,
    `X-Svc-Limit: ${rate.limit}`,
    `X-Svc-Remaining: ${rate.remaining}`,
    `X-Svc-Reset-Timestamp: ${rate.resetTimestamp}`,
    "Connection: close",
    "",
    body,
  ].join("\r\n");
}

/** Writes the answer when the socket can still take it, then closes it; a reset connection is only closed. */
export function answerClientError(error: Error & { code?: string }, socket: Socket, rate: (address: string) => RateDecision): void {
  if (error.code === "ECONNRESET" || socket.destroyed) return;
  // Bytes after a request that asked to close (`Connection: close`) are not read: the answer to that request, which
  // may still be on its way, is the connection's last, and Node closes it then.
  if (error.code === "HPE_CLOSED_CONNECTION") return;
  if (socket.writable) socket.end(clientErrorAnswer(error, rate(socket.remoteAddress ?? "unknown")));
  else socket.destroy();
}
