/**
 * Signing in and out: the one-time link (`GET /login?token=`), the access key form (`POST /login`, only from the
 * dashboard's own origin) and sign-out (`POST /logout`, a change like any other).
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import { sendPage } from "../context";
import { signInPage } from "./layout";
import { Sessions } from "./sessions";

/** Registers the sign-in routes. */
export function registerSignIn(app: FastifyInstance, sessions: Sessions): void {
  const config = { public: true };
  const secure = (request: FastifyRequest) => request.protocol === "https";

  app.get<{ Querystring: { token?: string } }>("/login", { config }, async (request, reply) => {
    const token = request.query.token;
    if (!token) return sendPage(reply, 200, signInPage());
    const session = sessions.redeemLoginToken(token);
    if (!session)
      return sendPage(
        reply,
        401,
        signInPage("This sign-in link was already used or has expired (links last 10 minutes). Sign in with your access key."),
      );
    Sessions.setCookie(reply, session, secure(request));
    return reply.redirect("/dashboard/", 303);
  });

  app.post("/login", { config }, async (request, reply) => {
    Sessions.requireOwnOrigin(request);
    const key = (request.body as Record<string, unknown> | undefined)?.access_key;
    const session = typeof key === "string" ? sessions.signInWithKey(key.trim()) : undefined;
    if (!session) return sendPage(reply, 401, signInPage("That access key is not valid."));
    Sessions.setCookie(reply, session, secure(request));
    return reply.redirect("/dashboard/", 303);
  });

  app.post("/logout", { config }, async (request, reply) => {
    const session = sessions.changer(request);
    sessions.close(session);
    Sessions.clearCookie(reply);
    return reply.redirect("/dashboard/login", 303);
  });
}
