import type { VnetSimulationRequest, VnetSimulationResult } from "../../api";
import type { BaseClient } from "../client";
import type { RequestErrorType } from "../errors";
import { segment } from "../transport/url";
import { projectPath, type ProjectScope } from "../utils/scope";
import { single } from "../utils/shape";

/** Parameters of {@link simulateVnetTransaction}: the Virtual Environment plus the simulation body. */
export interface SimulateVnetTransactionParameters extends ProjectScope, VnetSimulationRequest {
  /** The Virtual Environment (an `active_instance.vnets[].id`). */
  vnetId: string;
}
/** The simulation result: block, gas, logs, trace and status. */
export type SimulateVnetTransactionReturnType = VnetSimulationResult;
/** Errors {@link simulateVnetTransaction} can throw. */
export type SimulateVnetTransactionErrorType = RequestErrorType;

/**
 * Simulates a transaction on a Virtual Environment without keeping state:
 * `POST /v1/account/{a}/project/{p}/vnets/{vnetId}/transactions/simulate`. Retried freely (nothing is stored).
 *
 * @example
 * const result = await simulateVnetTransaction(client, {
 *   vnetId,
 *   callArgs: { from: "0x00000000000000000000000000000000000000aa", to: "0x00000000000000000000000000000000000000bb", value: "0x1" },
 *   blockOverrides: { timestamp: "0x6553f100" },
 * })
 * console.log(result.blockNumber, result.status)
 */
export async function simulateVnetTransaction(
  client: BaseClient,
  params: SimulateVnetTransactionParameters,
): Promise<SimulateVnetTransactionReturnType> {
  const { callArgs, blockNumber, blockOverrides, stateOverrides } = params;
  return client.request({
    method: "POST",
    path: `${projectPath(client, params)}/vnets/${segment("vnetId", params.vnetId)}/transactions/simulate`,
    body: { callArgs, blockNumber, blockOverrides, stateOverrides },
    retry: "idempotent",
    parse: single<VnetSimulationResult>("simulation", ["status"]),
  });
}
