/**
 * The chain engine: the lifecycle of the Virtual Environments' chains (one node each, from a `ChainBackend`) and of
 * the network replicas, and the entry points the service calls. The parts live beside it: the RPC proxy's access
 * rules and forwarding (rpc-proxy.ts), the transaction records (recorder.ts), the bridge relays (relayer.ts),
 * project-level simulation (network-simulation.ts) and vnet simulation (simulate.ts).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEFAULT_SIMULATION_NETWORK_ID, isChainId } from "../../api";
import type {
  CallArgs,
  InstanceSimulationResult,
  ProjectSimulationRequest,
  Transaction,
  VnetSimulationRequest,
  VnetSimulationResult,
} from "../../api";
import type { ChainBackend, ChainLog, ChainNode } from "./backend";
import type { BridgeRelay } from "./bridge";
import { ChainBudget, ChainPool, DEFAULT_MAX_RUNNING_CHAINS } from "./chain-pool";
import { ChainTimeoutError, DEFAULT_RPC_TIMEOUT_MS } from "./chain-timeout";
import { clockOfState, stateWithClock } from "./clock";
import { asGatewayTimeout, timeoutAnswers } from "./deadline-answers";
import { ChainJournal } from "./journal";
import { Forks, forwardToReplayedFork, unrecordedRead } from "./fork";
import { JsonRpcError, type JsonRpcClient } from "./json-rpc";
import { ChainLostError, guardLoss, isLostAnswer, untilAnswered } from "./lost-chains";
import { isReadOnlyMethod } from "./methods";
import { simulateOnReplica } from "./network-simulation";
import type { Receipt } from "./records";
import { TransactionRecorder } from "./recorder";
import { JournaledWrites, isJournaled, journalCall } from "./recovery";
import { SnapshotBook } from "./snapshots";
import { launchVnet } from "./vnet-launch";
import { DEFAULT_SAVE_AFTER_WRITES, VnetStates, type UseIfRunning } from "./vnet-states";
import { BridgeRelayer } from "./relayer";
import { forward, passesThrough, refusal, rpcError } from "./rpc-proxy";
import { simulate } from "./simulate";
import type { CallFrame } from "./trace";
import { TraceRecords } from "./trace-records";
import { chainsDirOf, commitDump, statePathOf, temporaryStatePath } from "./state-files";
import {
  ChainRequestError,
  type ChainEngine,
  type ChainHost,
  type JsonRpcRequest,
  type JsonRpcResponse,
  type NetworkSimulation,
  type RpcAccess,
  type VnetChainSpec,
  type VnetFork,
  type VnetSnapshot,
} from "./types";

const ZERO_ADDRESS = "0x0000000000000000000000000000000000000000";

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
  /** At most this many chains (Virtual Environments and replicas) run at once (./chain-pool.ts). @default 64 */
  readonly maxRunningChains?: number;
  /** The deadline of every call to a chain (`serve --rpc-timeout`, ./chain-timeout.ts). @default 30000 */
  readonly rpcTimeoutMs?: number;
  /**
   * A running chain's state is saved once this many writes are journaled since its last save, so that a recovery
   * applies at most about this many again (docs/chain-state.md "What survives what"). @default 500
   */
  readonly saveAfterWrites?: number;
  /** Where the engine reports recoveries and failed saves; default: nowhere. */
  readonly log?: ChainLog;
}

/** Gas given to an API-sent transaction whose estimate reverts, so that it is mined (and recorded) as failed. */
const FAILING_TRANSACTION_GAS = "0xf4240";

