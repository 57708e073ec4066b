/**
 * Calls to a network's upstream RPC. Its URL carries an API key, so it never appears in a message: errors name the
 * network instead, keep only the kind of failure (a connection error's code, an HTTP status), and whatever the
 * upstream says passes through a scrubber that takes out the URL and its key-like parts (./urls.ts) before it is
 * returned or recorded. Every call is bounded in time and in size; redirects are not followed (a redirect could send
 * the service's calls anywhere).
 */
import { Agent, request, type Dispatcher } from "undici";
import { JsonRpcError } from "../wire/json-rpc";
import { upstreamScrubber } from "./urls";

/**
 * The connections every upstream is asked through, kept open between calls. undici's `request` rather than `fetch`:
 * a cold fork suite asks thousands of reads a second, and `fetch`'s per-call machinery (a `Request`, its streams) was
 * a visible part of each in the service's profile (docs/performance.md "A cold fork"). It follows no redirect.
 */
const UPSTREAM_AGENT = new Agent({ keepAliveTimeout: 30_000, connections: 32 });

/**
 * Why an upstream call failed: it could not be reached, it refused the URL (an HTTP 4xx such as a wrong key, or a
 * redirect), it was too slow, its answer was over the size cap, or it answered something unusable.
 */
export type UpstreamFailure = "unreachable" | "refused" | "timeout" | "too-large" | "bad-answer";

/** An upstream call that got no usable answer; the message names the network, never the URL. */
export class UpstreamError extends Error {
  constructor(
    readonly failure: UpstreamFailure,
    message: string,
  ) {
    super(message);
    this.name = "UpstreamError";
  }

  /** Whether the cause is the `--fork` setting (the URL, its key), which no retry fixes. */
  get misconfigured(): boolean {
    return this.failure === "unreachable" || this.failure === "refused";
  }
}

/** Default cap on one upstream answer: far above any block or receipt list, far below what hurts the service. */
export const DEFAULT_MAX_ANSWER_BYTES = 32 * 1024 * 1024;

/** One call of a batch. */
export interface UpstreamCall {
  readonly method: string;
  readonly params: readonly unknown[];
}

/** The answer of one call of a batch: a result, or the upstream's JSON-RPC error (scrubbed). */
export type UpstreamAnswer = { readonly result: unknown } | { readonly error: JsonRpcError };

/** One network's upstream. */
export class Upstream {
  private nextId = 1;
  private readonly scrub: (text: string) => string;
  /** What every call waits for until it passed once (./index.ts: the chain-id check a warm create skipped). */
  private check: (() => Promise<void>) | null = null;
  private checking: Promise<void> | null = null;

  /**
   * @param url the upstream RPC URL: a secret
   * @param timeoutMs how long one call may take
   * @param maxAnswerBytes the largest answer read; a longer one is an error naming the network and the cap
   */
  constructor(
    readonly networkId: string,
    private readonly url: string,
    private readonly timeoutMs: number,
    readonly maxAnswerBytes = DEFAULT_MAX_ANSWER_BYTES,
  ) {
    this.scrub = upstreamScrubber(url, networkId);
  }

  /**
   * Makes the calls wait for `check` until it passes once: no answer of this upstream is used (nor recorded) before it
   * has. A check that fails is each waiting call's error, and is run again for the next call.
   */
  checkFirst(check: () => Promise<void>): void {
    this.check = check;
  }

  private async checked(): Promise<void> {
    const check = this.check;
    if (!check) return;
    this.checking ??= check().then(
      () => {
        this.check = null;
      },
      (error: unknown) => {
        this.checking = null;
        throw error;
      },
    );
    await this.checking;
  }

  /** Calls one method; throws `JsonRpcError` for the upstream's own error answer, `UpstreamError` for no answer. */
  async request<T = unknown>(method: string, params: readonly unknown[] = []): Promise<T> {
    const answer = this.answerOf(method, await this.post({ jsonrpc: "2.0", id: this.nextId++, method, params }));
    if ("error" in answer) throw answer.error;
    return answer.result as T;
  }

  /**
   * Calls several methods in one JSON-RPC batch; the answers come in the calls' order. Throws `UpstreamError` when
   * the batch as a whole has no usable answer (an upstream that takes no batches answers an object, not a list).
   */
  async batch(calls: readonly UpstreamCall[]): Promise<UpstreamAnswer[]> {
    if (calls.length === 0) return [];
    const first = this.nextId;
    this.nextId += calls.length;
    const answers = await this.post(calls.map((call, i) => ({ jsonrpc: "2.0", id: first + i, method: call.method, params: call.params })));
    if (!Array.isArray(answers)) {
      throw new UpstreamError("bad-answer", `the upstream of network ${this.networkId} answered a batch with something that is not a list`);
    }
    const byId = new Map(answers.map((answer) => [(answer as { id?: unknown })?.id, answer]));
    return calls.map((call, i) => this.answerOf(call.method, byId.get(first + i)));
  }

