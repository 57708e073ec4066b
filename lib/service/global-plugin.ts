/**
 * Fastify encapsulates what a plugin registers (hooks, handlers) to that plugin's own routes. The API's
 * cross-cutting plugins (cors/plugin.ts, auth/plugin.ts, rate-limit/plugin.ts, errors/plugin.ts,
 * validation/json-bodies.ts) apply to every route of the app instead: they are marked as fastify-plugin marks them,
 * which tells Fastify not to encapsulate. (fastify-plugin itself is not a dependency of this package, nor in Fastify's
 * own tree; the mark is one well-known symbol.)
 */
import type { FastifyPluginAsync } from "fastify";

/** Marks a plugin so that what it registers applies to the app it is registered on (fastify-plugin's `skip-override`). */
export function global<Options>(plugin: FastifyPluginAsync<NonNullable<Options>>): FastifyPluginAsync<NonNullable<Options>> {
  (plugin as unknown as Record<symbol, boolean>)[Symbol.for("skip-override")] = true;
  return plugin;
}
