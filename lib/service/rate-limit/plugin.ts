/**
 * The API's rate limits (docs/service.md "Access"; ./index.ts counts): every request counts in its key's
 * window when authenticated, in its address's window otherwise, and gets the `X-Svc-*` headers; past the limit it is
 * answered 429 with the spec's body. CORS preflights are reported, never counted, never refused. The RPC URLs count
 * in the same limiter (`app.service.limiter`), in their own windows (rpc/pipeline.ts).
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Authentication } from "../auth";
import "../context";
import { errorBody } from "../errors";
import type { RateDecision } from "./index";
import { global } from "../global-plugin";

/** The message of every 429. */
export const TOO_MANY_REQUESTS = "too many requests: back off until X-Svc-Reset-Timestamp";

/**
 * Counts a request (by its authentication) and sets the rate headers on its reply; false when it has been answered
 * 429. Framework errors (answered before any hook) call it too.
 */
export function takeRequestRate(request: FastifyRequest, reply: FastifyReply, authentication: Authentication): boolean {
  const { limiter, rateLimits } = request.server.service;
  const count = request.method !== "OPTIONS";
  const decision: RateDecision =
    authentication.kind === "authenticated"
      ? limiter.take(authentication.requester.rateKey, rateLimits.rateLimit, rateLimits.burstLimit, count)
      : limiter.take(`ip:${request.ip}`, rateLimits.unauthenticatedLimit, rateLimits.burstLimit, count);
  reply.headers({
    "x-svc-limit": decision.limit,
    "x-svc-remaining": decision.remaining,
    "x-svc-reset-timestamp": decision.resetTimestamp,
  });
  if (decision.allowed) return true;
  reply.code(429).send(errorBody(429, TOO_MANY_REQUESTS));
  return false;
}

/** Counts every request after authentication (auth/plugin.ts `authenticate`), and answers 429 past the limit. */
export const rateLimit = global(async (app) => {
  app.addHook("onRequest", async (request, reply) => {
    if (!takeRequestRate(request, reply, request.authentication)) return reply;
  });
});
