/**
 * The chain engine: the Virtual Environments' chains (one node each, from a `ChainBackend`), their RPC proxy and
 * its records, transactions, simulations, project-level replicas and the bridge relays.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEFAULT_SIMULATION_NETWORK_ID, isChainId } from "../../spec";
import type {
  AccessList,
  CallArgs,
  InstanceSimulationResult,
  ProjectSimulationRequest,
  Transaction,
  TransactionOrigin,
  VnetSimulationRequest,
  VnetSimulationResult,
} from "../../spec";
import type { ChainBackend, ChainNode } from "./backend";
import {
  BRIDGE_ADDRESS,
  BRIDGE_LIQUIDITY,
  RELAYER_ADDRESS,
  RELAYER_FUNDS,
  RelayStore,
  bridgeCode,
  depositsIn,
  relayCall,
  relayedCall,
  type BridgeRelay,
} from "./bridge";
import { ChainPool } from "./chain-pool";
import { ADMIN_METHODS, isAdminMethod } from "./admin-rpc";
import { JsonRpcError, type JsonRpcClient } from "./json-rpc";
import { MINING_METHODS, SIGNER_METHODS, STATE_CHEATCODES, TRANSACTION_METHODS, isPublicMethod, isReadOnlyMethod } from "./methods";
import { cheatcodeTransaction, minedTransaction, type Receipt, type TransactionDetails } from "./records";
import { applyDiff, simulate, type AccountOverride, type PrestateDiff } from "./simulate";
import { nestTrace } from "./trace";
import {
  ChainRequestError,
  type ChainEngine,
  type ChainHost,
  type JsonRpcRequest,
  type JsonRpcResponse,
  type NetworkSimulation,
  type RpcAccess,
  type VnetChainSpec,
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
}

/** Gas given to an API-sent transaction whose estimate reverts, so that it is mined (and recorded) as failed. */
const FAILING_TRANSACTION_GAS = "0xf4240";

/** A chain engine over any backend; `createAnvilEngine` builds it over anvil. */
export class BackendChainEngine implements ChainEngine {
  private readonly vnets: ChainPool;
  private readonly replicas: ChainPool;
  private readonly relays: RelayStore;
  private readonly chainsDir: string;
  private readonly temporaryDir: string | null;
  /** Hashes sent through an RPC URL and not mined yet, with the method that sent them, by vnet. */
  private readonly unminedHashes = new Map<string, Map<string, string>>();
  private readonly relaysInFlight = new Set<string>();
  /** Virtual Environments whose chain holds evm_snapshot ids: anvil keeps snapshots in memory only. */
  private readonly snapshotted = new Set<string>();
  private relayTimer: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(
    private readonly host: ChainHost,
    private readonly backend: ChainBackend,
    private readonly options: ChainEngineOptions = {},
  ) {
    this.temporaryDir = host.dataDir ? null : mkdtempSync(join(tmpdir(), "chainform-chains-"));
    this.chainsDir = host.dataDir ? join(host.dataDir, "chains") : this.temporaryDir!;
    mkdirSync(this.chainsDir, { recursive: true });
    this.vnets = new ChainPool({
      launch: (id) => this.launchVnet(id),
      idleTimeoutMs: options.idleTimeoutMs ?? 300_000,
      keepRunning: (id) => this.snapshotted.has(id),
    });
    this.replicas = new ChainPool({ launch: (id) => this.launchReplica(id), idleTimeoutMs: options.replicaIdleTimeoutMs ?? 60_000 });
    this.relays = new RelayStore(host.db);
    this.scheduleRelays();
  }

  /** The running node of a Virtual Environment, if any (tests and benchmarks look at its processes). */
  runningNode(vnetId: string): ChainNode | null {
    return this.vnets.running(vnetId);
  }

  /** Number of running chains (Virtual Environments and replicas). */
  get runningChains(): number {
    return this.vnets.size + this.replicas.size;
  }

