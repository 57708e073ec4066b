/**
 * The boundary between the local service and its chain engine. The service owns HTTP, auth, the database and
 * the records; the engine owns EVM processes. The service resolves ids and permissions, then calls the engine
 * with the Virtual Environment it means; the engine reports every transaction it sees through `ChainHost`.
 */
import type { SqlDatabase } from "../sqlite";
import type { AccountOverride, BundleCall } from "./simulation/simulate";
import type { CallFrame } from "./evm/trace";
import type { SharedForkCache } from "./fork/recordings";
import type {
  AccessList,
  CallArgs,
  InstanceSimulationResult,
  ProjectSimulationRequest,
  RelayMode,
  Simulation,
  SimulationContract,
  SimulationTransaction,
  Transaction,
  VnetSimulationRequest,
  VnetSimulationResult,
} from "../../api";

/** Everything the engine needs to (re)start the chain of one Virtual Environment. */
export interface VnetChainSpec {
  readonly vnetId: string;
  readonly environmentId: string;
  readonly instanceId: string;
  /** Chain id of the forked network, decimal string (e.g. "1"). */
  readonly networkId: string;
  /** The chain id the chain answers with: the override, else the network's. */
  readonly chainId: bigint;
  /** Fork point, hex. */
  readonly forkBlockNumber: string;
  /** Pre-funded accounts; balances in wei, hex. */
  readonly accounts: readonly { readonly address: string; readonly balance: string }[];
  /** The environment's bridge settings, or null when bridging is off. */
  readonly bridge: { readonly relayMode: RelayMode; readonly delaySeconds: number } | null;
  /** The other Virtual Environments of the same instance (bridge destinations). */
  readonly peers: readonly { readonly vnetId: string; readonly chainId: bigint }[];
}

/** What the service gives the engine (lib/service/chain-host.ts builds it from the store). */
export interface ChainHost {
  /** Where chain state lives; null for an in-memory service (the engine uses a temporary directory). */
  readonly dataDir: string | null;
  /**
   * The service's database (its connection, shared so that journal rows and transaction records commit together):
   * the engine makes and migrates its own tables (prefix `chain_`) itself (durability/schema.ts).
   */
  readonly db: SqlDatabase;
  /** Looks a Virtual Environment up; undefined once it is deleted. */
  resolveVnet(vnetId: string): VnetChainSpec | undefined;
  /** Records a transaction the engine saw (sent through the API, the RPC URLs, or a bridge relay). */
  recordTransaction(transaction: Transaction): void;
  /** Upstream RPC URLs to fork from, keyed by network id; a network without one gets a fresh chain. Secrets. */
  readonly forkUrls: Readonly<Record<string, string>>;
  /** Where recordings of upstream answers are kept; default `<dataDir>/fork-cache` (docs/forking.md). */
  readonly forkCacheDir?: string | null;
  /** The fork cache shared with other services that `forkCacheDir` mirrors (`--fork-cache oci://…`), if any. */
  readonly sharedForkCache?: SharedForkCache | null;
  /** Serve forks from recordings only: no request leaves the machine. */
  readonly offline?: boolean;
  /** Offline, read an account no recording holds as empty, logged once per account (docs/forking.md). */
  readonly offlineEmptyAccounts?: boolean;
}

/** A snapshot taken on a Virtual Environment's chain. */
export interface VnetSnapshot {
  /** The id `evm_snapshot` answered, which `evm_revert` takes. */
  readonly id: string;
  /** The block the chain was at, hex. */
  readonly blockNumber: string;
  /** When it was taken (ISO 8601). */
  readonly takenAt: string;
}

/** What a project-level simulation found: the simulation record (without id and time), and the documented rest. */
export interface NetworkSimulation {
  readonly simulation: Omit<Simulation, "id" | "created_at">;
  readonly transaction: SimulationTransaction;
  readonly contracts: SimulationContract[];
  /** With `generate_access_list`: the access list the chain generated for the call. */
  readonly generatedAccessList?: AccessList;
}

