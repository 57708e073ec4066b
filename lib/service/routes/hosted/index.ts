/**
 * The hosted clients' API (docs/hosted-clients.md), beside the spec's: the paths the hosted service's own clients
 * call, under the hosted base path `/api`. It serves, under that prefix, the spec's own route families as they are
 * (so `/api/v1/...` and `/api/public/v1/...` are the spec's paths, shapes and rules) and the hosted route families
 * (one file each), which translate the hosted shapes into the same domain rules and service operations. Nothing at
 * the root changes. Under `/api` the account segment may be `me` or a principal id (./account.ts), and an unknown
 * path's 404 names the route's shape, never the path (a segment may be a secret).
 */
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import { HOSTED_BASE_PATH } from "../../../domain/hosted-names";
import { sendError } from "../../errors";
import { resolveAccountSegment } from "./account";
import gateways from "./gateways";
import registry from "./registry";
import simulations from "./simulations";
import verification, { legacyForkVerifier } from "./verification";
import vnets from "./vnets";
import who from "./who";

/** The hosted route families, each a plugin registered under the hosted base path. Add a family here. */
export const HOSTED_ROUTE_FAMILIES: readonly FastifyPluginAsync[] = [vnets, who, registry, simulations, verification];

/** Options of the hosted plugin: the spec's route families, served under the base path too. */
export interface HostedRoutesOptions {
  readonly specFamilies: readonly FastifyPluginAsync[];
}

/**
 * Registers the spec's families and the hosted families under `/api`.
 *
 * @example
 * await app.register(hostedRoutes, { specFamilies: SPEC_ROUTE_FAMILIES });
 */
export default async function hostedRoutes(app: FastifyInstance, options: HostedRoutesOptions): Promise<void> {
  await app.register(gateways);
  await app.register(legacyForkVerifier);
  await app.register(
    async (api) => {
      const vocabulary = new Set<string>();
      api.addHook("onRoute", (route) => {
        for (const segment of route.url.split("/")) if (segment !== "" && !segment.startsWith(":")) vocabulary.add(segment);
      });
      api.addHook("preValidation", resolveAccountSegment);
      api.setNotFoundHandler((request: FastifyRequest, reply: FastifyReply) => {
        sendError(reply, 404, `no route ${request.method} ${routeShape(request.url, vocabulary)} in the hosted API`);
      });
      for (const family of [...options.specFamilies, ...HOSTED_ROUTE_FAMILIES]) await api.register(family);
    },
    { prefix: HOSTED_BASE_PATH },
  );
}

/**
 * The shape of a request path: the literal words of the hosted routes kept, every other segment as `{…}`, so that a
 * 404 never quotes an access key, an Admin RPC secret or anything else a caller put in a path.
 *
 * @example
 * routeShape("/api/v1/account/acme/project/demo/vnetz", vocabulary) // "/api/v1/account/{…}/project/{…}/{…}"
 */
export function routeShape(url: string, vocabulary: ReadonlySet<string>): string {
  const path = url.split("?")[0].split("#")[0];
  return path
    .split("/")
    .map((segment) => (segment === "" || vocabulary.has(segment) ? segment : "{…}"))
    .join("/");
}
