/**
 * The seam between the engine and an EVM implementation. The engine only needs a node that answers JSON-RPC,
 * persists its state where told and can be stopped; anvil (./anvil.ts) is the one shipped. Another engine (EDR,
 * in-process) would implement `ChainBackend` and map the few cheatcodes in `CheatMethods`.
 */
import type { JsonRpcClient } from "../wire/json-rpc";

/** How to start one chain. */
export interface ChainNodeOptions {
  /** The chain id the node answers with. */
  readonly chainId: bigint;
  /**
   * Where state is loaded from at start (when the file exists) and saved to at stop; null keeps nothing. A save
   * replaces the file only when complete: a failed one (a full disk) keeps the previous state.
   */
  readonly statePath: string | null;
  /** Number of the genesis block of a fresh (not forked) chain: the Virtual Environment's fork point. */
  readonly genesisBlockNumber?: bigint;
  /** Timestamp of the genesis block of a chain that is not forked (seconds), so that every start has the same genesis. */
  readonly genesisTimestamp?: number;
  /** Fork an upstream network instead of starting fresh. */
  readonly fork?: { readonly url: string; readonly blockNumber?: bigint };
  /** The deadline of every call to the node (../wire/chain-timeout.ts). @default 30000 */
  readonly rpcTimeoutMs?: number;
  /**
   * The journal generation a state saved now holds (./state-files.ts), asked as the node stops (held alone): the
   * state saved at stop is stamped with it. @default 0
   */
  readonly stateGeneration?: () => number;
  /** Called when the node saved its state, stamped `generation`, to `statePath` as it stopped (the rows through it can go). */
  readonly onStateSaved?: (generation: number) => void;
}

/** A running chain. */
export interface ChainNode {
  /** Its JSON-RPC client. */
  readonly rpc: JsonRpcClient;
  /** Operating-system processes behind the node (empty for an in-process engine); tests check they are gone. */
  readonly pids: readonly number[];
  /** Settles when the node is gone, whether stopped or crashed. */
  readonly exited: Promise<void>;
  /** Stops the node, keeping its state (dumped to `statePath`). */
  stop(): Promise<void>;
  /** Stops the node at once; its state is being thrown away. */
  kill(): Promise<void>;
  /**
   * Saves the running node's state to `statePath`, stamped with the journal `generation` it holds (complete or not at
   * all, as a save at stop); resolves with the reason when it could not, undefined once saved. Absent for a node
   * without a state path.
   */
  saveState?(generation: number): Promise<string | undefined>;
  /** The running node's whole state as its backend loads it (anvil: the JSON of `--load-state`), saving nothing. */
  currentState?(): Promise<Buffer>;
}

/** Where a backend reports what the operator must hear (pino's shape: fields first, then the message). */
export interface ChainLog {
  error(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
  info(fields: Record<string, unknown>, message: string): void;
}

/** Names of the state-setting cheatcodes the engine itself uses. */
export interface CheatMethods {
  /** `(address, weiHex)` */
  readonly setBalance: string;
  /** `(address, codeHex)` */
  readonly setCode: string;
}

/** An EVM implementation. */
export interface ChainBackend {
  readonly name: string;
  readonly cheats: CheatMethods;
  /** Starts a chain; rejects with a message fit for an operator when it cannot. */
  start(options: ChainNodeOptions): Promise<ChainNode>;
}
