/**
 * The local proxy a forked chain reads its upstream through: anvil's `--fork-url` points here, never at the
 * upstream (whose URL is a secret). One proxy serves one network at one pinned block. It answers a call from the
 * recordings when it has it, else asks the upstream and records the answer once it is well-formed
 * (./answer-checks.ts); offline, or when the upstream cannot be reached, a call never recorded gets a JSON-RPC error
 * naming the method, the account or slot and the block. Only reads pass: the upstream never receives a write.
 *
 * The service-wide recordings hold only what an upstream answered. A Virtual Environment imported from a fixture
 * reads through a proxy of its own that also holds the fixture's answers (`imported`): they are asked only when
 * neither the service's recordings nor a live upstream answer, so they never shadow the upstream and never reach
 * another environment.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { ChainLog } from "../node/backend";
import { JsonRpcError } from "../wire/json-rpc";
import { checkResult } from "./answer-checks";
import { askedBlock, describeCall } from "./describe";
import { accountOf, derivedAnswer, emptyAccountAnswer, panicsWhenMissing, type Recorded } from "./derived";
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

/** How every error of a call never recorded begins (./sends.ts finds it again in the chain's errors). */
export const NEVER_RECORDED = "never recorded: ";

/** Methods whose first parameter is a transaction object, which may carry the caller's `chainId`. */
const CALL_METHODS: ReadonlySet<string> = new Set(["eth_call", "eth_estimateGas", "eth_createAccessList", "debug_traceCall"]);

/** Options of one proxy. */
export interface ForkProxyOptions {
  readonly networkId: string;
  readonly block: bigint;
  /** The service-wide recordings of the network at the block: upstream answers only. */
  readonly recordings: Recordings;
  /** A fixture's answers, for the one Virtual Environment imported from it; never written. @default null */
  readonly imported?: Recordings | null;
  /** The upstream, or null offline (answers come from the recordings only). */
  readonly upstream: Upstream | null;
  /** Why there is no upstream, for the errors of calls never recorded. */
  readonly replayOnly?: string;
  /** Without an upstream, read an account nobody recorded as empty (`--offline-empty-accounts`). @default false */
  readonly emptyAccounts?: boolean;
  /** Where the proxy reports what the operator must hear (recordings not saved, accounts taken as empty). */
  readonly log?: ChainLog;
  /**
   * Before a call never recorded goes to the upstream: brings into `recordings` what other services of a shared fork
   * cache recorded since (./recordings.ts `SharedForkCache`); true when it brought anything. @default none
   */
  readonly refresh?: () => Promise<boolean>;
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

/** One answer of the upstream, judged (./answer-checks.ts). */
interface Asked {
  readonly recorded: Recorded;
  readonly keep: boolean;
  readonly askAgain: boolean;
  /** A "method not found", kept only when a second ask says the same. */
  readonly notFound: boolean;
}

/** A running proxy. */
export class ForkProxy {
  readonly stats: ForkProxyStats = { replayed: 0, forwarded: 0, failed: 0 };
  private readonly inFlight = new Map<string, Promise<Recorded>>();
  /** Accounts read as empty offline (each is logged once). */
  private readonly takenAsEmpty = new Set<string>();
  /** Whether the missing history-contract reads were logged (once). */
  private historyGapLogged = false;

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
    try {
      this.options.recordings.flush();
    } catch (error) {
      this.options.log?.error(
        {
          network: this.options.networkId,
          block: this.options.block.toString(),
          reason: (error as { code?: string }).code ?? String(error),
        },
        "fork recordings could not be saved at shutdown: what this run recorded since the last save is lost",
      );
      throw error;
    }
  }

  /** The service-wide recordings it serves and adds to (fixtures read them). */
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
    const { id, method } = (call ?? {}) as { id?: unknown; method?: unknown };
    const params = withoutChainId(method, (call as { params?: unknown } | null)?.params);
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
    const { recordings, upstream } = this.options;
    // A fixture's answers never shadow the upstream: with one, they are asked only when it cannot be reached.
    const recorded = this.recordedIn(recordings, key, method, params) ?? (upstream ? undefined : this.importedAnswer(key, method, params));
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

  /** A call's answer in one set of recordings, as recorded or reshaped (./derived.ts). */
  private recordedIn(recordings: Recordings, key: string, method: string, params: unknown): Recorded | undefined {
    return (recordings.get(key) as Recorded | undefined) ?? derivedAnswer(recordings, method, params, this.options.block);
  }

  /** A call's answer in the fixture's recordings of this proxy's Virtual Environment, if it has any. */
  private importedAnswer(key: string, method: string, params: unknown): Recorded | undefined {
    const { imported } = this.options;
    return imported ? this.recordedIn(imported, key, method, params) : undefined;
  }

