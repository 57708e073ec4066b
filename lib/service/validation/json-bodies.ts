/**
 * The API's bodies: JSON only (any other content type is a 400), where an empty body of a body-less request (a
 * DELETE, a stop) is no body at all, and a body whose schema requires no field may be left out entirely (simulation
 * bodies: every field optional): it is then `{}`. (Fastify validates a missing body as null, the same as a JSON
 * `null`, which stays a 400.)
 */
import { global } from "../global-plugin";

/** Registers the JSON parser and the empty-body rule. */
export const jsonBodies = global(async (app) => {
  app.addHook("preValidation", async (request) => {
    const schema = request.routeOptions.schema?.body as { type?: string; required?: string[] } | undefined;
    if (request.body === undefined && schema?.type === "object" && (schema.required ?? []).length === 0) request.body = {};
  });
  const parseJson = app.getDefaultJsonParser("error", "error");
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("application/json", { parseAs: "string" }, (request, body, done) => {
    if (body === "") return done(null, undefined);
    parseJson(request, body as string, done);
  });
});
