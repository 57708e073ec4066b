/**
 * CORS for the API and the web UI (./index.ts has the headers and the rule of which paths get them): every answer
 * to a request with an `Origin` carries them, and a preflight (`OPTIONS`) is answered 204 once the rate plugin has
 * set its headers. The RPC URLs answer their own preflights (rpc/http.ts).
 */
import { addCorsHeaders } from "./index";
import { global } from "../global-plugin";

/** Adds the CORS headers first thing, so that every answer has them (a 401 or 429 too). */
export const corsHeaders = global(async (app) => {
  app.addHook("onRequest", async (request, reply) => addCorsHeaders(request, reply));
});

/** Answers a preflight 204 (registered after the rate plugin: a preflight is reported in the rate headers, never counted). */
export const corsPreflight = global(async (app) => {
  app.addHook("onRequest", async (request, reply) => {
    if (request.method === "OPTIONS") return reply.code(204).send();
  });
});
