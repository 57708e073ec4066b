/**
 * `chainform/client`: the typed API client. `createClient(options)` returns a client whose methods are the
 * operations; each operation is also exported as a function taking the client first (viem style).
 */
export { createClient, type Client } from "./createClient";
export { clientFromEnv, optionsFromEnv, DEFAULT_BASE_URL } from "./clientFromEnv";
export type { BaseClient, ClientOptions } from "./client";
export type { AuthMode } from "./transport/auth";
export type { RequestOptions, ResponseEvent, RetryPolicy } from "./transport/transport";
export { isLoopbackHost } from "../domain/loopback";
export { version } from "./version";

export * from "./errors";

export * from "./actions/listProjects";
export * from "./actions/listDeliveryChannels";
export * from "./actions/stopAction";
export * from "./actions/listSupportedNetworks";
export * from "./actions/simulateTransaction";
export * from "./actions/listSimulations";
export * from "./actions/createEnvironment";
export * from "./actions/ensureEnvironment";
export * from "./actions/listEnvironments";
export * from "./actions/iterateEnvironments";
export * from "./actions/getEnvironment";
export * from "./actions/getEnvironmentBySlug";
export * from "./actions/exportEnvironment";
export * from "./actions/importEnvironment";
export * from "./actions/cloneEnvironment";
export * from "./actions/deleteEnvironment";
export * from "./actions/deleteEnvironments";
export * from "./actions/listTransactions";
export * from "./actions/getTransaction";
export * from "./actions/sendTransaction";
export * from "./actions/simulateInstanceTransaction";
export * from "./actions/simulateVnetTransaction";
export { diffEnvironment, UNVERIFIABLE_SETTINGS, type EnvironmentDifference } from "./utils/environmentDiff";
export * from "./shapes/transaction";
// The client's own, tolerant names win over the local service's schemas of the same name.
export type { TransactionStatus, TransactionCategory, TransactionKind } from "./shapes/transaction";
export type { ListTransactionsQuery } from "./actions/listTransactions";
export * from "./shapes/simulation";

export type * from "../api";
export { RPC_NAMES } from "../domain/constants";
