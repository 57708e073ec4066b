/**
 * The local proxy a forked chain reads its upstream through: anvil's `--fork-url` points here, never at the
 * upstream (whose URL is a secret). One proxy serves one network at one pinned block. It answers a call from the
 * recordings when it has it, else asks the upstream and records the answer; offline, or when the upstream cannot
 * be reached, a call never recorded gets a JSON-RPC error naming the method, the account or slot and the block.
 * Only reads pass: the upstream never receives a write.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { JsonRpcError } from "../json-rpc";
import { callKey, type Recordings } from "./recordings";
import { UpstreamError, type Upstream } from "./upstream";

/**
 * The methods a fork may ask its upstream: reads of state, blocks, transactions and logs at given blocks, and the
 * few chain facts anvil asks at start. Anything else (a transaction, a signature, a cheatcode) is refused here.
 */
export const UPSTREAM_READ_METHODS: ReadonlySet<string> = new Set([
  "eth_chainId",
  "eth_blockNumber",
  "net_version",
  "eth_gasPrice",
  "eth_maxPriorityFeePerGas",
  "eth_blobBaseFee",
  "eth_feeHistory",
  "eth_getBlockByNumber",
  "eth_getBlockByHash",
  "eth_getBlockReceipts",
  "eth_getBlockTransactionCountByNumber",
  "eth_getBlockTransactionCountByHash",
  "eth_getUncleByBlockNumberAndIndex",
  "eth_getUncleByBlockHashAndIndex",
  "eth_getAccountInfo",
  "eth_getBalance",
  "eth_getTransactionCount",
  "eth_getCode",
  "eth_getStorageAt",
  "eth_getProof",
  "eth_getTransactionByHash",
  "eth_getTransactionByBlockNumberAndIndex",
  "eth_getTransactionByBlockHashAndIndex",
  "eth_getTransactionReceipt",
  "eth_getLogs",
  "eth_call",
  "eth_estimateGas",
  "eth_createAccessList",
  "debug_traceTransaction",
  "debug_traceCall",
  "debug_traceBlockByNumber",
  "debug_traceBlockByHash",
  "trace_transaction",
  "trace_block",
  "trace_replayTransaction",
  "trace_replayBlockTransactions",
]);

/** Error code of a call the proxy cannot answer (not JSON-RPC's reserved range, and none a client retries on). */
export const NOT_RECORDED = -32010;

/** A recorded answer: the upstream's result, or its "method not found" (which anvil then works around). */
type Recorded = { readonly result: unknown } | { readonly error: { readonly code: number; readonly message: string } };

/** Options of one proxy. */
export interface ForkProxyOptions {
  readonly networkId: string;
  readonly block: bigint;
  readonly recordings: Recordings;
  /** The upstream, or null offline (answers come from the recordings only). */
  readonly upstream: Upstream | null;
  /** Why there is no upstream, for the errors of calls never recorded. */
  readonly replayOnly?: string;
}

/** What a proxy counted, for tests and benchmarks. */
export interface ForkProxyStats {
  /** Calls answered from the recordings. */
  replayed: number;
  /** Calls the upstream answered. */
  forwarded: number;
  /** Calls answered with an error (never recorded, refused, upstream failure). */
  failed: number;
}

/** A running proxy. */
export class ForkProxy {
  readonly stats: ForkProxyStats = { replayed: 0, forwarded: 0, failed: 0 };
  private readonly inFlight = new Map<string, Promise<Recorded>>();

  private constructor(
    private readonly server: Server,
    readonly url: string,
    private readonly options: ForkProxyOptions,
  ) {}

