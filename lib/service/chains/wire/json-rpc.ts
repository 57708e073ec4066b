/**
 * The JSON-RPC client of one running node, with one door per kind of call (each says its job below):
 * - `request`: one call of the service's own, its result unwrapped (the undici pool to the HTTP port);
 * - `batch`: calls of the service's own, answered as anvil's HTTP port answers them, by the cheaper sockets;
 * - `passThrough`: a caller's body as text, its answer as bytes (the RPC URLs' pass-through calls);
 * - `passThroughNow`: the same without a promise, when a socket is free at once (or the answer is kept: `reads`).
 * The pass-through doors carry the RPC URLs' reads only; anything that may change state goes by `request` or
 * `batch`, which forget the reads kept (./immutable-reads.ts).
 * The sockets are ./chain-sockets.ts's (the node's IPC socket when it has one, else HTTP/1.1), kept apart from the
 * undici pool. anvil's one IPC quirk (a generic answer where the HTTP port is precise) is handled here alone
 * (`GENERIC_IPC_ERROR`). Every door has the same deadline (`timeoutMs`, ./chain-timeout.ts): past it the call fails
 * with `ChainTimeoutError` and `onTimeout` is told (the pool then checks the chain, ../pool/chain-pool.ts).
 */
import { Pool } from "undici";
import { ChainSocketPool, CoalescingIpc } from "./chain-sockets";
import { ChainTimeoutError, DEFAULT_RPC_TIMEOUT_MS } from "./chain-timeout";
import { ImmutableReads, mayChangeState } from "./immutable-reads";
import type { JsonRpcRequest, JsonRpcResponse } from "../types";

/** A JSON-RPC error answered by a chain. */
export class JsonRpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = "JsonRpcError";
  }
}

/**
 * anvil's IPC quirk: its IPC socket answers a call whose params do not fit its method with this generic message
 * ("data did not match any variant of untagged enum ..."), where its HTTP port says what is wrong ("invalid length 1,
 * expected ..."). Such a call did not run, so it can be asked again on the HTTP port; the callers hear the HTTP port's
 * answer, as from anvil itself (docs/service.md "RPC URLs"). `batch` asks again; the pass-through doors hand back
 * null, for the caller's parsed path (which takes `batch`).
 */
const GENERIC_IPC_ERROR = "did not match any variant of untagged enum";
const GENERIC_IPC_ERROR_BYTES = Buffer.from(GENERIC_IPC_ERROR);
/** Error answers are short: a longer answer is a result, and is not searched for the generic message. */
const LONGEST_ERROR_SEARCHED = 4096;

/** Whether a chain's bytes hold the IPC socket's generic error, which the HTTP port would say precisely. */
function isGenericIpcError(answer: Buffer): boolean {
  return answer.length <= LONGEST_ERROR_SEARCHED && answer.includes(GENERIC_IPC_ERROR_BYTES);
}

/** A pass-through call's answer, or null for the caller's parsed path (the chain did not answer 200, or the quirk). */
function passedThrough(answer: Buffer | null): Buffer | null {
  return answer === null || isGenericIpcError(answer) ? null : answer;
}

/** Talks JSON-RPC to one node: its HTTP port (undici) and its pass-through sockets. */
export class JsonRpcClient {
  private readonly pool: Pool;
  /** The pass-through path's sockets (chain-sockets.ts): to the node's IPC socket when it has one. */
  private readonly raw: ChainSocketPool;
  /** Single pass-through calls from many callers on one IPC socket (chain-sockets.ts), when the node has one. */
  private readonly coalescing: CoalescingIpc | null;
  private nextId = 1;
  /** Answers to reads of mined blocks, kept until a call that may change state is sent (./immutable-reads.ts). */
  readonly reads = new ImmutableReads();
  /** Called (once per call) when a call misses its deadline; the chain pool sets it to check the chain. */
  onTimeout: (() => void) | null = null;

  /** `ipcPath`: the node's JSON-RPC Unix socket (anvil `--ipc`), the pass-through path's cheaper way in. */
  constructor(
    readonly url: string,
    /** The node's JSON-RPC Unix socket, when it has one. */
    readonly ipcPath?: string,
    /** The deadline of every call (./chain-timeout.ts). */
    readonly timeoutMs: number = DEFAULT_RPC_TIMEOUT_MS,
  ) {
    this.pool = new Pool(url, { connections: 8, keepAliveTimeout: 30_000, pipelining: 1 });
    // As many sockets as a busy suite keeps open to an RPC URL (16 and more): a read never queues behind another
    // while the chain could answer both.
    this.raw = new ChainSocketPool(ipcPath ? { ipc: ipcPath } : { http: url }, 32, timeoutMs);
    this.coalescing = ipcPath ? new CoalescingIpc(ipcPath, timeoutMs) : null;
  }

  /**
   * One call of the service's own (never a caller's body), on the HTTP port: its result, or `JsonRpcError` when the
   * chain answers an error, `ChainTimeoutError` past the deadline (`timeoutMs`: a shorter one of its own, for a probe,
   * which does not tell `onTimeout`).
   */
  async request<T = unknown>(method: string, params: unknown[] = [], timeoutMs = this.timeoutMs): Promise<T> {
    if (mayChangeState(method)) this.reads.changed();
    const answer = (await this.post({ jsonrpc: "2.0", id: this.nextId++, method, params }, timeoutMs)) as JsonRpcResponse;
    if ("error" in answer) throw new JsonRpcError(answer.error.code, answer.error.message, answer.error.data);
    return answer.result as T;
  }

