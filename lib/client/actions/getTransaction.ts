import { parseTransaction, type TransactionRecord } from "../shapes/transaction";
import type { BaseClient } from "../client";
import type { RequestErrorType } from "../errors";
import { segment } from "../transport/url";
import { instancePath } from "../utils/scope";
import type { InstanceLocation } from "./listTransactions";

/** Parameters of {@link getTransaction}. */
export interface GetTransactionParameters extends InstanceLocation {
  /** Transaction hash, 0x + 64 hex digits. */
  txHash: string;
}
/** The transaction record. */
export type GetTransactionReturnType = TransactionRecord;
/** Errors {@link getTransaction} can throw; an unknown hash is an ApiError 404. */
export type GetTransactionErrorType = RequestErrorType;

/**
 * Reads one transaction of an instance by hash: `GET .../instance/{instanceId}/transactions/{txHash}`.
 *
 * @example
 * const tx = await getTransaction(client, { environmentId, instanceId, txHash })
 * console.log(tx.status, tx.kind, tx.rpc_method)
 */
export async function getTransaction(client: BaseClient, params: GetTransactionParameters): Promise<GetTransactionReturnType> {
  return client.request({
    method: "GET",
    path: `${instancePath(client, params)}/transactions/${segment("txHash", params.txHash)}`,
    parse: parseTransaction,
  });
}