/** A chain engine over any backend; `createAnvilEngine` builds it over anvil. */
export class BackendChainEngine implements ChainEngine {
  private readonly vnets: ChainPool;
  private readonly replicas: ChainPool;
  private readonly recorder: TransactionRecorder;
  private readonly relayer: BridgeRelayer;
  /** The write journal and its replay (./recovery.ts). */
  private readonly writes: JournaledWrites;
  /** When chains' states are saved, and their recovery (./vnet-states.ts). */
  private readonly states: VnetStates;
  /** The kept call traces of mined transactions (./trace-records.ts). */
  private readonly traces: TraceRecords;
  /** The snapshots each vnet's chain holds (./snapshots.ts). */
  private readonly snapshotBook = new SnapshotBook();
  private readonly chainsDir: string;
  private readonly temporaryDir: string | null;
  /** The forked networks' upstreams and the proxies that record and replay them. */
  readonly forks: Forks;
  /** The block each forked network's replica forks, pinned at its first start for the service's life. */
  private readonly replicaBlocks = new Map<string, bigint | null>();
  /**
   * The specs the RPC URLs' calls need, looked up once (a vnet's spec never changes; the lookup is several queries
   * and JSON parses): dropped when the vnet is destroyed, which the service does as it deletes it.
   */
  private readonly rpcSpecs = new Map<string, VnetChainSpec>();
  /** Who hears of destroyed vnets at once (`onVnetsDestroyed`). */
  private readonly destroyedListeners: ((vnetIds: readonly string[]) => void)[] = [];

  constructor(
    private readonly host: ChainHost,
    private readonly backend: ChainBackend,
    private readonly options: ChainEngineOptions = {},
  ) {
    this.temporaryDir = host.dataDir ? null : mkdtempSync(join(tmpdir(), "chainform-chains-"));
    this.chainsDir = host.dataDir ? chainsDirOf(host.dataDir) : this.temporaryDir!;
    mkdirSync(this.chainsDir, { recursive: true });
    this.forks = new Forks({
      urls: host.forkUrls,
      cacheDir: host.forkCacheDir ?? join(host.dataDir ?? this.temporaryDir!, "fork-cache"),
      offline: host.offline === true,
      timeoutMs: options.upstreamTimeoutMs,
      maxAnswerBytes: options.upstreamMaxAnswerBytes,
      offlineEmptyAccounts: host.offlineEmptyAccounts === true,
      log: options.log,
    });
    // Which vnets are forks, decided at their first start: a restart with other --fork settings changes no vnet's kind.
    const budget = new ChainBudget(options.maxRunningChains ?? DEFAULT_MAX_RUNNING_CHAINS);
    const rpcTimeoutMs = options.rpcTimeoutMs ?? DEFAULT_RPC_TIMEOUT_MS;
    this.vnets = new ChainPool({
      launch: (id) =>
        launchVnet({ host, backend, forks: this.forks, states: this.states, statePath: this.statePath(id), rpcTimeoutMs }, this.spec(id)),
      idleTimeoutMs: options.idleTimeoutMs ?? 300_000,
      keepRunning: (id) => this.snapshotBook.holds(id),
      beforeStop: (id, node) => this.traces.beforeStop(id, node),
      budget,
      rpcTimeoutMs,
      log: options.log,
    });
    this.replicas = new ChainPool({
      launch: (id) => this.launchReplica(id),
      idleTimeoutMs: options.replicaIdleTimeoutMs ?? 60_000,
      budget,
      rpcTimeoutMs,
      log: options.log,
    });
    this.recorder = new TransactionRecorder(options.receiptTimeoutMs ?? 2_000);
    this.writes = new JournaledWrites(host, new ChainJournal(host.db));
    this.traces = new TraceRecords(host.db, (vnetId, work) => this.vnets.use(vnetId, "shared", work));
    this.writes.onRecorded = (vnetId, records) =>
      this.traces.capture(
        vnetId,
        records.filter((record) => record.kind === "blockchain").map((record) => record.tx_hash),
      );
    const saveAfterWrites = options.saveAfterWrites ?? DEFAULT_SAVE_AFTER_WRITES;
    const useIfRunning: UseIfRunning = (vnetId, mode, work) => this.vnets.useIfRunning(vnetId, mode, work);
    this.states = new VnetStates(this.writes, this.snapshotBook, useIfRunning, saveAfterWrites, options.log);
    // Journals of environments deleted while the service died (kill -9 during a delete) go, as their state files do.
    for (const vnetId of this.writes.journal.vnetIds()) if (host.resolveVnet(vnetId) === undefined) this.states.forget(vnetId);
    this.relayer = new BridgeRelayer(host, this.recorder, (vnetId, work) => this.useVnet(vnetId, "exclusive", work), this.writes);
  }

