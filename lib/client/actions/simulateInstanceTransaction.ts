import type { InstanceSimulationResult, VnetSimulationRequest } from "../../api";
import type { BaseClient } from "../client";
import type { RequestErrorType } from "../errors";
import { segment } from "../transport/url";
import { instancePath } from "../utils/scope";
import { single } from "../utils/shape";
import type { InstanceLocation } from "./listTransactions";

/** Parameters of {@link simulateInstanceTransaction}: the Virtual Environment plus the simulation body. */
export interface SimulateInstanceTransactionParameters extends InstanceLocation, VnetSimulationRequest {
  /** The Virtual Environment (an `active_instance.vnets[].id`). */
  vnetId: string;
}
/** The simulation result with its call trace, logs and `stateChanges`. */
export type SimulateInstanceTransactionReturnType = InstanceSimulationResult;
/** Errors {@link simulateInstanceTransaction} can throw. */
export type SimulateInstanceTransactionErrorType = RequestErrorType;

/**
 * Simulates a transaction on one Virtual Environment of an instance without keeping state:
 * `POST .../instance/{instanceId}/vnet/{vnetId}/transactions/simulate`. Nothing is stored, so it is retried freely.
 *
 * @example
 * const result = await simulateInstanceTransaction(client, {
 *   environmentId, instanceId, vnetId,
 *   callArgs: { from: "0x00000000000000000000000000000000000000aa", to: token, data: "0x70a08231..." },
 *   stateOverrides: { "0x00000000000000000000000000000000000000aa": { balance: "0xde0b6b3a7640000" } },
 * })
 * console.log(result.status, result.stateChanges)
 */
export async function simulateInstanceTransaction(
  client: BaseClient,
  params: SimulateInstanceTransactionParameters,
): Promise<SimulateInstanceTransactionReturnType> {
  const { callArgs, blockNumber, blockOverrides, stateOverrides } = params;
  return client.request({
    method: "POST",
    path: `${instancePath(client, params)}/vnet/${segment("vnetId", params.vnetId)}/transactions/simulate`,
    body: { callArgs, blockNumber, blockOverrides, stateOverrides },
    retry: "idempotent",
    parse: single<InstanceSimulationResult>("simulation", ["status"]),
  });
}
