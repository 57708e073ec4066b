/** What a service can set of its chain engine (./engine.ts): idle stops, deadlines, caps, how often states are saved. */
import type { ChainLog } from "./node/backend";

/** Options of the engine. */
export interface ChainEngineOptions {
  /** A Virtual Environment's chain unused for this long is stopped, its state kept. @default 300000 (5 min) */
  readonly idleTimeoutMs?: number;
  /** A network replica (project-level simulation) unused for this long is stopped. @default 60000 */
  readonly replicaIdleTimeoutMs?: number;
  /** How long to wait for the receipt of a transaction sent through an RPC URL. @default 2000 */
  readonly receiptTimeoutMs?: number;
  /** Bound on one call to a fork's upstream. @default 30000 */
  readonly upstreamTimeoutMs?: number;
  /** Cap on one answer of a fork's upstream, in bytes. @default 32 MiB */
  readonly upstreamMaxAnswerBytes?: number;
  /** At most this many chains (Virtual Environments and replicas) run at once (./pool/chain-pool.ts). @default 64 */
  readonly maxRunningChains?: number;
  /** The deadline of every call to a chain (`serve --rpc-timeout`, ./wire/chain-timeout.ts). @default 30000 */
  readonly rpcTimeoutMs?: number;
  /**
   * A running chain's state is saved once this many writes are journaled since its last save, so that a recovery
   * applies at most about this many again (docs/chain-state.md "What survives what"). @default 500
   */
  readonly saveAfterWrites?: number;
  /** Where the engine reports recoveries and failed saves; default: nowhere. */
  readonly log?: ChainLog;
}
