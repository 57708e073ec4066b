/**
 * Authentication for the API (docs/service.md "Access"): `authenticate` reads the credentials of every request
 * (X-Access-Key, Basic, Bearer) into `request.authentication`, for the rate plugin's bucket; `requireCredentials`,
 * registered after the rate plugin and the preflight, refuses a route that needs credentials without valid ones
 * (401) and a read-only key's writes (403), and sets `request.requester`. Public routes (`config.public`) and
 * unknown paths take whoever comes.
 */
import type { Authentication, Authenticator, Requester } from "./index";
import { forbidden, unauthorized } from "../errors";
import { global } from "../global-plugin";

declare module "fastify" {
  interface FastifyRequest {
    /** What the request's credentials are: anonymous, invalid, or a requester. */
    authentication: Authentication;
    /** The authenticated user; null on public routes called without credentials. */
    requester: Requester | null;
  }
  interface FastifyContextConfig {
    /** The route needs no credentials (supported networks). */
    public?: boolean;
  }
}

/** Reads the credentials of every request. */
export const authenticate = global<{ authenticator: Authenticator }>(async (app, { authenticator }) => {
  app.decorateRequest("authentication", null as never);
  app.decorateRequest("requester", null);
  app.addHook("onRequest", async (request) => {
    request.authentication = authenticator.authenticate(request.headers);
  });
});

/** Refuses what needs credentials without them, and a read-only key's writes; sets `request.requester`. */
export const requireCredentials = global(async (app) => {
  app.addHook("onRequest", async (request) => {
    const authentication = request.authentication;
    if (request.is404 || request.routeOptions.config?.public) {
      if (authentication.kind === "authenticated") request.requester = authentication.requester;
      return;
    }
    if (authentication.kind === "anonymous") throw unauthorized("missing credentials: send X-Access-Key, Basic or Bearer");
    if (authentication.kind === "invalid") throw unauthorized(authentication.reason);
    const requester = authentication.requester;
    if (requester.readOnly && request.method !== "GET" && request.method !== "HEAD") throw forbidden("this access key is read-only");
    request.requester = requester;
  });
});
