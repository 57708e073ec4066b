/** Registers every route family of the service. */
import type { FastifyInstance } from "fastify";
import abis from "./abis";
import actions from "./actions";
import deliveryChannels from "./delivery-channels";
import environments from "./environments";
import networks from "./networks";
import projects from "./projects";
import simulations from "./simulations";
import transactions from "./transactions";

/** The service's routes, as one plugin. */
export async function registerRoutes(app: FastifyInstance): Promise<void> {
  for (const family of [projects, deliveryChannels, actions, networks, environments, transactions, simulations, abis]) {
    await app.register(family);
  }
}
