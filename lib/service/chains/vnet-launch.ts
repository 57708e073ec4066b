/**
 * The start of a Virtual Environment's chain: from its saved state (or fresh, prepared: prefunded accounts, the bridge),
 * as a fork through the recording proxy when it is one, and then what ./durability/vnet-states.ts does so that nothing
 * acknowledged is lost (the journal applied again, the genesis kept, the state saved).
 */
import { existsSync } from "node:fs";
import { BRIDGE_ADDRESS } from "../../domain/bridge-contract";
import type { ChainBackend, ChainNode } from "./node/backend";
import { BRIDGE_LIQUIDITY, RELAYER_ADDRESS, RELAYER_FUNDS, bridgeCode } from "./bridge/contract";
import type { Forks } from "./fork";
import { forward } from "./calls/rpc-proxy";
import type { ForkedVnets } from "./durability/forked-vnets";
import { ChainRequestError, type VnetChainSpec } from "./types";
import type { VnetStates } from "./durability/vnet-states";
import { stateGeneration } from "./node/state-files";

/** What a start needs from the engine. */
export interface VnetLaunchContext {
  /** Which vnets' chains are forks. */
  readonly forkedVnets: ForkedVnets;
  readonly backend: ChainBackend;
  readonly forks: Forks;
  readonly states: VnetStates;
  /** The vnet's state file. */
  readonly statePath: string;
  /** The deadline of every call to the chain (./wire/chain-timeout.ts). */
  readonly rpcTimeoutMs: number;
}

/** Starts a vnet's chain and makes it whole: prepared when fresh, its journal applied again when it died. */
export async function launchVnet(context: VnetLaunchContext, spec: VnetChainSpec): Promise<ChainNode> {
  const { forkedVnets, backend, forks, states, statePath } = context;
  const { vnetId } = spec;
  const fresh = !existsSync(statePath);
  // Read before anvil loads the file: the journal rows through it are in the state (./node/state-files.ts).
  const generation = fresh ? 0 : stateGeneration(statePath);
  const wasForked = forkedVnets.forkOf(vnetId) !== null;
  const forked = fresh ? forks.forked(spec.networkId) : wasForked;
  const forkBlock = BigInt(spec.forkBlockNumber);
  // A fork reads its upstream through our recording proxy: anvil never sees the upstream's URL.
  const forkUrl = forked ? await forks.proxyUrl(spec.networkId, forkBlock, vnetId) : null;
  const genesisTimestamp = forkUrl ? undefined : states.genesisTimestamp(vnetId);
  const node = await backend
    .start({
      chainId: spec.chainId,
      statePath,
      ...(forkUrl ? { fork: { url: forkUrl, blockNumber: forkBlock } } : { genesisBlockNumber: forkBlock, genesisTimestamp }),
      rpcTimeoutMs: context.rpcTimeoutMs,
      stateGeneration: () => states.generation(vnetId),
      onStateSaved: (generation) => states.stateSaved(vnetId, generation),
    })
    .catch((error: Error) => {
      throw new ChainRequestError(
        forkUrl ? 502 : 503,
        `the chain of Virtual Environment ${vnetId} (network ${spec.networkId}) did not start: ${error.message}`,
      );
    });
  if (forkUrl) forks.chainStarted(node, spec.networkId);
  if (fresh) {
    await prepareFreshChain(backend, node, spec).catch(async (error: Error) => {
      await node.kill();
      throw new ChainRequestError(503, `the chain of Virtual Environment ${vnetId} could not be prepared: ${error.message}`);
    });
    if (forked) forkedVnets.note(vnetId, { networkId: spec.networkId, blockNumber: spec.forkBlockNumber });
  }
  const keepGenesis = !forkUrl && genesisTimestamp === undefined;
  await states.started(node, vnetId, { fresh, keepGenesis, generation }).catch(async (error: Error) => {
    await node.kill();
    throw error instanceof ChainRequestError
      ? error
      : new ChainRequestError(
          503,
          `the chain of Virtual Environment ${vnetId} could not apply its writes since its last save again: ${error.message}`,
        );
  });
  return node;
}

/** Funds the pre-funded accounts and, in a bridged environment, places and funds the bridge. */
async function prepareFreshChain(backend: ChainBackend, node: ChainNode, spec: VnetChainSpec): Promise<void> {
  const { setBalance, setCode } = backend.cheats;
  const calls: [string, unknown[]][] = spec.accounts.map((a) => [setBalance, [a.address, a.balance]]);
  if (spec.bridge) {
    calls.push(
      [setCode, [BRIDGE_ADDRESS, bridgeCode()]],
      [setBalance, [BRIDGE_ADDRESS, BRIDGE_LIQUIDITY]],
      [setBalance, [RELAYER_ADDRESS, RELAYER_FUNDS]],
    );
  }
  if (calls.length === 0) return;
  const answers = await forward(
    node.rpc,
    calls.map(([method, params], id) => ({ jsonrpc: "2.0", id, method, params })),
  );
  const failed = answers.find((a) => "error" in a);
  if (failed && "error" in failed) throw new Error(failed.error.message);
}
