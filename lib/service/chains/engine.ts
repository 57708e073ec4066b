/**
 * The chain engine: the lifecycle of the Virtual Environments' chains (one node each, from a `ChainBackend`) and the
 * entry points the service calls (`ChainEngine`, ./types.ts). The parts live in the rooms beside it (README.md there):
 * what an RPC URL does with a call (calls/), the pool of nodes (pool/), the records of what calls did (transactions/),
 * what survives a crash (durability/), the bridge's relays (bridge/), simulations and the network replicas
 * (simulation/), forks (fork/).
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type {
  CallArgs,
  InstanceSimulationResult,
  ProjectSimulationRequest,
  Transaction,
  VnetSimulationRequest,
  VnetSimulationResult,
} from "../../api";
import type { ChainBackend, ChainNode } from "./node/backend";
import type { ChainEngineOptions } from "./engine-options";

export type { ChainEngineOptions } from "./engine-options";
import { depositsIn } from "./bridge/contract";
import type { BridgeRelay } from "./durability/relays";
import { ForkedVnets } from "./durability/forked-vnets";
import { VnetStateTransfer } from "./durability/vnet-state-transfer";
import { ChainBudget, ChainPool, DEFAULT_MAX_RUNNING_CHAINS } from "./pool";
import { ChainTimeoutError, DEFAULT_RPC_TIMEOUT_MS } from "./wire/chain-timeout";
import { asGatewayTimeout, timeoutAnswers } from "./calls/deadline-answers";
import { ChainJournal } from "./durability/journal";
import { Forks, forwardToReplayedFork, unrecordedRead } from "./fork";
import { JsonRpcError } from "./wire/json-rpc";
import { ChainLostError, guardLoss, isLostAnswer, untilAnswered } from "./calls/lost-chains";
import { isReadOnlyMethod } from "./evm/methods";
import { NetworkReplicas } from "./simulation/replicas";
import { estimateOrFail } from "./calls/api-sends";
import type { Receipt } from "./evm/rpc-answers";
import { CallEffects } from "./transactions/call-effects";
import { JournaledWrites, isJournaled, journalCall } from "./durability/recovery";
import { SnapshotBook } from "./node/snapshots";
import { launchVnet } from "./vnet-launch";
import { VnetFilesPort } from "./engine-files";
import { DEFAULT_SAVE_AFTER_WRITES, VnetStates, type UseIfRunning } from "./durability/vnet-states";
import { BridgeRelayer } from "./bridge/relayer";
import { forward, passesThrough, refusal, rpcError } from "./calls/rpc-proxy";
import { simulate } from "./simulation/simulate";
import { chainsDirOf, statePathOf } from "./node/state-files";
import { TraceRecords } from "./durability/trace-records";
import {
  ChainRequestError,
  type ChainEngine,
  type ChainHost,
  type JsonRpcRequest,
  type JsonRpcResponse,
  type NetworkBundle,
  type NetworkSimulation,
  type RpcAccess,
  type VnetChainSpec,
  type VnetSnapshot,
} from "./types";

/** A chain engine over any backend; `createAnvilEngine` builds it over anvil. */
export class BackendChainEngine extends VnetFilesPort implements ChainEngine {
  private readonly vnets: ChainPool;
  private readonly replicas: NetworkReplicas;
  private readonly effects: CallEffects;
  private readonly relayer: BridgeRelayer;
  /** The write journal and its replay (./durability/recovery.ts). */
  private readonly writes: JournaledWrites;
  /** When chains' states are saved, and their recovery (./durability/vnet-states.ts). */
  private readonly states: VnetStates;
  /** The kept call traces of mined transactions (./durability/trace-records.ts). */
  protected readonly traces: TraceRecords;
  /** The snapshots each vnet's chain holds (./node/snapshots.ts). */
  private readonly snapshotBook = new SnapshotBook();
  private readonly chainsDir: string;
  private readonly temporaryDir: string | null;
  /** The forked networks' upstreams and the proxies that record and replay them. */
  readonly forks: Forks;
  /** Which vnets' chains are forks (./durability/forked-vnets.ts). */
  private readonly forkedVnets: ForkedVnets;
  /** The export and import of vnets' chain states (./durability/vnet-state-transfer.ts). */
  protected readonly stateTransfer: VnetStateTransfer;
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
    super();
    this.temporaryDir = host.dataDir ? null : mkdtempSync(join(tmpdir(), "chainform-chains-"));
    this.chainsDir = host.dataDir ? chainsDirOf(host.dataDir) : this.temporaryDir!;
    mkdirSync(this.chainsDir, { recursive: true });
    this.forks = new Forks({
      urls: host.forkUrls,
      cacheDir: host.forkCacheDir ?? join(host.dataDir ?? this.temporaryDir!, "fork-cache"),
      // In the data dir, never the fork cache (which CI shares between services): a fixture's answers are one vnet's.
      importedDir: join(host.dataDir ?? this.temporaryDir!, "imported-recordings"),
      offline: host.offline === true,
      timeoutMs: options.upstreamTimeoutMs,
      maxAnswerBytes: options.upstreamMaxAnswerBytes,
      offlineEmptyAccounts: host.offlineEmptyAccounts === true,
      log: options.log,
      shared: host.sharedForkCache ?? null,
    });
    // Which vnets are forks, decided at their first start: a restart with other --fork settings changes no vnet's kind.
    const forkedVnets = (this.forkedVnets = new ForkedVnets(host.db));
    const budget = new ChainBudget(options.maxRunningChains ?? DEFAULT_MAX_RUNNING_CHAINS);
    const rpcTimeoutMs = options.rpcTimeoutMs ?? DEFAULT_RPC_TIMEOUT_MS;
    this.vnets = new ChainPool({
      launch: (id) =>
        launchVnet(
          { forkedVnets, backend, forks: this.forks, states: this.states, statePath: this.statePath(id), rpcTimeoutMs },
          this.spec(id),
        ),
      idleTimeoutMs: options.idleTimeoutMs ?? 300_000,
      keepRunning: (id) => this.snapshotBook.holds(id),
      beforeStop: (id, node) => this.traces.beforeStop(id, node),
      budget,
      rpcTimeoutMs,
      log: options.log,
    });
    this.replicas = new NetworkReplicas({
      backend,
      forks: this.forks,
      budget,
      idleTimeoutMs: options.replicaIdleTimeoutMs ?? 60_000,
      rpcTimeoutMs,
      log: options.log,
    });
    this.effects = new CallEffects(options.receiptTimeoutMs ?? 2_000);
    this.writes = new JournaledWrites(host, new ChainJournal(host.db));
    this.traces = new TraceRecords(host.db, (vnetId, work) => this.vnets.use(vnetId, "shared", work));
    this.traces.follow(this.writes);
    const saveAfterWrites = options.saveAfterWrites ?? DEFAULT_SAVE_AFTER_WRITES;
    const useIfRunning: UseIfRunning = (vnetId, mode, work) => this.vnets.useIfRunning(vnetId, mode, work);
    this.states = new VnetStates(this.writes, this.snapshotBook, useIfRunning, saveAfterWrites, options.log);
    // Journals of environments deleted while the service died (kill -9 during a delete) go, as their state files do.
    for (const vnetId of this.writes.journal.vnetIds()) if (host.resolveVnet(vnetId) === undefined) this.states.forget(vnetId);
    this.stateTransfer = new VnetStateTransfer(
      forkedVnets,
      (id) => this.statePath(id),
      (id, work) => this.vnets.use(id, "shared", work),
      this.writes.clocks,
    );
    this.forks.sweepImported((vnetId) => host.resolveVnet(vnetId) !== undefined);
    this.relayer = new BridgeRelayer(host, this.effects, (vnetId, work) => this.useVnet(vnetId, "exclusive", work), this.writes);
  }

  /** The running node of a Virtual Environment, if any (tests and benchmarks look at its processes). */
  runningNode(vnetId: string): ChainNode | null {
    return this.vnets.running(vnetId);
  }

  /** Number of running chains (Virtual Environments and replicas). */
  get runningChains(): number {
    return this.vnets.size + this.replicas.size;
  }

  rpc(vnetId: string, body: JsonRpcRequest | JsonRpcRequest[], access: RpcAccess): Promise<JsonRpcResponse | JsonRpcResponse[]>;
  rpc(
    vnetId: string,
    body: JsonRpcRequest | JsonRpcRequest[],
    access: RpcAccess,
    text: string,
  ): Promise<Buffer | JsonRpcResponse | JsonRpcResponse[]>;
  async rpc(
    vnetId: string,
    body: JsonRpcRequest | JsonRpcRequest[],
    access: RpcAccess,
    text?: string,
  ): Promise<Buffer | JsonRpcResponse | JsonRpcResponse[]> {
    const requests = Array.isArray(body) ? body : [body];
    if (text !== undefined && requests.length > 0 && requests.every((request) => passesThrough(request, access))) {
      this.rpcSpec(vnetId);
      // A chain that fails to answer is reported by the recorded path, which says so call by call; one past the
      // deadline is answered at once (the recorded path would wait as long again).
      const answer = await this.vnets.use(vnetId, "shared", (node) =>
        node.rpc.passThrough(text).catch((error: unknown) => (error instanceof ChainTimeoutError ? error : null)),
      );
      if (answer instanceof ChainTimeoutError) return timeoutAnswers(requests, Array.isArray(body), answer);
      if (answer) return answer;
    }
    return this.recordedRpc(vnetId, body, access);
  }

  rpcNow(
    vnetId: string,
    body: JsonRpcRequest | JsonRpcRequest[],
    access: RpcAccess,
    text: string,
    done: (answer: Buffer | null) => void,
  ): boolean {
    const requests = Array.isArray(body) ? body : [body];
    // A vnet whose spec is not in memory yet, or is deleted, takes `rpc` (which reads the store, or says 404).
    if (requests.length === 0 || !this.rpcSpecs.has(vnetId)) return false;
    for (const request of requests) if (!passesThrough(request, access)) return false;
    const use = this.vnets.tryUse(vnetId, "shared");
    if (use === null) return false;
    const sent = use.node.rpc.passThroughNow(text, Array.isArray(body) ? null : body, (answer) => {
      use.finish();
      done(
        answer instanceof ChainTimeoutError ? Buffer.from(JSON.stringify(timeoutAnswers(requests, Array.isArray(body), answer))) : answer,
      );
    });
    if (!sent) use.finish();
    return sent;
  }

  /** `rpc`'s path for calls that do not pass through: refusals, Admin RPC methods, records, the journal, relays. */
  private async recordedRpc(
    vnetId: string,
    body: JsonRpcRequest | JsonRpcRequest[],
    access: RpcAccess,
  ): Promise<JsonRpcResponse | JsonRpcResponse[]> {
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
        const effects = await this.effects.recordsOfCalls(node, spec, calls);
        // Read-only calls (the shared mode) journal and record nothing.
        const journaled = calls.filter(({ request, answer }) => isJournaled(request, answer));
        const mined = new Set(effects.records.map((record) => record.tx_hash.toLowerCase()));
        const entries = journaled.map(({ request, answer }) => journalCall(request, answer, mined));
        await this.writes.commit(node, vnetId, before, entries, effects.records, { latest: effects.latest });
        // Noted once journaled: an undone evm_snapshot must not keep the chain running as if it held one.
        await this.snapshotBook.noteTaken(node, vnetId, calls);
        for (const receipt of effects.receipts) deposits.push(...depositsIn(spec, receipt, Date.now()));
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
      const record = await this.effects.recordOfReceipt(node, spec, receipt, "api", "eth_sendTransaction");
      const sent = { method: "eth_sendTransactionSync", params: [tx], txHash: receipt.transactionHash, mined: true };
      await this.writes.commit(node, vnetId, before, [sent], [record]);
      deposits = depositsIn(spec, receipt, Date.now());
      return record;
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
    return this.replicas.simulate(request);
  }

  async simulateBundleOnNetwork(networkId: string, bundle: NetworkBundle): Promise<VnetSimulationResult[]> {
    return this.replicas.simulateBundle(networkId, bundle);
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
        this.effects.forget(vnetId);
        this.snapshotBook.forget(vnetId);
        this.states.forget(vnetId);
        this.traces.forget(vnetId);
        rmSync(this.statePath(vnetId), { force: true });
        await this.forks.forgetVnet(vnetId);
        this.forkedVnets.forget(vnetId);
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

  protected spec(vnetId: string): VnetChainSpec {
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
}