  private answerOf(method: string, answer: unknown): UpstreamAnswer {
    if (answer && typeof answer === "object" && "error" in answer) {
      const error = (answer as { error: { code?: number; message?: string; data?: unknown } }).error;
      const message = this.scrub(String(error?.message ?? "error")).slice(0, 500);
      return { error: new JsonRpcError(Number(error?.code ?? -32603), message, scrubStrings(error?.data, this.scrub)) };
    }
    if (!answer || typeof answer !== "object" || !("result" in answer)) {
      throw new UpstreamError("bad-answer", `the upstream of network ${this.networkId} answered ${method} with no result`);
    }
    return { result: scrubStrings((answer as { result: unknown }).result, this.scrub) };
  }

  /** Posts one JSON-RPC body and returns the parsed answer. */
  private async post(body: unknown): Promise<unknown> {
    await this.checked();
    const signal = AbortSignal.timeout(this.timeoutMs);
    let response: Dispatcher.ResponseData;
    try {
      response = await request(this.url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
        signal,
        dispatcher: UPSTREAM_AGENT,
      });
    } catch (error) {
      throw this.failure(error);
    }
    const status = response.statusCode;
    if (status >= 300 && status < 400) {
      discard(response);
      throw new UpstreamError(
        "refused",
        `the upstream of network ${this.networkId} answered a redirect (HTTP ${status}), which chainform does not follow: give --fork ${this.networkId}= the URL it redirects to`,
      );
    }
    const text = await this.readCapped(response);
    if (status < 200 || status >= 300) {
      throw new UpstreamError(
        status === 408 || status === 504 ? "timeout" : status >= 400 && status < 500 && status !== 429 ? "refused" : "bad-answer",
        `the upstream of network ${this.networkId} answered HTTP ${status}`,
      );
    }
    try {
      return JSON.parse(text);
    } catch {
      throw new UpstreamError("bad-answer", `the upstream of network ${this.networkId} answered something that is not JSON`);
    }
  }

  /** The answer's text, read no further than the cap (memory stays bounded whatever the upstream sends). */
  private async readCapped(response: Dispatcher.ResponseData): Promise<string> {
    const tooLarge = () =>
      new UpstreamError(
        "too-large",
        `the upstream of network ${this.networkId} answered more than ${this.maxAnswerBytes} bytes, the cap on one upstream answer; nothing was recorded`,
      );
    const declared = Number(response.headers["content-length"] ?? NaN);
    if (declared > this.maxAnswerBytes) {
      discard(response);
      throw tooLarge();
    }
    const chunks: Buffer[] = [];
    let length = 0;
    try {
      for await (const chunk of response.body as AsyncIterable<Buffer>) {
        length += chunk.byteLength;
        if (length > this.maxAnswerBytes) throw tooLarge(); // leaving the loop destroys the body
        chunks.push(chunk);
      }
    } catch (error) {
      if (error instanceof UpstreamError) throw error;
      throw this.failure(error);
    }
    return Buffer.concat(chunks, length).toString("utf8");
  }

  private failure(error: unknown): UpstreamError {
    const name = (error as Error)?.name;
    if (name === "TimeoutError" || name === "AbortError") {
      return new UpstreamError("timeout", `the upstream of network ${this.networkId} did not answer within ${this.timeoutMs} ms`);
    }
    const code = (error as { code?: unknown })?.code ?? (error as { cause?: { code?: unknown } })?.cause?.code;
    return new UpstreamError(
      "unreachable",
      `the upstream of network ${this.networkId} cannot be reached${typeof code === "string" && /^[A-Z_]+$/.test(code) ? ` (${code})` : ""}`,
    );
  }
}

/** Drops an answer's body unread, closing its connection (the abort this causes is no one's error). */
function discard(response: Dispatcher.ResponseData): void {
  response.body.on("error", () => undefined);
  response.body.destroy();
}

/**
 * A value with every string that is not hex data scrubbed (hex is chain data: a key-like run of hex digits inside a
 * contract's code is no secret, and must reach the caller unchanged).
 */
function scrubStrings(value: unknown, scrub: (text: string) => string): unknown {
  if (typeof value === "string") return /^0x[0-9a-f]*$/i.test(value) ? value : scrub(value);
  if (Array.isArray(value)) return value.map((item) => scrubStrings(item, scrub));
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, scrubStrings(item, scrub)]));
  }
  return value;
}