  async rpc(vnetId: string, body: JsonRpcRequest | JsonRpcRequest[], access: RpcAccess): Promise<JsonRpcResponse | JsonRpcResponse[]> {
    const batch = Array.isArray(body);
    const requests: unknown[] = batch ? body : [body];
    if (batch && requests.length === 0) return rpcError(null, -32600, "Invalid Request: empty batch");
    const spec = this.spec(vnetId);
    const answers: (JsonRpcResponse | undefined)[] = requests.map((request) => refusal(request, access));
    const forwarded = requests.flatMap((request, index) => (answers[index] ? [] : [{ index, request: request as JsonRpcRequest }]));
    const deposits: BridgeRelay[] = [];
    if (forwarded.length > 0) {
      const mode = forwarded.every(({ request }) => isReadOnlyMethod(request.method)) ? "shared" : "exclusive";
      await this.vnets.use(vnetId, mode, async (node) => {
        const results = await forward(node.rpc, forwarded.map(({ request }) => request));
        forwarded.forEach(({ index }, i) => (answers[index] = results[i]));
        if (forwarded.some(({ request }, i) => request.method === "evm_snapshot" && "result" in results[i])) this.snapshotted.add(vnetId);
        deposits.push(...(await this.recordRpcEffects(node, spec, forwarded.map(({ request }, i) => ({ request, answer: results[i] })))));
      });
    }
    await this.relayDeposits(deposits);
    return batch ? (answers as JsonRpcResponse[]) : answers[0]!;
  }

  async sendTransaction(vnetId: string, callArgs: CallArgs & { from: string }): Promise<Transaction> {
    const spec = this.spec(vnetId);
    let deposits: BridgeRelay[] = [];
    const record = await this.vnets.use(vnetId, "exclusive", async (node) => {
      const tx: Record<string, string> = { from: callArgs.from };
      for (const key of ["to", "gas", "gasPrice", "value", "data"] as const) if (callArgs[key]) tx[key] = callArgs[key]!;
      if (!tx.gas) tx.gas = await estimateOrFail(node.rpc, tx);
      const receipt = await node.rpc.request<Receipt>("eth_sendTransactionSync", [tx]).catch((error: unknown) => {
        throw error instanceof JsonRpcError ? new ChainRequestError(400, `the transaction was not accepted: ${error.message}`, "/callArgs") : error;
      });
      const result = await this.recordReceipt(node, spec, receipt, "api", "eth_sendTransaction");
      deposits = result.deposits;
      return result.record;
    });
    await this.relayDeposits(deposits);
    return record;
  }

  async simulateOnVnet(vnetId: string, request: VnetSimulationRequest): Promise<VnetSimulationResult> {
    this.spec(vnetId);
    return this.vnets.use(vnetId, "shared", (node) => simulate(node.rpc, request, false));
  }

  async simulateOnInstanceVnet(vnetId: string, request: VnetSimulationRequest): Promise<InstanceSimulationResult> {
    this.spec(vnetId);
    return this.vnets.use(vnetId, "shared", (node) => simulate(node.rpc, request, true));
  }

  async simulateOnNetwork(request: ProjectSimulationRequest): Promise<NetworkSimulation> {
    const networkId = request.network_id ?? DEFAULT_SIMULATION_NETWORK_ID;
    if (!isChainId(networkId)) {
      throw new ChainRequestError(400, `network_id must be a chain id such as "1", got "${networkId}"`, "/network_id");
    }
    const from = (request.from ?? ZERO_ADDRESS).toLowerCase();
    return this.replicas.use(networkId, "shared", async (node) => {
      const head = BigInt(await node.rpc.request<string>("eth_blockNumber"));
      const requested = request.block_number === null || request.block_number === undefined ? undefined : BigInt(request.block_number);
      // A replica without history (offline) runs a later block number on its head state.
      const block = requested !== undefined && requested <= head ? requested : head;
      const index = request.transaction_index ?? null;
      // At a transaction index, the transaction runs inside `block`: on its parent's state plus its earlier transactions.
      const priorState = index === null ? undefined : await this.stateBeforeIndex(node, block, index);
      const base = index !== null && block > 0n ? block - 1n : block;
      const number = request.block_header?.number ? BigInt(request.block_header.number) : (requested ?? block);
      const accessList = request.access_list?.map((entry) => ({ address: entry.address.toLowerCase(), storageKeys: entry.storage_keys ?? [] }));
      const callArgs = {
        from,
        ...(request.to ? { to: request.to } : {}),
        ...(request.gas !== undefined ? { gas: hex(BigInt(request.gas)) } : {}),
        ...(request.gas_price !== undefined ? { gasPrice: hex(BigInt(request.gas_price)) } : {}),
        ...(request.value !== undefined ? { value: hex(BigInt(request.value)) } : {}),
        data: request.input ?? "0x",
      };
      const result = await simulate(
        node.rpc,
        {
          callArgs,
          blockNumber: hex(base),
          blockOverrides: { number: hex(number), ...(request.block_header?.timestamp ? { timestamp: request.block_header.timestamp } : {}) },
        },
        false,
        { accessList, priorState },
      );
      const generated = request.generate_access_list ? await generatedAccessList(node.rpc, { ...callArgs, ...(accessList ? { accessList } : {}) }, hex(base)) : undefined;
      const simulation = {
        network_id: networkId,
        block_number: Number(BigInt(result.blockNumber)),
        from,
        to: request.to ? request.to.toLowerCase() : null,
        input: request.input ?? "0x",
        value: hex(BigInt(request.value ?? 0)),
        gas: request.gas ?? Number(BigInt(result.trace[0]?.gas ?? "0x0")),
        gas_used: Number(BigInt(result.gasUsed)),
        status: result.status,
        logs: result.logs,
        trace: result.trace,
      };
      const contracts = [...new Set(result.trace.filter((entry) => entry.input.length > 2 && entry.to !== "" && !entry.type.startsWith("CREATE")).map((entry) => entry.to))];
      return {
        simulation,
        transaction: {
          network_id: networkId,
          block_number: simulation.block_number,
          transaction_index: index ?? 0,
          from,
          to: simulation.to,
          input: simulation.input,
          value: simulation.value,
          gas: simulation.gas,
          gas_used: simulation.gas_used,
          status: simulation.status,
          access_list: request.access_list ?? [],
          transaction_info: { call_trace: nestTrace(result.trace), logs: result.logs },
        },
        contracts: contracts.map((address) => ({ address, network_id: networkId })),
        ...(generated ? { generatedAccessList: generated } : {}),
      };
    });
  }

