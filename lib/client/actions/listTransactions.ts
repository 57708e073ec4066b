import {
  parseTransactions,
  type TransactionCategory,
  type TransactionKind,
  type TransactionRecord,
  type TransactionStatus,
} from "../shapes/transaction";
import type { BaseClient } from "../client";
import type { RequestErrorType } from "../errors";
import { paginate } from "../utils/paginate";
import { instancePath, type ProjectScope } from "../utils/scope";

/** Which environment instance: the environment id and its `active_instance.id`. */
export interface InstanceLocation extends ProjectScope {
  environmentId: string;
  instanceId: string;
}

/** Filters and page of {@link listTransactions} (names as decided for the local service; the hosted docs name none). */
export interface ListTransactionsQuery {
  page?: number;
  perPage?: number;
  status?: TransactionStatus;
  category?: TransactionCategory;
  kind?: TransactionKind;
  from?: string;
  to?: string;
}
/** Parameters of {@link listTransactions}: the instance, a page and optional filters. */
export type ListTransactionsParameters = InstanceLocation & ListTransactionsQuery;
/** One page of transactions across the instance's Virtual Environments, newest first. */
export type ListTransactionsReturnType = TransactionRecord[];
/** Errors {@link listTransactions} can throw. */
export type ListTransactionsErrorType = RequestErrorType;

function query(params: ListTransactionsQuery) {
  const { page, perPage, status, category, kind, from, to } = params;
  return { page, perPage, status, category, kind, from, to };
}

/**
 * Lists one page of an instance's transactions: `GET .../environments/{id}/instance/{instanceId}/transactions`,
 * filtered by `status`, `category`, `kind`, `from`, `to`. The documented answer is a bare array of records;
 * `{ transactions: [...] }` is read too.
 *
 * @example
 * const failed = await listTransactions(client, {
 *   environmentId: env.id,
 *   instanceId: env.active_instance.id,
 *   status: "failed",
 * })
 */
export async function listTransactions(client: BaseClient, params: ListTransactionsParameters): Promise<ListTransactionsReturnType> {
  return client.request({
    method: "GET",
    path: `${instancePath(client, params)}/transactions`,
    query: query(params),
    parse: parseTransactions,
  });
}

/**
 * Iterates over every transaction of an instance matching the filters, pages of 100.
 *
 * @example
 * for await (const tx of iterateTransactions(client, { environmentId, instanceId, status: "failed" })) {
 *   console.log(tx.tx_hash, tx.error_reason)
 * }
 */
export function iterateTransactions(
  client: BaseClient,
  params: InstanceLocation & Omit<ListTransactionsQuery, "page">,
): AsyncGenerator<TransactionRecord, void, undefined> {
  return paginate((page, perPage) => listTransactions(client, { ...params, page, perPage }), params.perPage ?? 100);
}
