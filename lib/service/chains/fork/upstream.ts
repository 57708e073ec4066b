/**
 * Calls to a network's upstream RPC. Its URL carries an API key, so it never appears in a message: errors name the
 * network instead, and keep only the kind of failure (a connection error's code, an HTTP status), never a body or
 * a cause text that might echo the URL. Every call is bounded by a timeout that names the network.
 */
import { JsonRpcError } from "../json-rpc";

/** Why an upstream call failed: it could not be reached, it was too slow, or it answered something unusable. */
export type UpstreamFailure = "unreachable" | "timeout" | "bad-answer";

/** An upstream call that got no usable answer; the message names the network, never the URL. */
export class UpstreamError extends Error {
  constructor(
    readonly failure: UpstreamFailure,
    message: string,
  ) {
    super(message);
    this.name = "UpstreamError";
  }
}

/** One network's upstream. */
export class Upstream {
  private nextId = 1;

  /**
   * @param url the upstream RPC URL: a secret
   * @param timeoutMs how long one call may take
   */
  constructor(
    readonly networkId: string,
    private readonly url: string,
    private readonly timeoutMs: number,
  ) {}

  /** Calls one method; throws `JsonRpcError` for the upstream's own error answer, `UpstreamError` for no answer. */
  async request<T = unknown>(method: string, params: unknown[] = []): Promise<T> {
    const answer = await this.post({ jsonrpc: "2.0", id: this.nextId++, method, params });
    if (answer && typeof answer === "object" && "error" in answer) {
      const error = (answer as { error: { code?: number; message?: string; data?: unknown } }).error;
      throw new JsonRpcError(Number(error?.code ?? -32603), this.redact(String(error?.message ?? "error")), error?.data);
    }
    if (!answer || typeof answer !== "object" || !("result" in answer)) {
      throw new UpstreamError("bad-answer", `the upstream of network ${this.networkId} answered ${method} with no result`);
    }
    return (answer as { result: T }).result;
  }

  /** Posts one JSON-RPC body and returns the parsed answer. */
  private async post(body: unknown): Promise<unknown> {
    let response: Response;
    try {
      response = await fetch(this.url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (error) {
      throw this.failure(error);
    }
    let text: string;
    try {
      text = await response.text();
    } catch (error) {
      throw this.failure(error);
    }
    if (!response.ok) {
      throw new UpstreamError(
        response.status === 408 || response.status === 504 ? "timeout" : "bad-answer",
        `the upstream of network ${this.networkId} answered HTTP ${response.status}`,
      );
    }
    try {
      return JSON.parse(text);
    } catch {
      throw new UpstreamError("bad-answer", `the upstream of network ${this.networkId} answered something that is not JSON`);
    }
  }

  private failure(error: unknown): UpstreamError {
    const name = (error as Error)?.name;
    if (name === "TimeoutError" || name === "AbortError") {
      return new UpstreamError("timeout", `the upstream of network ${this.networkId} did not answer within ${this.timeoutMs} ms`);
    }
    const code = (error as { cause?: { code?: unknown } })?.cause?.code;
    return new UpstreamError(
      "unreachable",
      `the upstream of network ${this.networkId} cannot be reached${typeof code === "string" && /^[A-Z_]+$/.test(code) ? ` (${code})` : ""}`,
    );
  }

  /** An upstream's message with its own URL taken out, in case it quotes it. */
  private redact(message: string): string {
    const origin = (() => {
      try {
        return new URL(this.url).host;
      } catch {
        return null;
      }
    })();
    let out = message.split(this.url).join(`[upstream of network ${this.networkId}]`);
    if (origin) out = out.split(origin).join("[redacted]");
    return out.slice(0, 500);
  }
}