  /** The effects of the first `index` transactions of `block`, as state overrides on its parent's state. */
  private async stateBeforeIndex(node: ChainNode, block: bigint, index: number): Promise<Record<string, AccountOverride>> {
    const found = await node.rpc.request<{ transactions: string[] } | null>("eth_getBlockByNumber", [hex(block), false]);
    const hashes = found?.transactions ?? [];
    if (index > hashes.length) {
      throw new ChainRequestError(400, `transaction_index ${index} is beyond block ${block}, which has ${hashes.length} transaction(s)`, "/transaction_index");
    }
    const state: Record<string, AccountOverride> = {};
    for (const hash of hashes.slice(0, index)) {
      applyDiff(state, await node.rpc.request<PrestateDiff>("debug_traceTransaction", [hash, { tracer: "prestateTracer", tracerConfig: { diffMode: true } }]));
    }
    return state;
  }

  async subscriptionChannel(vnetId: string): Promise<{ url: string; release(): void }> {
    this.spec(vnetId);
    // anvil serves JSON-RPC over WebSocket on its HTTP port.
    const { value, unpin } = await this.vnets.pin(vnetId, (node) => node.rpc.url.replace(/^http/, "ws"));
    return { url: value, release: unpin };
  }

  async destroyVnets(vnetIds: readonly string[]): Promise<void> {
    this.relays.dropVnets(vnetIds);
    await Promise.all(
      vnetIds.map(async (vnetId) => {
        await this.vnets.destroy(vnetId);
        this.unminedHashes.delete(vnetId);
        this.snapshotted.delete(vnetId);
        rmSync(this.statePath(vnetId), { force: true });
      }),
    );
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.relayTimer) clearTimeout(this.relayTimer);
    await Promise.all([this.vnets.close(), this.replicas.close()]);
    if (this.temporaryDir) rmSync(this.temporaryDir, { recursive: true, force: true });
  }

  private spec(vnetId: string): VnetChainSpec {
    const spec = this.host.resolveVnet(vnetId);
    if (!spec) throw new ChainRequestError(404, `Virtual Environment ${vnetId} not found`);
    return spec;
  }

  private statePath(vnetId: string): string {
    return join(this.chainsDir, `${vnetId}.json`);
  }

  private async launchVnet(vnetId: string): Promise<ChainNode> {
    const spec = this.spec(vnetId);
    const statePath = this.statePath(vnetId);
    const fresh = !existsSync(statePath);
    const forkUrl = this.host.forkUrls[spec.networkId];
    const node = await this.backend
      .start({
        chainId: spec.chainId,
        statePath,
        ...(forkUrl
          ? { fork: { url: forkUrl, blockNumber: BigInt(spec.forkBlockNumber) } }
          : { genesisBlockNumber: BigInt(spec.forkBlockNumber) }),
      })
      .catch((error: Error) => {
        throw new ChainRequestError(forkUrl ? 502 : 503, `the chain of Virtual Environment ${vnetId} did not start: ${error.message}`);
      });
    if (fresh) {
      await this.prepareFreshChain(node, spec).catch(async (error: Error) => {
        await node.kill();
        throw new ChainRequestError(503, `the chain of Virtual Environment ${vnetId} could not be prepared: ${error.message}`);
      });
    }
    return node;
  }

  /** Funds the pre-funded accounts and, in a bridged environment, places and funds the bridge. */
  private async prepareFreshChain(node: ChainNode, spec: VnetChainSpec): Promise<void> {
    const { setBalance, setCode } = this.backend.cheats;
    const calls: [string, unknown[]][] = spec.accounts.map((a) => [setBalance, [a.address, a.balance]]);
    if (spec.bridge) {
      calls.push([setCode, [BRIDGE_ADDRESS, bridgeCode()]], [setBalance, [BRIDGE_ADDRESS, BRIDGE_LIQUIDITY]], [setBalance, [RELAYER_ADDRESS, RELAYER_FUNDS]]);
    }
    if (calls.length === 0) return;
    const answers = await forward(
      node.rpc,
      calls.map(([method, params], id) => ({ jsonrpc: "2.0", id, method, params })),
    );
    const failed = answers.find((a) => "error" in a);
    if (failed && "error" in failed) throw new Error(failed.error.message);
  }

  private async launchReplica(networkId: string): Promise<ChainNode> {
    const forkUrl = this.host.forkUrls[networkId];
    return this.backend.start({ chainId: BigInt(networkId), statePath: null, ...(forkUrl ? { fork: { url: forkUrl } } : {}) }).catch((error: Error) => {
      throw new ChainRequestError(forkUrl ? 502 : 503, `the replica of network ${networkId} did not start: ${error.message}`);
    });
  }

  /** Records the transactions and cheatcodes a forwarded call made; returns the bridge deposits seen. */
  private async recordRpcEffects(
    node: ChainNode,
    spec: VnetChainSpec,
    calls: readonly { request: JsonRpcRequest; answer: JsonRpcResponse }[],
  ): Promise<BridgeRelay[]> {
    const deposits: BridgeRelay[] = [];
    let head: string | null = null;
    let mined = false;
    for (const { request, answer } of calls) {
      if (!("result" in answer)) continue;
      if (TRANSACTION_METHODS.has(request.method)) {
        const result = answer.result as string | Receipt;
        const receipt = typeof result === "string" ? await this.waitForReceipt(node.rpc, result) : result;
        if (receipt) deposits.push(...(await this.recordReceipt(node, spec, receipt, "rpc", request.method)).deposits);
        else this.unmined(spec.vnetId).set(result as string, request.method);
      } else if (STATE_CHEATCODES.has(request.method)) {
        head ??= await node.rpc.request<string>("eth_blockNumber");
        this.host.recordTransaction(cheatcodeTransaction(spec, request.method, request.params ?? [], head));
        mined ||= MINING_METHODS.has(request.method);
      }
    }
    if (mined) deposits.push(...(await this.recordNewlyMined(node, spec)));
    return deposits;
  }

  /** Records transactions sent earlier whose receipts were missing (automine off) and now exist. */
  private async recordNewlyMined(node: ChainNode, spec: VnetChainSpec): Promise<BridgeRelay[]> {
    const deposits: BridgeRelay[] = [];
    const hashes = this.unmined(spec.vnetId);
    for (const [hash, method] of [...hashes]) {
      const receipt = await node.rpc.request<Receipt | null>("eth_getTransactionReceipt", [hash]);
      if (!receipt) continue;
      hashes.delete(hash);
      deposits.push(...(await this.recordReceipt(node, spec, receipt, "rpc", method)).deposits);
    }
    return deposits;
  }

  private unmined(vnetId: string): Map<string, string> {
    let map = this.unminedHashes.get(vnetId);
    if (!map) this.unminedHashes.set(vnetId, (map = new Map()));
    return map;
  }

  /** anvil answers a send before the block is mined: poll briefly for the receipt (null when not mined yet). */
  private async waitForReceipt(rpc: JsonRpcClient, hash: string): Promise<Receipt | null> {
    const deadline = Date.now() + (this.options.receiptTimeoutMs ?? 2_000);
    for (let delay = 0; ; delay = Math.min(delay * 2 || 1, 50)) {
      const receipt = await rpc.request<Receipt | null>("eth_getTransactionReceipt", [hash]);
      if (receipt || Date.now() > deadline) return receipt;
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }

  private async recordReceipt(
    node: ChainNode,
    spec: VnetChainSpec,
    receipt: Receipt,
    origin: TransactionOrigin,
    rpcMethod: string,
  ): Promise<{ record: Transaction; deposits: BridgeRelay[] }> {
    const details = await node.rpc.request<TransactionDetails>("eth_getTransactionByHash", [receipt.transactionHash]);
    const record = minedTransaction(spec, receipt, details, origin, rpcMethod);
    this.host.recordTransaction(record);
    return { record, deposits: depositsIn(spec, receipt, Date.now()) };
  }

  /** Stores deposits and relays those due now (autoRelay) before returning; schedules the others. */
  private async relayDeposits(deposits: readonly BridgeRelay[]): Promise<void> {
    if (deposits.length === 0) return;
    this.relays.add(deposits);
    const now = Date.now();
    for (const relay of deposits) if (relay.dueAt <= now) await this.runRelay(relay);
    this.scheduleRelays();
  }

  private scheduleRelays(): void {
    if (this.relayTimer) clearTimeout(this.relayTimer);
    this.relayTimer = null;
    if (this.closed) return;
    const next = this.relays.pending().find((r) => !this.relaysInFlight.has(relayKey(r)));
    if (!next) return;
    this.relayTimer = setTimeout(() => void this.runDueRelays(), Math.max(0, next.dueAt - Date.now()));
    this.relayTimer.unref();
  }

  private async runDueRelays(): Promise<void> {
    const now = Date.now();
    for (const relay of this.relays.pending()) if (relay.dueAt <= now && !this.closed) await this.runRelay(relay);
    this.scheduleRelays();
  }

  /** Pays a deposit out on its destination, once: the contract's `relayed` map is checked first. */
  private async runRelay(relay: BridgeRelay): Promise<void> {
    const key = relayKey(relay);
    if (this.relaysInFlight.has(key) || this.closed) return;
    this.relaysInFlight.add(key);
    try {
      const destination = this.host.resolveVnet(relay.destinationVnetId);
      if (!destination) return this.relays.settle(relay, { status: "failed", error: "destination Virtual Environment deleted" });
      await this.vnets.use(destination.vnetId, "exclusive", async (node) => {
        const done = await node.rpc.request<string>("eth_call", [relayedCall(relay), "latest"]);
        if (BigInt(done) !== 0n) return this.relays.settle(relay, { status: "relayed" });
        const receipt = await node.rpc.request<Receipt>("eth_sendTransactionSync", [relayCall(relay)]);
        const { record } = await this.recordReceipt(node, destination, receipt, "bridge", "eth_sendTransaction");
        this.relays.settle(relay, { status: record.status === "success" ? "relayed" : "failed", txHash: record.tx_hash });
      });
    } catch (error) {
      // Leave it pending when the engine is shutting down: the next start relays it.
      if (!this.closed) this.relays.settle(relay, { status: "failed", error: (error as Error).message });
    } finally {
      this.relaysInFlight.delete(key);
    }
  }
}