/** Transactions simulated in order on one state of a network (`ChainEngine.simulateBundleOnNetwork`). */
export interface NetworkBundle {
  readonly calls: readonly BundleCall[];
  /** The block whose state the bundle runs on; default the head. */
  readonly blockNumber?: bigint;
  /** The state the bundle starts from, by lower-case address: balance, nonce, code and storage slots (hex). */
  readonly overrides?: Readonly<Record<string, AccountOverride>>;
}

/** A JSON-RPC 2.0 request or notification. */
export interface JsonRpcRequest {
  readonly jsonrpc: "2.0";
  readonly id?: string | number | null;
  readonly method: string;
  readonly params?: unknown;
}

/** A JSON-RPC 2.0 answer. */
export type JsonRpcResponse =
  | { jsonrpc: "2.0"; id: string | number | null; result: unknown }
  | { jsonrpc: "2.0"; id: string | number | null; error: { code: number; message: string; data?: unknown } };

/** Which RPC URL a call came through: the Admin RPC proxies everything, the Public RPC only standard methods. */
export type RpcAccess = "admin" | "public";

/** The chain engine the service drives. */
export interface ChainEngine {
  /**
   * Answers a JSON-RPC call or batch on a Virtual Environment's chain, starting it if needed: the one door of every
   * call that may wait. Given `text` (the body as the RPC pipeline wrote it anew, never the caller's bytes), a body
   * whose every call the chain answers alone and nothing records (calls/rpc-proxy.ts `passesThrough`) goes to the
   * chain as that text and its answer comes back as bytes, ids and all; every other body is answered parsed.
   */
  rpc(vnetId: string, body: JsonRpcRequest | JsonRpcRequest[], access: RpcAccess): Promise<JsonRpcResponse | JsonRpcResponse[]>;
  rpc(
    vnetId: string,
    body: JsonRpcRequest | JsonRpcRequest[],
    access: RpcAccess,
    text: string,
  ): Promise<Buffer | JsonRpcResponse | JsonRpcResponse[]>;
  /**
   * `rpc` with `text` for a body that passes through, without a promise, when nothing needs waiting for: the vnet is
   * known, its chain runs, its lock and a socket to it are free. Then the body is sent (a single call may share a write
   * with other callers' calls, under an id of the engine's own), `done` gets the chain's bytes with the caller's ids
   * (or null when the chain did not answer as a pass-through: the caller takes `rpc`, which reports it) and the result
   * is true. False, with nothing sent, when the caller must take `rpc`. Engines without it leave it out.
   */
  rpcNow?(
    vnetId: string,
    body: JsonRpcRequest | JsonRpcRequest[],
    access: RpcAccess,
    text: string,
    done: (answer: Buffer | null) => void,
  ): boolean;
  /** Sends and mines a transaction; returns its record (also given to `ChainHost.recordTransaction`). */
  sendTransaction(vnetId: string, callArgs: CallArgs & { from: string }): Promise<Transaction>;
  /** Simulates on a Virtual Environment without keeping any state. */
  simulateOnVnet(vnetId: string, request: VnetSimulationRequest): Promise<VnetSimulationResult>;
  /** Simulates on a Virtual Environment and reports state changes, keeping no state. */
  simulateOnInstanceVnet(vnetId: string, request: VnetSimulationRequest): Promise<InstanceSimulationResult>;
  /** Project-level simulation on a replica chain of the network; the service adds id/created_at and saves it. */
  simulateOnNetwork(request: ProjectSimulationRequest): Promise<NetworkSimulation>;
  /**
   * Transactions simulated in order on one state of a replica of `networkId` (simulate.ts `simulateBundle`): each sees
   * the ones before it; the answer stops after the first that fails. Keeps no state.
   */
  simulateBundleOnNetwork?(networkId: string, bundle: NetworkBundle): Promise<VnetSimulationResult[]>;
  /**
   * The chain's own WebSocket URL for subscriptions (`eth_subscribe`), with the chain kept running until `release`.
   * Engines without one leave it out; the service then refuses subscriptions.
   */
  subscriptionChannel?(vnetId: string): Promise<{ readonly url: string; release(): void }>;
  /**
   * The block a new Virtual Environment of `networkId` forks: `requested` when the upstream has it, else the
   * upstream's head, pinned now (offline: the block the environment `environmentSlug` pinned last). Null when the
   * network has no upstream (a fresh chain). Throws `ChainRequestError` (400 with field `/block_number` for a block
   * beyond the head, 400 for a wrong `--fork` setting; 502/504 naming the network when its upstream fails).
   */
  forkPoint?(networkId: string, requested?: bigint, environmentSlug?: string): Promise<bigint | null>;
  /**
   * The snapshots (`evm_snapshot` through an RPC URL) a Virtual Environment's running chain holds, oldest first.
   * The chain keeps them in memory, so they last as long as the service's run. Engines that keep none leave it out.
   */
  snapshots?(vnetId: string): readonly VnetSnapshot[];
  /** Stops the chains of these Virtual Environments and removes their state (they are being deleted). */
  destroyVnets(vnetIds: readonly string[]): Promise<void>;
  /**
   * Calls `listener` with the ids of Virtual Environments as `destroyVnets` begins, before any wait: what keeps their
   * RPC URLs in memory (the RPC pipeline) forgets them at once, secrets included.
   */
  onVnetsDestroyed?(listener: (vnetIds: readonly string[]) => void): void;
  /** Stops every chain (state kept) and pending work; called on service shutdown. */
  close(): Promise<void>;

