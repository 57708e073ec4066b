import type { ListTransactionsQuery, Transaction } from "../../spec";
import type { BaseClient } from "../client";
import type { RequestErrorType } from "../errors";
import { paginate } from "../utils/paginate";
import { instancePath, type ProjectScope } from "../utils/scope";
import { list } from "../utils/shape";

/** Which environment instance: the environment id and its `active_instance.id`. */
export interface InstanceLocation extends ProjectScope {
  environmentId: string;
  instanceId: string;
}

/** Parameters of {@link listTransactions}: the instance, a page and optional filters. */
export type ListTransactionsParameters = InstanceLocation & ListTransactionsQuery;
/** One page of transactions across the instance's Virtual Environments, newest first. */
export type ListTransactionsReturnType = Transaction[];
/** Errors {@link listTransactions} can throw. */
export type ListTransactionsErrorType = RequestErrorType;

function query(params: ListTransactionsQuery) {
  const { page, perPage, status, category, kind, from, to } = params;
  return { page, perPage, status, category, kind, from, to };
}

/**
 * Lists one page of an instance's transactions: `GET .../environments/{id}/instance/{instanceId}/transactions`,
 * filtered by `status`, `category`, `kind`, `from`, `to`.
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
    parse: list<Transaction>("transactions"),
  });
}

/**
 * Iterates over every transaction of an instance matching the filters, pages of 100.
 *
 * @example
 * for await (const tx of iterateTransactions(client, { environmentId, instanceId, kind: "create" })) {
 *   console.log(tx.contract_address)
 * }
 */
export function iterateTransactions(
  client: BaseClient,
  params: InstanceLocation & Omit<ListTransactionsQuery, "page">,
): AsyncGenerator<Transaction, void, undefined> {
  return paginate((page, perPage) => listTransactions(client, { ...params, page, perPage }), params.perPage ?? 100);
}
