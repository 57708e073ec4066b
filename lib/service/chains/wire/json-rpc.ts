/**
 * A small JSON-RPC 2.0 client over a keep-alive undici pool: one per running chain. `sendRaw` passes a caller's
 * bytes through and hands the chain's answer back as bytes (the RPC proxy's read-only calls); `send` parses;
 * `request` unwraps one call's result or throws its error. Every way has the same deadline (`timeoutMs`,
 * ./chain-timeout.ts): past it the call fails with `ChainTimeoutError` and `onTimeout` is told (the pool then checks
 * the chain, ./chain-pool.ts).
 */
import { Pool } from "undici";
import { ChainSocketPool, CoalescingIpc } from "./chain-sockets";
import { ChainTimeoutError, DEFAULT_RPC_TIMEOUT_MS } from "./chain-timeout";
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
 * What anvil's IPC socket says of a call whose params do not fit its method, where its HTTP port says what is wrong
 * ("invalid length 1, expected ..."). Such a call did not run.
 */
export const GENERIC_IPC_ERROR = "did not match any variant of untagged enum";

/** Talks JSON-RPC to one node's HTTP endpoint. */
export class JsonRpcClient {
  private readonly pool: Pool;
  /** The pass-through path's sockets (chain-sockets.ts): to the node's IPC socket when it has one. */
  private readonly raw: ChainSocketPool;
  /** Single pass-through calls from many callers on one IPC socket (chain-sockets.ts), when the node has one. */
  private readonly coalescing: CoalescingIpc | null;
  private nextId = 1;
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
   * Sends a body as it is (a request or a batch, as the caller wrote it) and returns the chain's answer as it is,
   * or null when the chain did not answer 200 (the caller then takes the path that reports it). Rejects when the
   * chain could not be reached or answered in a way chain-sockets.ts does not read, and with `ChainTimeoutError`
   * past the deadline.
   */
  async sendRaw(body: Buffer | string): Promise<Buffer | null> {
    const answer = await this.raw.post(body).catch((error: unknown) => {
      if (error instanceof ChainTimeoutError) this.onTimeout?.();
      throw error;
    });
    return answer.status === 200 ? answer.body : null;
  }

  /**
   * `sendRaw` without a promise, when a socket to the chain is free at once: `done` gets the chain's answer, or null
   * when it did not answer 200 or could not be reached (the caller then takes the path that reports it), or
   * `ChainTimeoutError` past the deadline. False, with nothing sent, when every socket is busy.
   */
  sendRawNow(body: Buffer, done: (answer: Buffer | ChainTimeoutError | null) => void): boolean {
    return this.raw.postNow(body, (answer) => {
      if (answer instanceof ChainTimeoutError) this.timedOut(answer, done);
      else done(answer instanceof Error || answer.status !== 200 ? null : answer.body);
    });
  }

  /**
   * A single call, `request` parsed from the caller's `text`, sent with the calls of other callers in one write to
   * the node's IPC socket; `done` gets the answer with the caller's id, or null or the deadline's error as
   * `sendRawNow`. False, with nothing sent, when the node has no IPC socket or the call cannot go that way (see
   * `CoalescingIpc`).
   */
  callNow(request: JsonRpcRequest, text: string, done: (answer: Buffer | ChainTimeoutError | null) => void): boolean {
    return (
      this.coalescing?.call(request, text, (answer) =>
        answer instanceof ChainTimeoutError ? this.timedOut(answer, done) : done(answer),
      ) ?? false
    );
  }

  /**
   * Sends a body the service wrote itself (never a caller's) by the pass-through path's sockets: the node's IPC
   * socket when it has one, a round trip of about 0.1 ms where the HTTP port (`send`) takes 0.3 to 0.4. For calls
   * whose params are known to be well formed, since the IPC socket answers a malformed call with a generic message
   * (`send` gets the precise one). Falls back to `send` when the chain does not answer 200 or refuses the batch whole.
   */
  async ask(body: JsonRpcRequest[]): Promise<JsonRpcResponse[]> {
    const answer = await this.sendRaw(JSON.stringify(body));
    const answers = answer === null ? null : (JSON.parse(answer.toString("utf8")) as unknown);
    // Not an array: the batch was refused whole (nothing in it ran), which the HTTP port says precisely.
    if (!Array.isArray(answers)) return (await this.send(body)) as JsonRpcResponse[];
    return answers as JsonRpcResponse[];
  }

  /**
   * Sends a batch of calls, whatever their params, by the pass-through path's sockets (as `ask`), and returns anvil's
   * HTTP answers: a call the IPC socket answered with its generic message (its params did not fit its method, so it
   * did not run) is asked again on the HTTP port (`send`), which says what is wrong. The other calls are not sent
   * again: a write runs once.
   */
  async askPrecisely(body: JsonRpcRequest[]): Promise<JsonRpcResponse[]> {
    const answers = await this.ask(body);
    const generic = new Set(answers.flatMap((a) => ("error" in a && a.error.message.includes(GENERIC_IPC_ERROR) ? [a.id] : [])));
    const again = generic.size === 0 ? [] : body.filter((request) => request.id !== undefined && generic.has(request.id));
    if (again.length === 0) return answers;
    const precise = new Map(((await this.send(again)) as JsonRpcResponse[]).map((a) => [a.id, a]));
    return answers.map((answer) => precise.get(answer.id) ?? answer);
  }

  /** Sends a raw body (a request or a batch) and returns the parsed answer; `ChainTimeoutError` past the deadline. */
  async send(body: JsonRpcRequest | JsonRpcRequest[], timeoutMs = this.timeoutMs): Promise<JsonRpcResponse | JsonRpcResponse[]> {
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

  /**
   * Calls one method and returns its result; throws `JsonRpcError` when the chain answers an error and
   * `ChainTimeoutError` past the deadline (`timeoutMs`: a shorter one of its own, for a probe).
   */
  async request<T = unknown>(method: string, params: unknown[] = [], timeoutMs = this.timeoutMs): Promise<T> {
    const answer = (await this.send({ jsonrpc: "2.0", id: this.nextId++, method, params }, timeoutMs)) as JsonRpcResponse;
    if ("error" in answer) throw new JsonRpcError(answer.error.code, answer.error.message, answer.error.data);
    return answer.result as T;
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