  /** The running node of a Virtual Environment, if any (tests and benchmarks look at its processes). */
  runningNode(vnetId: string): ChainNode | null {
    return this.vnets.running(vnetId);
  }

  /** Number of running chains (Virtual Environments and replicas). */
  get runningChains(): number {
    return this.vnets.size + this.replicas.size;
  }

  async rpcBytes(
    vnetId: string,
    requests: readonly JsonRpcRequest[],
    batch: boolean,
    raw: Buffer | string,
    access: RpcAccess,
  ): Promise<Buffer | JsonRpcResponse | JsonRpcResponse[]> {
    if (requests.length > 0 && requests.every((request) => passesThrough(request, access))) {
      this.rpcSpec(vnetId);
      // A chain that fails to answer is reported by the parsed path, which says so call by call; one past the
      // deadline is answered at once (the parsed path would wait as long again).
      const answer = await this.vnets.use(vnetId, "shared", (node) =>
        node.rpc.sendRaw(raw).catch((error: unknown) => (error instanceof ChainTimeoutError ? error : null)),
      );
      if (answer instanceof ChainTimeoutError) return timeoutAnswers(requests, batch, answer);
      if (answer) return answer;
    }
    return this.rpc(vnetId, batch ? [...requests] : requests[0], access);
  }

  rpcBytesNow(
    vnetId: string,
    requests: readonly JsonRpcRequest[],
    batch: boolean,
    text: string,
    access: RpcAccess,
    done: (answer: Buffer | null) => void,
  ): boolean {
    // A vnet whose spec is not in memory yet, or is deleted, takes `rpcBytes` (which reads the store, or says 404).
    if (requests.length === 0 || !this.rpcSpecs.has(vnetId)) return false;
    for (const request of requests) if (!passesThrough(request, access)) return false;
    const use = this.vnets.tryUse(vnetId, "shared");
    if (use === null) return false;
    const answered = (answer: Buffer | ChainTimeoutError | null) => {
      use.finish();
      done(answer instanceof ChainTimeoutError ? Buffer.from(JSON.stringify(timeoutAnswers(requests, batch, answer))) : answer);
    };
    const sent =
      (!batch && requests.length === 1 && use.node.rpc.callNow(requests[0], text, answered)) ||
      use.node.rpc.sendRawNow(Buffer.from(text), answered);
    if (!sent) use.finish();
    return sent;
  }

  async rpc(vnetId: string, body: JsonRpcRequest | JsonRpcRequest[], access: RpcAccess): Promise<JsonRpcResponse | JsonRpcResponse[]> {
    const batch = Array.isArray(body);
    const requests: unknown[] = batch ? body : [body];
    if (batch && requests.length === 0) return rpcError(null, -32600, "Invalid Request: empty batch");
    const spec = this.rpcSpec(vnetId);
    const answers: (JsonRpcResponse | undefined)[] = requests.map((request) => refusal(request, access));
    const forwarded = requests.flatMap((request, index) => (answers[index] ? [] : [{ index, request: request as JsonRpcRequest }]));
    const deposits: BridgeRelay[] = [];
    if (forwarded.length > 0) {
      const mode = forwarded.every(({ request }) => isReadOnlyMethod(request.method)) ? "shared" : "exclusive";
      await this.useVnet(vnetId, mode, async (node) => {
        const before = mode === "exclusive" ? await this.writes.begin(node) : 0n;
        // A fork served from recordings only answers a send that would read what was never recorded without sending it.
        const forwardTo = this.forks.replaysOnly(node) ? forwardToReplayedFork : forward;
        const results = await forwardTo(
          node.rpc,
          forwarded.map(({ request }) => request),
        );
        // A call the chain never answered (it died): the work runs again once the chain is back (./lost-chains.ts).
        if (results.some(isLostAnswer)) throw new ChainLostError("a call found no chain to answer it");
        forwarded.forEach(({ index }, i) => (answers[index] = results[i]));
        const calls = forwarded.map(({ request }, i) => ({ request, answer: results[i] }));
        const effects = await this.recorder.recordRpcEffects(node, spec, calls);
        // Read-only calls (the shared mode) journal and record nothing.
        const journaled = calls.filter(({ request, answer }) => isJournaled(request, answer));
        const mined = new Set(effects.records.map((record) => record.tx_hash.toLowerCase()));
        const entries = journaled.map(({ request, answer }) => journalCall(request, answer, mined));
        await this.writes.commit(node, vnetId, before, entries, effects.records, { latest: effects.latest });
        // Noted once journaled: an undone evm_snapshot must not keep the chain running as if it held one.
        const taken = forwarded.flatMap(({ request }, i) =>
          request.method === "evm_snapshot" && "result" in results[i] ? [String(results[i].result)] : [],
        );
        if (taken.length > 0) await this.snapshotBook.note(node, vnetId, taken);
        deposits.push(...effects.deposits);
      });
      if (mode === "exclusive") this.states.saveIfDue(vnetId);
    }
    await this.relayer.relay(deposits);
    return batch ? (answers as JsonRpcResponse[]) : answers[0]!;
  }