  /**
   * Calls of the service's own, whatever their params (ids unique within the batch), answered as anvil's HTTP port
   * answers them, one answer per call in any order. They go by the pass-through sockets: the node's IPC socket when it
   * has one, a round trip of about 0.1 ms where the HTTP port takes 0.3 to 0.4. A call the IPC socket answered with its
   * generic message did not run and is asked again on the HTTP port, which says what is wrong; the others are not sent
   * again (a write runs once). A batch refused whole, or an answer not 200, is asked again on the HTTP port.
   */
  async batch(calls: JsonRpcRequest[]): Promise<JsonRpcResponse[]> {
    if (calls.some((call) => mayChangeState(call.method))) this.reads.changed();
    const generation = this.reads.generation;
    const answer = await this.passThroughOrReject(JSON.stringify(calls));
    const text = answer === null ? null : answer.toString("utf8");
    const answers = text === null ? null : (JSON.parse(text) as unknown);
    // Not an array: the batch was refused whole (nothing in it ran), which the HTTP port says precisely.
    if (!Array.isArray(answers)) return (await this.post(calls)) as JsonRpcResponse[];
    this.reads.keepReceipts(calls, answers, text!, generation);
    const generic = new Set(
      (answers as JsonRpcResponse[]).flatMap((a) => ("error" in a && a.error.message.includes(GENERIC_IPC_ERROR) ? [a.id] : [])),
    );
    const again = generic.size === 0 ? [] : calls.filter((call) => call.id !== undefined && generic.has(call.id));
    if (again.length === 0) return answers as JsonRpcResponse[];
    const precise = new Map(((await this.post(again)) as JsonRpcResponse[]).map((a) => [a.id, a]));
    return (answers as JsonRpcResponse[]).map((a) => precise.get(a.id) ?? a);
  }

  /**
   * A caller's body (a request or a batch, as text the RPC pipeline wrote) sent as it is, and the chain's answer as it
   * is, ids and all; null when the chain did not answer 200 or answered with the IPC quirk (the caller then takes its
   * parsed path, which reports or asks precisely). Rejects when the chain could not be reached or answered in a way
   * ./chain-sockets.ts does not read, and with `ChainTimeoutError` past the deadline.
   */
  async passThrough(body: Buffer | string): Promise<Buffer | null> {
    return passedThrough(await this.passThroughOrReject(body));
  }

  /**
   * `passThrough` without a promise, when the call can go at once: a single call (`single`, parsed from `text`) in one
   * write with other callers' single calls to the node's IPC socket (./coalescing-ipc.ts), else the body by a free
   * socket. `done` gets the chain's bytes with the caller's ids, or null as `passThrough` (and when the chain could not
   * be reached), or `ChainTimeoutError` past the deadline. False, with nothing sent, when no way is free at once.
   * A read of a mined block answered before is answered at once from `reads`, and such an answer is kept.
   */
  passThroughNow(text: string, single: JsonRpcRequest | null, done: (answer: Buffer | ChainTimeoutError | null) => void): boolean {
    const key = single === null ? null : this.reads.keyOf(single);
    if (key !== null) {
      const kept = this.reads.answer(key, single!.id);
      if (kept !== undefined) {
        done(kept);
        return true;
      }
    }
    const generation = this.reads.generation;
    const answered = (answer: Buffer | ChainTimeoutError | null) => {
      if (answer instanceof ChainTimeoutError) return this.timedOut(answer, done);
      const chains = passedThrough(answer);
      if (key !== null && chains !== null) this.reads.keep(key, single!.id, generation, chains);
      done(chains);
    };
    if (single !== null && this.coalescing?.call(single, text, answered)) return true;
    return this.raw.postNow(Buffer.from(text), (answer) =>
      answered(answer instanceof ChainTimeoutError ? answer : answer instanceof Error || answer.status !== 200 ? null : answer.body),
    );
  }

  /** The pass-through sockets' answer: the bytes when the chain answered 200, else null; rejects as `passThrough`. */
  private async passThroughOrReject(body: Buffer | string): Promise<Buffer | null> {
    const answer = await this.raw.post(body).catch((error: unknown) => {
      if (error instanceof ChainTimeoutError) this.onTimeout?.();
      throw error;
    });
    return answer.status === 200 ? answer.body : null;
  }

  /** A body on the HTTP port (undici), its answer parsed; `ChainTimeoutError` past the deadline. */
  private async post(body: JsonRpcRequest | JsonRpcRequest[], timeoutMs = this.timeoutMs): Promise<JsonRpcResponse | JsonRpcResponse[]> {
    let text: string;
    let statusCode: number;
    try {
      const response = await this.pool.request({
        path: "/",
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
      statusCode = response.statusCode;
      text = await response.body.text();
    } catch (error) {
      if ((error as Error).name !== "TimeoutError") throw error;
      const timeout = new ChainTimeoutError(timeoutMs);
      if (timeoutMs === this.timeoutMs) this.onTimeout?.();
      throw timeout;
    }
    if (statusCode !== 200) throw new JsonRpcError(-32603, `chain answered HTTP ${statusCode}: ${text.slice(0, 200)}`);
    return JSON.parse(text) as JsonRpcResponse | JsonRpcResponse[];
  }

  /** Tells `onTimeout`, then the caller. */
  private timedOut(error: ChainTimeoutError, done: (answer: ChainTimeoutError) => void): void {
    this.onTimeout?.();
    done(error);
  }

  /** Closes the connections. */
  async close(): Promise<void> {
    this.raw.close();
    this.coalescing?.close();
    // Destroyed, not closed: a call still in flight to a chain being killed ends now, not at its deadline.
    await this.pool.destroy().catch(() => undefined);
  }
}
