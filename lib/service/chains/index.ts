/**
 * chainform's chain engine: real chains (anvil) behind Virtual Environments.
 *
 * @example
 * const app = buildApp({ createChainEngine: (host) => createAnvilEngine(host, { idleTimeoutMs: 60_000 }) });
 */
import { createAnvilBackend, type AnvilBackendOptions } from "./node/anvil";
import { BackendChainEngine, type ChainEngineOptions } from "./engine";
import type { ChainHost } from "./types";

export { BackendChainEngine } from "./engine";
export type { ChainEngineOptions } from "./engine-options";
export { createAnvilBackend, type AnvilBackendOptions } from "./node/anvil";
export { AnvilNotFoundError, resolveAnvilPath } from "./node/anvil-binary";
export type { ChainBackend, ChainLog, ChainNode, ChainNodeOptions } from "./node/backend";
export { RELAYER_ADDRESS } from "./bridge/contract";
export { RelayStore } from "./durability/relays";
export { chainsDirOf, removeOrphanedStates } from "./node/state-files";
export { forkUrlsFromEnv, parseForkUrls, secretPartsOf } from "./fork/urls";
export type { SharedForkCache } from "./fork/recordings";
export { DEFAULT_MAX_RUNNING_CHAINS } from "./pool";
export { isReadOnlyMethod } from "./evm/methods";
// The decoding the web UI's pages do, with viem as this CommonJS package loads it (./evm/viem.ts).
export {
  decodeEventLog,
  decodeFunctionData,
  decodeFunctionResult,
  parseAbi,
  toEventSelector,
  toFunctionSelector,
  type Abi,
  type AbiEvent,
  type AbiFunction,
  type AbiParameter,
  type Hex,
} from "./evm/viem";
export type { CallFrame } from "./evm/trace";
export { isCallFrame } from "./durability/trace-records";
export type { AccountOverride, BundleCall, PrestateDiff } from "./simulation/simulate";
export { isOwnDiff, PRESTATE_DIFF, stateChanges } from "./simulation/simulate";
export * from "./types";

/** Options of `createAnvilEngine`. */
export type AnvilEngineOptions = ChainEngineOptions & AnvilBackendOptions;

/** Creates the anvil-backed chain engine of a service. */
export function createAnvilEngine(host: ChainHost, options: AnvilEngineOptions = {}): BackendChainEngine {
  return new BackendChainEngine(host, createAnvilBackend(options), options);
}