  async sendTransaction(vnetId: string, callArgs: CallArgs & { from: string }): Promise<Transaction> {
    const spec = this.spec(vnetId);
    let deposits: BridgeRelay[] = [];
    const record = await this.useVnet(vnetId, "exclusive", async (node) => {
      const tx: Record<string, string> = { from: callArgs.from };
      for (const key of ["to", "gas", "gasPrice", "value", "data"] as const) if (callArgs[key]) tx[key] = callArgs[key]!;
      const unrecorded = this.forks.replaysOnly(node) ? await unrecordedRead(node.rpc, tx) : null;
      if (unrecorded) throw new ChainRequestError(400, unrecorded, "/callArgs");
      if (!tx.gas) tx.gas = await estimateOrFail(node.rpc, tx);
      const before = await this.writes.begin(node);
      const receipt = await node.rpc.request<Receipt>("eth_sendTransactionSync", [tx]).catch((error: unknown) => {
        throw error instanceof JsonRpcError
          ? new ChainRequestError(400, `the transaction was not accepted: ${error.message}`, "/callArgs")
          : error;
      });
      const result = await this.recorder.recordReceipt(node, spec, receipt, "api", "eth_sendTransaction");
      const sent = { method: "eth_sendTransactionSync", params: [tx], txHash: receipt.transactionHash, mined: true };
      await this.writes.commit(node, vnetId, before, [sent], [result.record]);
      deposits = result.deposits;
      return result.record;
    });
    this.states.saveIfDue(vnetId);
    await this.relayer.relay(deposits);
    return record;
  }

  async simulateOnVnet(vnetId: string, request: VnetSimulationRequest): Promise<VnetSimulationResult> {
    this.spec(vnetId);
    return this.useVnet(vnetId, "shared", (node) => simulate(node.rpc, request, false));
  }

  async simulateOnInstanceVnet(vnetId: string, request: VnetSimulationRequest): Promise<InstanceSimulationResult> {
    this.spec(vnetId);
    return this.useVnet(vnetId, "shared", (node) => simulate(node.rpc, request, true));
  }

  async simulateOnNetwork(request: ProjectSimulationRequest): Promise<NetworkSimulation> {
    const networkId = request.network_id ?? DEFAULT_SIMULATION_NETWORK_ID;
    if (!isChainId(networkId)) {
      throw new ChainRequestError(400, `network_id must be a chain id such as "1", got "${networkId}"`, "/network_id");
    }
    const from = (request.from ?? ZERO_ADDRESS).toLowerCase();
    return this.replicas.use(networkId, "shared", (node) => simulateOnReplica(node, networkId, from, request)).catch(asGatewayTimeout);
  }

  async subscriptionChannel(vnetId: string): Promise<{ url: string; release(): void }> {
    this.spec(vnetId);
    // anvil serves JSON-RPC over WebSocket on its HTTP port.
    const { value, unpin } = await this.vnets.pin(vnetId, (node) => node.rpc.url.replace(/^http/, "ws"));
    return { url: value, release: unpin };
  }

  forkPoint(networkId: string, requested?: bigint, environmentSlug?: string): Promise<bigint | null> {
    return this.forks.forkPoint(networkId, requested, environmentSlug);
  }

  onVnetsDestroyed(listener: (vnetIds: readonly string[]) => void): void {
    this.destroyedListeners.push(listener);
  }

