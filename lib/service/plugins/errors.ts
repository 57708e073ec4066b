/**
 * The API's one error handler (docs/service.md "Errors"): every error becomes a status of the spec's table and its
 * error body; a 5xx hides the cause, carries an error id and is logged with it (also a 5xx answered without passing
 * the handler); an unknown path is the spec's 404, its Admin RPC secret never echoed.
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import { ChainRequestError } from "../chains";
import { diskFullMessage, errorBody, isDiskFull, knownStatus, ServiceError, type ErrorData } from "../errors";
import { redactUrl } from "../log";
import { global } from "./global";

/** Answers with the spec's error body (a status outside its table becomes the nearest in it). */
export function sendError(reply: FastifyReply, status: number, message: string, data?: ErrorData): void {
  const known = knownStatus(status);
  reply.code(known).send(errorBody(known, message, data));
}

/** The error handler, the 404 handler and the 5xx log. `bodyLimit` names the limit in the 400 of an oversized body. */
export const errors = global<{ bodyLimit: number }>(async (app, { bodyLimit }) => {
  // Every 5xx is in the log with its error id, also those answered without passing the error handler.
  const loggedErrors = new WeakSet<FastifyRequest>();
  app.setErrorHandler((error, request, reply) => {
    const { status, message, data } = classify(error, bodyLimit);
    const body = errorBody(status, message, data);
    if (status >= 500) {
      loggedErrors.add(request);
      request.log.error({ errorId: body.error.id, status, err: error }, "request failed");
    }
    reply.code(status).send(body);
  });
  app.addHook("onSend", async (request, reply, payload) => {
    if (reply.statusCode >= 500 && !loggedErrors.has(request) && typeof payload === "string") {
      request.log.error({ errorId: errorIdIn(payload), status: reply.statusCode }, "request failed");
    }
    return payload;
  });
  app.setNotFoundHandler((request, reply) => {
    sendError(reply, 404, `no route ${request.method} ${redactUrl(request.url.split("?")[0])}`);
  });
});

/** Maps any error to a status of the spec's table and a message safe to show. */
function classify(error: unknown, bodyLimit: number): { status: ReturnType<typeof knownStatus>; message: string; data?: ErrorData } {
  if (error instanceof ServiceError) return { status: error.status, message: error.message, data: error.data };
  if (error instanceof ChainRequestError) {
    return { status: error.status, message: error.message, data: error.field ? { field: error.field } : undefined };
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
  if (status >= 400 && status < 500) return { status: knownStatus(status), message: redactUrl(String(fastifyError.message)) };
  return { status: 500, message: "internal server error: quote the error id when reporting it" };
}

/** The error id of an error body, or undefined. */
function errorIdIn(payload: string): string | undefined {
  try {
    return (JSON.parse(payload) as { error?: { id?: string } }).error?.id;
  } catch {
    return undefined;
  }
}
