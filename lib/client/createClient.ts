import { createBaseClient, type BaseClient, type ClientOptions } from "./client";
import { createEnvironment, type CreateEnvironmentParameters } from "./actions/createEnvironment";
import { deleteEnvironment, type DeleteEnvironmentParameters } from "./actions/deleteEnvironment";
import { deleteEnvironments, type DeleteEnvironmentsParameters } from "./actions/deleteEnvironments";
import { ensureEnvironment, type EnsureEnvironmentParameters } from "./actions/ensureEnvironment";
import { getEnvironment, type GetEnvironmentParameters } from "./actions/getEnvironment";
import { getEnvironmentBySlug, type GetEnvironmentBySlugParameters } from "./actions/getEnvironmentBySlug";
import { getTransaction, type GetTransactionParameters } from "./actions/getTransaction";
import { iterateEnvironments, type IterateEnvironmentsParameters } from "./actions/iterateEnvironments";
import { listDeliveryChannels, type ListDeliveryChannelsParameters } from "./actions/listDeliveryChannels";
import { listEnvironments, type ListEnvironmentsParameters } from "./actions/listEnvironments";
import { listProjects, type ListProjectsParameters } from "./actions/listProjects";
import { iterateSimulations, listSimulations, type ListSimulationsParameters } from "./actions/listSimulations";
import { listSupportedNetworks } from "./actions/listSupportedNetworks";
import {
  iterateTransactions,
  listTransactions,
  type ListTransactionsQuery,
  type InstanceLocation,
  type ListTransactionsParameters,
} from "./actions/listTransactions";
import { sendTransaction, type SendTransactionParameters } from "./actions/sendTransaction";
import { simulateInstanceTransaction, type SimulateInstanceTransactionParameters } from "./actions/simulateInstanceTransaction";
import { simulateTransaction, type SimulateTransactionParameters } from "./actions/simulateTransaction";
import { simulateVnetTransaction, type SimulateVnetTransactionParameters } from "./actions/simulateVnetTransaction";
import { stopAction, type StopActionParameters } from "./actions/stopAction";
import type { ProjectScope } from "./utils/scope";

/** Binds every operation to a client, so `client.getEnvironment(params)` is `getEnvironment(client, params)`. */
function actions(client: BaseClient) {
  return {
    listProjects: (params?: ListProjectsParameters) => listProjects(client, params),
    listDeliveryChannels: (params?: ListDeliveryChannelsParameters) => listDeliveryChannels(client, params),
    stopAction: (params: StopActionParameters) => stopAction(client, params),
    listSupportedNetworks: () => listSupportedNetworks(client),
    simulateTransaction: (params: SimulateTransactionParameters) => simulateTransaction(client, params),
    listSimulations: (params?: ListSimulationsParameters) => listSimulations(client, params),
    iterateSimulations: (params?: ProjectScope & { perPage?: number }) => iterateSimulations(client, params),
    createEnvironment: (params: CreateEnvironmentParameters) => createEnvironment(client, params),
    ensureEnvironment: (params: EnsureEnvironmentParameters) => ensureEnvironment(client, params),
    listEnvironments: (params?: ListEnvironmentsParameters) => listEnvironments(client, params),
    iterateEnvironments: (params?: IterateEnvironmentsParameters) => iterateEnvironments(client, params),
    getEnvironment: (params: GetEnvironmentParameters) => getEnvironment(client, params),
    getEnvironmentBySlug: (params: GetEnvironmentBySlugParameters) => getEnvironmentBySlug(client, params),
    deleteEnvironment: (params: DeleteEnvironmentParameters) => deleteEnvironment(client, params),
    deleteEnvironments: (params: DeleteEnvironmentsParameters) => deleteEnvironments(client, params),
    listTransactions: (params: ListTransactionsParameters) => listTransactions(client, params),
    iterateTransactions: (params: InstanceLocation & Omit<ListTransactionsQuery, "page">) => iterateTransactions(client, params),
    getTransaction: (params: GetTransactionParameters) => getTransaction(client, params),
    sendTransaction: (params: SendTransactionParameters) => sendTransaction(client, params),
    simulateInstanceTransaction: (params: SimulateInstanceTransactionParameters) => simulateInstanceTransaction(client, params),
    simulateVnetTransaction: (params: SimulateVnetTransactionParameters) => simulateVnetTransaction(client, params),
  };
}

/** A client: the {@link BaseClient} plus one method per operation. */
export type Client = BaseClient & ReturnType<typeof actions>;

/**
 * Creates a client for the service. Checks the base URL at once: a plain `http://` URL whose host is not
 * loopback throws `InsecureUrlError` before anything is sent.
 *
 * @example
 * import { createClient } from "chainform/client"
 * const client = createClient({
 *   baseUrl: "https://api.example.com",
 *   accessKey: process.env.CHAINFORM_ACCESS_KEY,
 *   accountSlug: "acme",
 *   projectSlug: "demo",
 * })
 * const env = await client.createEnvironment({ display_name: "CI", network_configs: [{ network_id: "1" }] })
 * await client.deleteEnvironment({ environmentId: env.id, ensureDeleted: true })
 * await client.close()
 */
export function createClient(options: ClientOptions): Client {
  const base = createBaseClient(options);
  return { ...base, ...actions(base) };
}