  async destroyVnets(vnetIds: readonly string[]): Promise<void> {
    this.relayer.dropVnets(vnetIds);
    // At once, before any wait: from here on their RPC URLs are unknown.
    for (const vnetId of vnetIds) this.rpcSpecs.delete(vnetId);
    for (const listener of this.destroyedListeners) listener(vnetIds);
    await Promise.all(
      vnetIds.map(async (vnetId) => {
        await this.vnets.destroy(vnetId);
        this.recorder.forget(vnetId);
        this.snapshotBook.forget(vnetId);
        this.states.forget(vnetId);
        this.traces.forget(vnetId);
        rmSync(this.statePath(vnetId), { force: true });
        this.host.db.prepare("DELETE FROM chain_forks WHERE vnet_id = ?").run(vnetId);
      }),
    );
  }

  async close(): Promise<void> {
    this.relayer.close();
    await Promise.all([this.vnets.close(), this.replicas.close()]);
    await this.forks.close();
    if (this.temporaryDir) rmSync(this.temporaryDir, { recursive: true, force: true });
  }

  snapshots(vnetId: string): readonly VnetSnapshot[] {
    return this.snapshotBook.list(vnetId);
  }

  /**
   * `ChainPool.use` on a vnet's chain, run again when the chain dies under it (./lost-chains.ts), a call past its
   * deadline answered as a 504 naming the timeout.
   */
  private useVnet<T>(vnetId: string, mode: "shared" | "exclusive", work: (node: ChainNode) => Promise<T>): Promise<T> {
    const deadline = this.options.rpcTimeoutMs ?? DEFAULT_RPC_TIMEOUT_MS;
    return untilAnswered(deadline, () => this.vnets.use(vnetId, mode, (node) => guardLoss(node, work))).catch(asGatewayTimeout);
  }

  private spec(vnetId: string): VnetChainSpec {
    const spec = this.host.resolveVnet(vnetId);
    if (!spec) throw new ChainRequestError(404, `Virtual Environment ${vnetId} not found`);
    return spec;
  }

  /** `spec`, remembered for the RPC URLs' calls. */
  private rpcSpec(vnetId: string): VnetChainSpec {
    let spec = this.rpcSpecs.get(vnetId);
    if (!spec) this.rpcSpecs.set(vnetId, (spec = this.spec(vnetId)));
    return spec;
  }

  private statePath(vnetId: string): string {
    return statePathOf(this.chainsDir, vnetId);
  }

  private async launchReplica(networkId: string): Promise<ChainNode> {
    // A replica forks the head as of its first start (offline: the newest recorded block) and keeps that block when
    // restarted after idling, so that its recordings stay in one file rather than one per head it happened to see.
    const block = this.replicaBlocks.has(networkId)
      ? this.replicaBlocks.get(networkId)!
      : await this.forks.forkPoint(networkId, undefined, undefined, { mines: false });
    this.replicaBlocks.set(networkId, block);
    const forkUrl = block === null ? null : await this.forks.proxyUrl(networkId, block);
    const fork = forkUrl === null || block === null ? {} : { fork: { url: forkUrl, blockNumber: block } };
    const rpcTimeoutMs = this.options.rpcTimeoutMs ?? DEFAULT_RPC_TIMEOUT_MS;
    return this.backend.start({ chainId: BigInt(networkId), statePath: null, ...fork, rpcTimeoutMs }).catch((error: Error) => {
      throw new ChainRequestError(forkUrl ? 502 : 503, `the replica of network ${networkId} did not start: ${error.message}`);
    });
  }