function relayKey(relay: BridgeRelay): string {
  return `${relay.sourceVnetId}/${relay.depositId}`;
}

/** The access list `eth_createAccessList` generates for a call, in the API's spelling (`storage_keys`). */
async function generatedAccessList(rpc: JsonRpcClient, call: Record<string, unknown>, block: string): Promise<AccessList> {
  const answer = await rpc.request<{ accessList: { address: string; storageKeys: string[] }[] }>("eth_createAccessList", [call, block]).catch((error: unknown) => {
    throw error instanceof JsonRpcError ? new ChainRequestError(402, `no access list could be generated: ${error.message}`) : error;
  });
  return answer.accessList.map((entry) => ({ address: entry.address.toLowerCase(), storage_keys: entry.storageKeys }));
}

function hex(n: bigint): string {
  return `0x${n.toString(16)}`;
}

function rpcError(id: unknown, code: number, message: string): JsonRpcResponse {
  return { jsonrpc: "2.0", id: validId(id), error: { code, message } };
}

function validId(id: unknown): string | number | null {
  return typeof id === "string" || typeof id === "number" ? id : null;
}

/** The answer the proxy gives itself (a refusal, or the Public RPC's empty account list), or undefined when the request goes to the chain. */
function refusal(request: unknown, access: RpcAccess): JsonRpcResponse | undefined {
  const r = request as Partial<JsonRpcRequest> | null;
  if (!r || typeof r !== "object" || typeof r.method !== "string" || (r.params !== undefined && typeof r.params !== "object")) {
    return rpcError(r?.id, -32600, "Invalid Request");
  }
  if (access === "public" && !isPublicMethod(r.method)) {
    return rpcError(r.id, -32601, `the method ${r.method} does not exist or is not available on the Public RPC (use the Admin RPC)`);
  }
  // The Public RPC holds no accounts, whatever the chain has unlocked or impersonated through the Admin RPC.
  if (access === "public" && r.method === "eth_accounts") return { jsonrpc: "2.0", id: validId(r.id), result: [] };
  if (access === "public" && SIGNER_METHODS.has(r.method)) {
    return rpcError(r.id, -32000, `unknown account: the Public RPC holds no accounts; sign the transaction and use eth_sendRawTransaction`);
  }
  return undefined;
}

