import type { ProjectSimulationRequest } from "../../api";
import { parseProjectSimulation, type ProjectSimulationResult } from "../shapes/simulation";
import { ShapeMismatch } from "../transport/transport";
import type { BaseClient } from "../client";
import type { RequestErrorType } from "../errors";
import { projectPath, withoutScope, type ProjectScope } from "../utils/scope";

/** Parameters of {@link simulateTransaction}: the spec's body fields plus the scope. */
export type SimulateTransactionParameters = ProjectSimulationRequest & ProjectScope;
/**
 * The documented answer `{ transaction, simulation, contracts }`: the simulated transaction (logs and call trace
 * under `transaction.transaction_info`), the simulation record (with `id`; kept for `listSimulations` when `save`
 * was true) and the contracts involved.
 */
export type SimulateTransactionReturnType = ProjectSimulationResult;
/** Errors {@link simulateTransaction} can throw. */
export type SimulateTransactionErrorType = RequestErrorType;

/**
 * Simulates a transaction against a replica of a network: `POST /v1/account/{a}/project/{p}/simulate`.
 * Without `save` nothing is kept, so failures are retried freely; with `save: true` only failures the service
 * certainly did not see are retried (a repeat would store a second simulation).
 *
 * @example
 * const sim = await simulateTransaction(client, {
 *   network_id: "1",
 *   from: "0x0000000000000000000000000000000000000001",
 *   to: "0x0000000000000000000000000000000000000002",
 *   value: "0x1",
 * })
 * console.log(sim.simulation.id, sim.transaction?.transaction_info?.logs)
 */
export async function simulateTransaction(
  client: BaseClient,
  params: SimulateTransactionParameters,
): Promise<SimulateTransactionReturnType> {
  return client.request({
    method: "POST",
    path: `${projectPath(client, params)}/simulate`,
    body: withoutScope(params),
    retry: params.save ? "unsent" : "idempotent",
    parse: (body) => {
      const result = parseProjectSimulation(body);
      if (!result) throw new ShapeMismatch("Expected { transaction, simulation: { id, ... }, contracts }.");
      return result;
    },
  });
}