  /**
   * Fixtures (lib/service/fixtures): a vnet's chain state as anvil dumps it (its state JSON), taken under the
   * chain's lock, and the fork it reads, if any. `read` runs while the lock is held, so that what it reads beside the
   * state (the transaction records, written under the same lock) is of the same moment. Starts a stopped chain.
   */
  async withVnetState<T>(vnetId: string, read: (state: Buffer, fork: VnetFork | null) => T): Promise<T> {
    this.spec(vnetId);
    // Before the lock: a capture queued behind a writer waiting for this read would wait for it.
    await this.traces.flush(vnetId);
    return this.vnets.use(vnetId, "shared", async (node) => {
      // anvil answers the state gzip'd, as hex; `--load-state` reads it as JSON.
      const dumped = Buffer.from((await node.rpc.request<string>("anvil_dumpState")).replace(/^0x/, ""), "hex");
      const state = dumped[0] === 0x1f && dumped[1] === 0x8b ? gunzipSync(dumped) : dumped;
      const row = this.host.db.prepare("SELECT network_id, block_number FROM chain_forks WHERE vnet_id = ?").get(vnetId) as
        { network_id: string; block_number: string } | undefined;
      // The clock travels with the state (./clock.ts): anvil's state does not hold it.
      const withClock = stateWithClock(state, this.writes.clocks.get(vnetId));
      return read(withClock, row ? { networkId: row.network_id, blockNumber: row.block_number } : null);
    });
  }

  /**
   * Fixtures: makes `state` the saved state of a vnet that has not started yet (it loads it at its first start, as a
   * restarted chain does), forking `fork` when given. Synchronous, so that it runs inside the store transaction that
   * creates the vnet: a failure throws and the caller removes what was placed (`discardVnetState`).
   */
  installVnetState(vnetId: string, state: Buffer, fork: VnetFork | null): void {
    const statePath = this.statePath(vnetId);
    const temporary = temporaryStatePath(statePath);
    writeFileSync(temporary, state, { mode: 0o600 });
    // Generation 0 (./state-files.ts): a new vnet has no journal row, and an imported number must not skip later ones.
    const failure = commitDump(temporary, statePath, 0);
    if (failure) throw new ChainRequestError(503, `the imported state of Virtual Environment ${vnetId} could not be saved: ${failure}`);
    const clock = clockOfState(state);
    if (clock) this.writes.clocks.set(vnetId, clock);
    if (fork) {
      this.host.db
        .prepare("INSERT OR REPLACE INTO chain_forks (vnet_id, network_id, block_number) VALUES (?, ?, ?)")
        .run(vnetId, fork.networkId, fork.blockNumber);
    }
  }

  storedTrace(vnetId: string, txHash: string): CallFrame | null {
    return this.traces.get(vnetId, txHash);
  }

  storedTraces(vnetId: string): Record<string, CallFrame> {
    return this.traces.all(vnetId);
  }

  installTraces(vnetId: string, traces: Readonly<Record<string, unknown>>): void {
    this.traces.put(vnetId, traces);
  }

  /** Tests: waits for the traces queued for capture on a vnet. */
  flushTraces(vnetId: string): Promise<void> {
    return this.traces.flush(vnetId);
  }

  /** Fixtures: removes a state placed by `installVnetState` whose vnet was not created after all. */
  discardVnetState(vnetId: string): void {
    rmSync(this.statePath(vnetId), { force: true });
  }

  /** Fixtures: the recordings a fork of a network at a block reads, or null when there are none. */
  forkRecordings(networkId: string, blockNumber: string): Promise<Record<string, unknown> | null> {
    return this.forks.savedRecordings(networkId, BigInt(blockNumber));
  }

  /** Fixtures: adds an imported fixture's recordings to this service's, so that its forks replay them offline. */
  addForkRecordings(networkId: string, blockNumber: string, answers: Readonly<Record<string, unknown>>): Promise<void> {
    return this.forks.addRecordings(networkId, BigInt(blockNumber), answers);
  }
}

function hex(n: bigint): string {
  return `0x${n.toString(16)}`;
}

/** A gas limit for an API-sent transaction: the estimate, or a fixed amount when it reverts (it is mined failed). */
async function estimateOrFail(rpc: JsonRpcClient, tx: Record<string, string>): Promise<string> {
  try {
    const estimate = BigInt(await rpc.request<string>("eth_estimateGas", [tx]));
    return hex(estimate + estimate / 5n);
  } catch (error) {
    if (error instanceof JsonRpcError && /revert/i.test(error.message)) return FAILING_TRANSACTION_GAS;
    throw error instanceof JsonRpcError
      ? new ChainRequestError(400, `the transaction cannot be sent: ${error.message}`, "/callArgs")
      : error;
  }
}
