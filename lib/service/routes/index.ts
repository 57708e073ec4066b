/** Registers every route family of the service. */
import type { FastifyInstance, FastifyPluginAsync } from "fastify";
import abis from "./abis";
import actions from "./actions";
import deliveryChannels from "./delivery-channels";
import environments from "./environments";
import hostedRoutes from "./hosted";
import networks from "./networks";
import projects from "./projects";
import simulations from "./simulations";
import transactions from "./transactions";

/** The spec's route families, at the root and again under the hosted base path (./hosted). */
export const SPEC_ROUTE_FAMILIES: readonly FastifyPluginAsync[] = [
  projects,
  deliveryChannels,
  actions,
  networks,
  environments,
  transactions,
  simulations,
];

/** The service's routes, as one plugin. */
export async function registerRoutes(app: FastifyInstance): Promise<void> {
  for (const family of SPEC_ROUTE_FAMILIES) await app.register(family);
  await app.register(hostedRoutes, { specFamilies: SPEC_ROUTE_FAMILIES });
  // A local extra (docs/explorer-and-dashboard.md): ABIs users add for contracts nobody verified.
  await app.register(abis);
}