  /** Starts a proxy on a free loopback port. */
  static async start(options: ForkProxyOptions): Promise<ForkProxy> {
    let proxy: ForkProxy | null = null;
    const server = createServer((request, response) => void proxy!.handle(request, response).catch(() => response.destroy()));
    server.keepAliveTimeout = 60_000;
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(0, "127.0.0.1", () => resolve());
    });
    const { port } = server.address() as AddressInfo;
    proxy = new ForkProxy(server, `http://127.0.0.1:${port}`, options);
    return proxy;
  }

  /** Stops listening and saves the recordings. */
  async close(): Promise<void> {
    this.server.closeAllConnections?.();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.options.recordings.flush();
  }

  /** The recordings it serves (fixtures read them, and add an imported fixture's to a proxy already running). */
  get recordings(): Recordings {
    return this.options.recordings;
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    let body: unknown;
    try {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    } catch {
      body = null;
    }
    const answer = Array.isArray(body) ? await Promise.all(body.map((call) => this.answer(call))) : await this.answer(body);
    const text = JSON.stringify(answer);
    response.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
    response.end(text);
  }

  private async answer(call: unknown): Promise<unknown> {
    const { id, method, params } = (call ?? {}) as { id?: unknown; method?: unknown; params?: unknown };
    const reply = (recorded: Recorded) => ({ jsonrpc: "2.0", id: id ?? null, ...recorded });
    if (typeof method !== "string") return reply({ error: { code: -32600, message: "Invalid Request" } });
    if (!UPSTREAM_READ_METHODS.has(method)) {
      this.stats.failed += 1;
      return reply({
        error: {
          code: -32601,
          message: `chainform sends only reads to the upstream of network ${this.options.networkId}; ${method} was refused`,
        },
      });
    }
    const key = callKey(method, params);
    const { recordings } = this.options;
    const recorded = (recordings.get(key) as Recorded | undefined) ?? derivedAnswer(recordings, method, params);
    if (recorded) {
      this.stats.replayed += 1;
      return reply(recorded);
    }
    let pending = this.inFlight.get(key);
    if (!pending) {
      pending = this.fetch(key, method, params).finally(() => this.inFlight.delete(key));
      this.inFlight.set(key, pending);
    }
    return reply(await pending);
  }

  /** Asks the upstream (recording what it says), or explains why the call has no answer. */
  private async fetch(key: string, method: string, params: unknown): Promise<Recorded> {
    const { upstream, recordings } = this.options;
    if (!upstream)
      return this.missing(method, params, this.options.replayOnly ?? "the service is offline (--offline), so only recordings are served");
    try {
      const result = await upstream.request(method, Array.isArray(params) ? params : []);
      this.stats.forwarded += 1;
      recordings.put(key, { result });
      return { result };
    } catch (error) {
      if (error instanceof JsonRpcError) {
        this.stats.forwarded += 1;
        const recorded = { error: { code: error.code, message: error.message } };
        // "method not found" is the upstream's lasting answer (anvil then asks differently): replay it too.
        if (error.code === -32601) recordings.put(key, recorded);
        return recorded;
      }
      if (error instanceof UpstreamError && error.failure === "timeout") {
        this.stats.failed += 1;
        return {
          error: {
            code: NOT_RECORDED,
            message: `${describeCall(method, params, this.options.networkId, this.options.block)}: ${error.message}`,
          },
        };
      }
      return this.missing(
        method,
        params,
        error instanceof UpstreamError ? `${error.message}, so only recordings are served` : "the upstream failed",
      );
    }
  }

  private missing(method: string, params: unknown, why: string): Recorded {
    this.stats.failed += 1;
    return {
      error: {
        code: NOT_RECORDED,
        message: `never recorded: ${describeCall(method, params, this.options.networkId, this.options.block)}; ${why}`,
      },
    };
  }
}

/** The parts of `eth_getAccountInfo`'s answer and the calls that read each alone. */
const ACCOUNT_PARTS = { balance: "eth_getBalance", nonce: "eth_getTransactionCount", code: "eth_getCode" } as const;

/**
 * An answer the recordings hold in another form. anvil reads an account with `eth_getAccountInfo` and, racing it,
 * with the three single reads, keeping whichever answers first: which calls reached the upstream varies from run
 * to run, so a replay answers either form from the other.
 */
function derivedAnswer(recordings: Recordings, method: string, params: unknown): Recorded | undefined {
  if (!Array.isArray(params) || params.length !== 2) return undefined;
  const resultOf = (m: string) => (recordings.get(callKey(m, params)) as { result?: unknown } | undefined)?.result;
  const part = Object.entries(ACCOUNT_PARTS).find(([, single]) => single === method)?.[0];
  if (part) {
    const info = resultOf("eth_getAccountInfo") as Record<string, unknown> | undefined;
    return info && typeof info === "object" && typeof info[part] === "string" ? { result: info[part] } : undefined;
  }
  if (method !== "eth_getAccountInfo") return undefined;
  const parts = Object.entries(ACCOUNT_PARTS).map(([name, single]) => [name, resultOf(single)] as const);
  return parts.every(([, value]) => typeof value === "string") ? { result: Object.fromEntries(parts) } : undefined;
}

/**
 * A call as a person reads it: `eth_getStorageAt of account 0x… slot 0x… at block 123 of network 1`. What
 * a test reads that nobody recorded is then plain from the error alone.
 */
export function describeCall(method: string, params: unknown, networkId: string, block: bigint): string {
  const p = Array.isArray(params) ? params : [];
  const at = `at block ${block} of network ${networkId}`;
  switch (method) {
    case "eth_getBalance":
    case "eth_getTransactionCount":
    case "eth_getCode":
    case "eth_getAccountInfo":
      return `${method} of account ${String(p[0])} ${at}`;
    case "eth_getStorageAt":
      return `${method} of account ${String(p[0])} slot ${String(p[1])} ${at}`;
    case "eth_getBlockByNumber":
    case "eth_getBlockByHash":
      return `${method} of block ${String(p[0])} (network ${networkId}, forked at block ${block})`;
    case "eth_getTransactionByHash":
    case "eth_getTransactionReceipt":
      return `${method} of transaction ${String(p[0])} ${at}`;
    default: {
      const shown = JSON.stringify(p);
      return `${method} ${shown.length > 200 ? `${shown.slice(0, 200)}...` : shown} ${at}`;
    }
  }
}
