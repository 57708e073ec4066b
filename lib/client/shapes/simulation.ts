/**
 * The project-level simulate answer as the hosted service documents it (docs/service.md "Simulations"):
 * `{ transaction, simulation, contracts }`, with logs and the call trace under `transaction.transaction_info`.
 * Read tolerantly: only `simulation.id` is required; everything else may be missing and unknown fields are kept.
 */

/** The simulated transaction, with its execution details. */
export interface SimulatedTransaction {
  hash?: string;
  status?: boolean;
  gas_used?: number;
  /** Logs and the call trace of the execution. */
  transaction_info?: {
    call_trace?: unknown;
    logs?: unknown[] | null;
    [extra: string]: unknown;
  };
  [extra: string]: unknown;
}

/** The simulation record (kept for `listSimulations` when `save` was true). */
export interface SimulationRecord {
  id: string;
  network_id?: string;
  block_number?: number | string;
  status?: boolean;
  gas_used?: number;
  [extra: string]: unknown;
}

/** The documented project-simulate answer. */
export interface ProjectSimulationResult {
  /** The simulated transaction with logs and call trace; null when the answer carried none. */
  transaction: SimulatedTransaction | null;
  /** The simulation record. */
  simulation: SimulationRecord;
  /** Contracts the transaction touched, as the service describes them. */
  contracts: unknown[];
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * Reads a project-simulate answer: `{ transaction, simulation, contracts }` (documented), or a bare simulation.
 * @returns undefined when there is no simulation with an `id` (the caller reports an unexpected answer)
 */
export function parseProjectSimulation(body: unknown): ProjectSimulationResult | undefined {
  if (!isObject(body)) return undefined;
  const simulation = isObject(body["simulation"]) ? body["simulation"] : body;
  if (typeof simulation["id"] !== "string") return undefined;
  return {
    transaction: isObject(body["transaction"]) ? (body["transaction"] as SimulatedTransaction) : null,
    simulation: simulation as SimulationRecord,
    contracts: Array.isArray(body["contracts"]) ? body["contracts"] : [],
  };
}