  /** Fixtures: a vnet's chain state (JSON) and its fork, read under the chain's lock with what `read` reads. */
  withVnetState?<T>(vnetId: string, read: (state: Buffer, fork: VnetFork | null) => T): Promise<T>;

  /** Fixtures: places the saved state of a vnet not started yet (synchronous: inside the creating transaction). */
  installVnetState?(vnetId: string, state: Buffer, fork: VnetFork | null): void;

  /** Fixtures: removes a state placed for a vnet that was not created after all. */
  discardVnetState?(vnetId: string): void;

  /** The call trace kept when a transaction of a vnet was mined (./trace-records.ts), or null when none is kept. */
  storedTrace?(vnetId: string, txHash: string): CallFrame | null;

  /** Fixtures: every kept trace of a vnet, by hash (call it inside `withVnetState`'s read, which waits for captures). */
  storedTraces?(vnetId: string): Record<string, CallFrame>;

  /** Fixtures: keeps an imported vnet's traces (synchronous: inside the creating transaction). */
  installTraces?(vnetId: string, traces: Readonly<Record<string, unknown>>): void;

  /**
   * Fixtures: the recordings a vnet's fork reads, or null: those a fixture brought it, and with `shared` the
   * service's upstream answers of its network and block.
   */
  forkRecordings?(vnetId: string, fork: VnetFork, shared: boolean): Promise<Record<string, unknown> | null>;

  /** Fixtures: keeps an imported fixture's recordings for the one vnet it creates (synchronous, in its transaction). */
  installForkRecordings?(vnetId: string, fork: VnetFork, answers: Readonly<Record<string, unknown>>): void;
}

/**
 * An error the engine raises for the service to answer with the spec's error body.
 * `field` names the request field at fault (a JSON pointer such as `/callArgs/to`) when there is one.
 */
export class ChainRequestError extends Error {
  constructor(
    readonly status: 400 | 402 | 404 | 502 | 503 | 504,
    message: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = "ChainRequestError";
  }
}

/** The fork a vnet's chain reads: the network and the pinned block (hex). */
export interface VnetFork {
  readonly networkId: string;
  readonly blockNumber: string;
}