  /**
   * Asks the upstream, keeping only a well-formed answer (./answer-checks.ts), or explains why the call has no answer.
   * An answer that may not be kept (`null` meaning "not yet", a wrong type, a "method not found" not yet confirmed) is
   * asked once more: a node behind a balancer that lags or lacks a method is often followed by one that does not.
   */
  private async fetch(key: string, method: string, params: unknown): Promise<Recorded> {
    const { upstream, recordings } = this.options;
    if (!upstream) return this.offlineAnswer(method, params);
    const args = Array.isArray(params) ? params : [];
    // Another job of a CI fleet may have asked it already and published the answer (docs/oci-store.md).
    if (this.options.refresh && (await this.options.refresh())) {
      const shared = this.recordedIn(recordings, key, method, params);
      if (shared) {
        this.stats.replayed += 1;
        return shared;
      }
    }
    try {
      let answer = await this.ask(upstream, method, args);
      if (answer.askAgain) {
        const again = await this.ask(upstream, method, args);
        // Two "method not found" in a row: the upstream's lasting answer (anvil then asks differently), replayed too.
        answer = answer.notFound && again.notFound ? { ...again, keep: true } : again;
      }
      this.stats.forwarded += 1;
      if (answer.keep) recordings.put(key, answer.recorded);
      return answer.recorded;
    } catch (error) {
      if (error instanceof UpstreamError && error.failure !== "unreachable") {
        this.stats.failed += 1;
        return {
          error: {
            code: NOT_RECORDED,
            message: `${describeCall(method, params, this.options.networkId, this.options.block)}: ${error.message}`,
          },
        };
      }
      const imported = this.importedAnswer(key, method, params);
      if (imported) {
        this.stats.replayed += 1;
        return imported;
      }
      return this.missing(
        method,
        params,
        error instanceof UpstreamError ? `${error.message}, so only recordings are served` : "the upstream failed",
      );
    }
  }

  /**
   * One ask of the upstream: its answer, whether it may be kept, and whether asking again may change it (`null` meaning
   * "not yet", a wrong type, a "method not found"; the upstream's other errors, such as a revert, stand). A result of the
   * wrong type is answered as an error naming the call: anvil would fail on it anyway.
   */
  private async ask(upstream: Upstream, method: string, args: readonly unknown[]): Promise<Asked> {
    let result: unknown;
    try {
      result = await upstream.request(method, args);
    } catch (error) {
      if (!(error instanceof JsonRpcError)) throw error;
      const notFound = error.code === -32601;
      return { recorded: { error: { code: error.code, message: error.message } }, keep: false, askAgain: notFound, notFound };
    }
    const verdict = checkResult(method, result);
    if (verdict.keep) return { recorded: { result }, keep: true, askAgain: false, notFound: false };
    if (verdict.notYet) return { recorded: { result: null }, keep: false, askAgain: true, notFound: false };
    const call = describeCall(method, args, this.options.networkId, this.options.block);
    const message = `${call}: the upstream of network ${this.options.networkId} ${verdict.why}; nothing was recorded`;
    return { recorded: { error: { code: NOT_RECORDED, message } }, keep: false, askAgain: true, notFound: false };
  }

  /**
   * The answer of a call never recorded, with no upstream: an error naming it; an empty account when the operator
   * asked for that; and for the history contract, which anvil panics on rather than erring, an empty answer.
   */
  private offlineAnswer(method: string, params: unknown): Recorded {
    // anvil asks its fork for the receipt of each transaction it is sending (eth_sendTransactionSync) before it mines
    // it; live the upstream answers null for such a hash, and offline so does the proxy, or no new transaction could
    // be sent. A receipt is the one read answered when never recorded: docs/forking.md says so.
    if (method === "eth_getTransactionReceipt") return { result: null };
    const atFork = askedBlock(method, params, this.options.block) === this.options.block;
    const account = accountOf(method, params);
    if (account !== undefined && atFork) {
      if (panicsWhenMissing(method, params)) {
        if (!this.historyGapLogged) {
          this.historyGapLogged = true;
          this.options.log?.warn(
            { network: this.options.networkId, block: this.options.block.toString() },
            "these fork recordings predate the recording of the block-hash history (EIP-2935): its slots read as zero so that the chain can mine",
          );
        }
        return emptyAccountAnswer(method)!;
      }
      if (this.options.emptyAccounts && (method !== "eth_getStorageAt" || !this.accountRecorded(account))) {
        if (!this.takenAsEmpty.has(account)) {
          this.takenAsEmpty.add(account);
          this.options.log?.info(
            { network: this.options.networkId, block: this.options.block.toString(), account },
            "an account never recorded reads as empty (--offline-empty-accounts)",
          );
        }
        return emptyAccountAnswer(method)!;
      }
    }
    return this.missing(method, params, this.options.replayOnly ?? "the service is offline (--offline), so only recordings are served");
  }

  /** Whether the recordings hold an account (its code, whole or alone): a slot of one they do not is a slot of nothing. */
  private accountRecorded(account: string): boolean {
    const params = [account, `0x${this.options.block.toString(16)}`];
    const { recordings, imported } = this.options;
    return ["eth_getAccountInfo", "eth_getCode"].some(
      (method) => recordings.has(callKey(method, params)) || imported?.has(callKey(method, params)),
    );
  }

  private missing(method: string, params: unknown, why: string): Recorded {
    this.stats.failed += 1;
    return {
      error: {
        code: NOT_RECORDED,
        message: `${NEVER_RECORDED}${describeCall(method, params, this.options.networkId, this.options.block)}; ${why}`,
      },
    };
  }
}

/**
 * The params with the caller's `chainId` taken out of a call's transaction object: a fork with a chain-id override
 * answers its own id, and the upstream (the network's id) would refuse it ("invalid chain id for signer").
 */
function withoutChainId(method: unknown, params: unknown): unknown {
  if (typeof method !== "string" || !CALL_METHODS.has(method) || !Array.isArray(params)) return params;
  const [tx, ...rest] = params as unknown[];
  if (!tx || typeof tx !== "object" || !("chainId" in tx)) return params;
  const { chainId: _dropped, ...kept } = tx as Record<string, unknown>;
  return [kept, ...rest];
}
