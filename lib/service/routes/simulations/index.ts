/**
 * Simulations: project level, their list, and on a Virtual Environment (docs/api.md "Endpoints", docs/service.md
 * "Simulations"). The engine simulates; the service gives project simulations their id and time and
 * keeps them when `save` is true.
 */
import { randomUUID } from "node:crypto";
import type { FastifyInstance } from "fastify";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import {
  DEFAULT_SIMULATION_NETWORK_ID,
  ListSimulationsQuery,
  ProjectParams,
  ProjectSimulationRequest,
  ProjectSimulationResponse,
  SimulationList,
  VnetParams,
  VnetSimulationRequest,
  VnetSimulationResult,
  type Simulation,
} from "../../../api";
import { badRequest, notFound } from "../../errors";
import type { Store } from "../../store";
import { pageOf, projectOf, replies } from "../common";

const PROJECT_PATH = "/v1/account/:accountSlug/project/:projectSlug";

/** Refuses (400 naming `/network_id`) a network the simulator does not support: the one rule of both API doors. */
export function checkSimulatorNetwork(store: Store, networkId: string): void {
  if (!store.networks.byChainId(networkId)?.supported_features.simulator) {
    throw badRequest(`network_id: ${networkId} is not a network the simulator supports`, "/network_id", { rid: "rid:network" });
  }
}

/** The simulation routes. */
export default async function simulationRoutes(app: FastifyInstance): Promise<void> {
  const { store, engine } = app.service;
  const routes = app.withTypeProvider<TypeBoxTypeProvider>();

  routes.post(
    `${PROJECT_PATH}/simulate`,
    { schema: { params: ProjectParams, body: ProjectSimulationRequest, response: replies({ 200: ProjectSimulationResponse }) } },
    async (request) => {
      const project = projectOf(request);
      const networkId = request.body.network_id ?? DEFAULT_SIMULATION_NETWORK_ID;
      checkSimulatorNetwork(store, networkId);
      const result = await engine.simulateOnNetwork(request.body);
      const simulation: Simulation = { id: randomUUID(), created_at: new Date().toISOString(), ...result.simulation };
      if (request.body.save) store.records.saveSimulation(project.id, simulation);
      return {
        transaction: result.transaction,
        simulation,
        contracts: result.contracts,
        ...(result.generatedAccessList ? { generated_access_list: result.generatedAccessList } : {}),
      };
    },
  );

  routes.get(
    `${PROJECT_PATH}/simulations`,
    { schema: { params: ProjectParams, querystring: ListSimulationsQuery, response: replies({ 200: SimulationList }) } },
    async (request) => {
      const { page, perPage } = pageOf(request.query);
      return { simulations: store.records.simulations(projectOf(request).id, page, perPage) };
    },
  );

  routes.post(
    `${PROJECT_PATH}/vnets/:vnetId/transactions/simulate`,
    { schema: { params: VnetParams, body: VnetSimulationRequest, response: replies({ 200: VnetSimulationResult }) } },
    async (request) => {
      const project = projectOf(request);
      const vnet = store.environments.vnet(request.params.vnetId);
      if (!vnet || vnet.project_id !== project.id) throw notFound("rid:vnet", `Virtual Environment ${request.params.vnetId} not found`);
      return engine.simulateOnVnet(vnet.id, request.body);
    },
  );
}
