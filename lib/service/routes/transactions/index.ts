/**
 * Environment-instance transactions (spec: List/Get/Send a transaction, Simulate a transaction under
 * Environments; decisions.md "Shapes"). Listing and getting read the records the chain engine reported;
 * sending and simulating go to the engine once ids and access are resolved.
 */
import type { FastifyInstance } from "fastify";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import {
  InstanceParams,
  InstanceSimulationResult,
  InstanceVnetParams,
  ListTransactionsQuery,
  SendTransactionRequest,
  TransactionList,
  TransactionParams,
  TransactionResponse,
  VnetSimulationRequest,
} from "../../../spec";
import { notFound } from "../../errors";
import { pageOf, projectOf, replies } from "../common";
import { ENVIRONMENTS_PATH } from "../environments";
import { instanceOf, instanceVnetOf } from "../environments/instance";

const INSTANCE_PATH = `${ENVIRONMENTS_PATH}/:environmentId/instance/:instanceId`;

/** The transaction routes. */
export default async function transactionRoutes(app: FastifyInstance): Promise<void> {
  const { store, engine } = app.service;
  const routes = app.withTypeProvider<TypeBoxTypeProvider>();

  routes.get(
    `${INSTANCE_PATH}/transactions`,
    { schema: { params: InstanceParams, querystring: ListTransactionsQuery, response: replies({ 200: TransactionList }) } },
    async (request) => {
      const { environmentId, instanceId } = request.params;
      const environment = instanceOf(store, projectOf(request).id, environmentId, instanceId);
      const { page, perPage } = pageOf(request.query);
      return { transactions: store.records.transactions(environment.instance_id, request.query, page, perPage) };
    },
  );

  routes.get(
    `${INSTANCE_PATH}/transactions/:txHash`,
    { schema: { params: TransactionParams, response: replies({ 200: TransactionResponse }) } },
    async (request) => {
      const { environmentId, instanceId, txHash } = request.params;
      const environment = instanceOf(store, projectOf(request).id, environmentId, instanceId);
      const transaction = store.records.transaction(environment.instance_id, txHash);
      if (!transaction) throw notFound("rid:vnet", `transaction ${txHash} not found in instance ${instanceId}`);
      return { transaction };
    },
  );

  routes.post(
    `${INSTANCE_PATH}/vnet/:vnetId/transactions`,
    { schema: { params: InstanceVnetParams, body: SendTransactionRequest, response: replies({ 200: TransactionResponse }) } },
    async (request) => {
      const vnet = instanceVnetOf(store, projectOf(request).id, request.params);
      return { transaction: await engine.sendTransaction(vnet.id, request.body.callArgs) };
    },
  );

  routes.post(
    `${INSTANCE_PATH}/vnet/:vnetId/transactions/simulate`,
    { schema: { params: InstanceVnetParams, body: VnetSimulationRequest, response: replies({ 200: InstanceSimulationResult }) } },
    async (request) => {
      const vnet = instanceVnetOf(store, projectOf(request).id, request.params);
      return engine.simulateOnInstanceVnet(vnet.id, request.body);
    },
  );
}
