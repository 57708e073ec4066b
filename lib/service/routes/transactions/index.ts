/**
 * Environment-instance transactions: list, get, send and simulate (docs/api.md "Endpoints", docs/service.md
 * "Transaction record"): records are bare objects and lists bare arrays, as the
 * hosted service documents them. Listing and getting read the records the chain engine reported;
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
  type Transaction,
} from "../../../api";
import { notFound } from "../../errors";
import { baseUrlOf, pageOf, projectOf, replies } from "../common";
import { ENVIRONMENTS_PATH } from "../environments";
import { instanceOf, instanceVnetOf } from "../environments/instance";
import { withAssetChanges } from "./asset-changes";

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
      const baseUrl = baseUrlOf(request);
      return store.records.transactions(environment.instance_id, request.query, page, perPage).map((t) => withDashboardUrl(t, baseUrl));
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
      return withDashboardUrl(await withAssetChanges(engine, transaction), baseUrlOf(request));
    },
  );

  routes.post(
    `${INSTANCE_PATH}/vnet/:vnetId/transactions`,
    { schema: { params: InstanceVnetParams, body: SendTransactionRequest, response: replies({ 200: TransactionResponse }) } },
    async (request) => {
      const vnet = instanceVnetOf(store, projectOf(request).id, request.params);
      // As a get of the record answers it: with what it moved and wrote.
      return withDashboardUrl(
        await withAssetChanges(engine, await engine.sendTransaction(vnet.id, request.body.callArgs)),
        baseUrlOf(request),
      );
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

/** The record with its `dashboard_url`: the transaction's page in the local explorer, on this service's base URL. */
function withDashboardUrl(transaction: Transaction, baseUrl: string): Transaction {
  return { ...transaction, dashboard_url: `${baseUrl}/explorer/${transaction.vnet_id}/tx/${transaction.tx_hash}` };
}
