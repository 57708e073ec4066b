import type { SendTransactionRequest } from "../../api";
import { parseTransaction, type TransactionRecord } from "../shapes/transaction";
import type { BaseClient } from "../client";
import type { RequestErrorType } from "../errors";
import { segment } from "../transport/url";
import { instancePath } from "../utils/scope";
import type { InstanceLocation } from "./listTransactions";

/** Parameters of {@link sendTransaction}: the Virtual Environment and the call (hex strings; `from` required). */
export interface SendTransactionParameters extends InstanceLocation, SendTransactionRequest {
  /** The Virtual Environment (an `active_instance.vnets[].id`). */
  vnetId: string;
}
/** The executed, mined transaction. */
export type SendTransactionReturnType = TransactionRecord;
/** Errors {@link sendTransaction} can throw. */
export type SendTransactionErrorType = RequestErrorType;

/**
 * Executes a transaction on one Virtual Environment of an instance, keeping its state:
 * `POST .../instance/{instanceId}/vnet/{vnetId}/transactions`. Not idempotent, so it is retried only when the
 * service certainly did not receive it (429, connection refused); an ambiguous failure is thrown as is: check
 * `listTransactions` before sending again. The answer is read as the documented record without ever failing on
 * its shape: the transaction has run by then, and an error would invite a second send.
 *
 * @example
 * const tx = await sendTransaction(client, {
 *   environmentId, instanceId, vnetId,
 *   callArgs: { from: "0x00000000000000000000000000000000000000aa", to: "0x00000000000000000000000000000000000000bb", value: "0x1" },
 * })
 */
export async function sendTransaction(client: BaseClient, params: SendTransactionParameters): Promise<SendTransactionReturnType> {
  return client.request({
    method: "POST",
    path: `${instancePath(client, params)}/vnet/${segment("vnetId", params.vnetId)}/transactions`,
    body: { callArgs: params.callArgs },
    retry: "unsent",
    parse: parseTransaction,
  });
}
