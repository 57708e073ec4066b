/**
 * The network replicas: one chain per network, forking its upstream's head (or fresh when the network has none),
 * started on the first project-level simulation of that network and stopped when idle (./network-simulation.ts runs
 * the simulation on it). Replicas count against the same cap as the Virtual Environments' chains.
 */
import { DEFAULT_SIMULATION_NETWORK_ID, isChainId, type ProjectSimulationRequest, type VnetSimulationResult } from "../../../api";
import { asGatewayTimeout } from "../calls/deadline-answers";
import type { Forks } from "../fork";
import type { ChainBackend, ChainLog, ChainNode } from "../node/backend";
import { ChainPool, type ChainBudget } from "../pool";
import { ChainRequestError, type NetworkBundle, type NetworkSimulation } from "../types";
import { simulateBundleOnReplica, simulateOnReplica } from "./network-simulation";

const ZERO_ADDRESS = "0x0000000000000000000000000000000000000000";

/** What the replicas need from the engine. */
export interface NetworkReplicasOptions {
  readonly backend: ChainBackend;
  readonly forks: Forks;
  /** The cap shared with the Virtual Environments' chains. */
  readonly budget: ChainBudget;
  /** A replica unused for this long is stopped. */
  readonly idleTimeoutMs: number;
  /** The deadline of every call to a chain. */
  readonly rpcTimeoutMs: number;
  readonly log?: ChainLog;
}

/** The replicas of a service's networks. */
export class NetworkReplicas {
  private readonly pool: ChainPool;
  /** The block each forked network's replica forks, pinned at its first start for the service's life. */
  private readonly blocks = new Map<string, bigint | null>();

  constructor(private readonly options: NetworkReplicasOptions) {
    this.pool = new ChainPool({
      launch: (networkId) => this.launch(networkId),
      idleTimeoutMs: options.idleTimeoutMs,
      budget: options.budget,
      rpcTimeoutMs: options.rpcTimeoutMs,
      log: options.log,
    });
  }

  /** Number of running replicas. */
  get size(): number {
    return this.pool.size;
  }

  /** Project-level simulation on the replica of the request's network; a call past its deadline is a 504. */
  simulate(request: ProjectSimulationRequest): Promise<NetworkSimulation> {
    const networkId = request.network_id ?? DEFAULT_SIMULATION_NETWORK_ID;
    if (!isChainId(networkId)) {
      throw new ChainRequestError(400, `network_id must be a chain id such as "1", got "${networkId}"`, "/network_id");
    }
    const from = (request.from ?? ZERO_ADDRESS).toLowerCase();
    return this.pool.use(networkId, "shared", (node) => simulateOnReplica(node, networkId, from, request)).catch(asGatewayTimeout);
  }

  /** A bundle on the replica of a network, each transaction on the state the ones before it left; a call past its deadline is a 504. */
  simulateBundle(networkId: string, bundle: NetworkBundle): Promise<VnetSimulationResult[]> {
    if (!isChainId(networkId)) {
      throw new ChainRequestError(400, `network_id must be a chain id such as "1", got "${networkId}"`, "/network_id");
    }
    return this.pool.use(networkId, "shared", (node) => simulateBundleOnReplica(node, bundle)).catch(asGatewayTimeout);
  }

  /** Stops every replica. */
  close(): Promise<void> {
    return this.pool.close();
  }

  private async launch(networkId: string): Promise<ChainNode> {
    const { forks, backend, rpcTimeoutMs } = this.options;
    // A replica forks the head as of its first start (offline: the newest recorded block) and keeps that block when
    // restarted after idling, so that its recordings stay in one file rather than one per head it happened to see.
    const block = this.blocks.has(networkId)
      ? this.blocks.get(networkId)!
      : await forks.forkPoint(networkId, undefined, undefined, { mines: false });
    this.blocks.set(networkId, block);
    const forkUrl = block === null ? null : await forks.proxyUrl(networkId, block);
    const fork = forkUrl === null || block === null ? {} : { fork: { url: forkUrl, blockNumber: block } };
    return backend.start({ chainId: BigInt(networkId), statePath: null, ...fork, rpcTimeoutMs }).catch((error: Error) => {
      throw new ChainRequestError(forkUrl ? 502 : 503, `the replica of network ${networkId} did not start: ${error.message}`);
    });
  }
}