/**
 * Sends requests to the chain and returns the answers in order with the callers' ids. Runs of ordinary methods go
 * as one HTTP batch with ids of our own; the Admin RPC methods chainform implements (admin-rpc.ts) run in between,
 * in order, so that a batch such as [setErc20Balance, balanceOf] sees its own writes.
 */
async function forward(rpc: JsonRpcClient, requests: readonly JsonRpcRequest[]): Promise<JsonRpcResponse[]> {
  const answers: JsonRpcResponse[] = [];
  for (let i = 0; i < requests.length; ) {
    if (isAdminMethod(requests[i].method)) {
      answers.push(await runAdmin(rpc, requests[i]));
      i += 1;
      continue;
    }
    let j = i;
    while (j < requests.length && !isAdminMethod(requests[j].method)) j += 1;
    answers.push(...(await forwardBatch(rpc, requests.slice(i, j))));
    i = j;
  }
  return answers;
}

async function runAdmin(rpc: JsonRpcClient, request: JsonRpcRequest): Promise<JsonRpcResponse> {
  const id = validId(request.id);
  const params = request.params === undefined ? [] : request.params;
  if (!Array.isArray(params)) return rpcError(id, -32602, `${request.method} takes its params as an array`);
  try {
    return { jsonrpc: "2.0", id, result: await ADMIN_METHODS[request.method](rpc, params) };
  } catch (error) {
    if (error instanceof JsonRpcError) return { jsonrpc: "2.0", id, error: { code: error.code, message: error.message, ...(error.data !== undefined ? { data: error.data } : {}) } };
    return rpcError(id, -32603, `the chain did not answer: ${(error as Error).message}`);
  }
}

async function forwardBatch(rpc: JsonRpcClient, requests: readonly JsonRpcRequest[]): Promise<JsonRpcResponse[]> {
  const sent = requests.map((r, id) => ({ jsonrpc: "2.0" as const, id, method: r.method, params: r.params ?? [] }));
  let raw: JsonRpcResponse[];
  try {
    const answer = await rpc.send(sent);
    raw = Array.isArray(answer) ? answer : [answer];
  } catch (error) {
    return requests.map((r) => rpcError(r.id, -32603, `the chain did not answer: ${(error as Error).message}`));
  }
  const byId = new Map(raw.map((a) => [a.id, a]));
  return requests.map((request, i) => {
    const answer = byId.get(i);
    const id = validId(request.id);
    if (!answer) return rpcError(id, -32603, "the chain did not answer this call");
    return { ...answer, id };
  });
}

/** A gas limit for an API-sent transaction: the estimate, or a fixed amount when it reverts (it is mined failed). */
async function estimateOrFail(rpc: JsonRpcClient, tx: Record<string, string>): Promise<string> {
  try {
    const estimate = BigInt(await rpc.request<string>("eth_estimateGas", [tx]));
    return hex(estimate + estimate / 5n);
  } catch (error) {
    if (error instanceof JsonRpcError && /revert/i.test(error.message)) return FAILING_TRANSACTION_GAS;
    throw error instanceof JsonRpcError ? new ChainRequestError(400, `the transaction cannot be sent: ${error.message}`, "/callArgs") : error;
  }
}
