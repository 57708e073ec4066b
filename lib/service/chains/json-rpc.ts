/**
 * A small JSON-RPC 2.0 client over a keep-alive undici pool: one per running chain. `send` passes bodies through
 * untouched (the RPC proxy); `request` unwraps one call's result or throws its error.
 */
import { Pool } from "undici";
import type { JsonRpcRequest, JsonRpcResponse } from "./types";

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

/** Talks JSON-RPC to one node's HTTP endpoint. */
export class JsonRpcClient {
  private readonly pool: Pool;
  private nextId = 1;

  constructor(readonly url: string) {
    this.pool = new Pool(url, { connections: 8, keepAliveTimeout: 30_000, pipelining: 1 });
  }

  /** Sends a raw body (a request or a batch) and returns the parsed answer. */
  async send(body: JsonRpcRequest | JsonRpcRequest[]): Promise<JsonRpcResponse | JsonRpcResponse[]> {
    const response = await this.pool.request({
      path: "/",
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    const text = await response.body.text();
    if (response.statusCode !== 200) {
      throw new JsonRpcError(-32603, `chain answered HTTP ${response.statusCode}: ${text.slice(0, 200)}`);
    }
    return JSON.parse(text) as JsonRpcResponse | JsonRpcResponse[];
  }

  /** Calls one method and returns its result; throws `JsonRpcError` when the chain answers an error. */
  async request<T = unknown>(method: string, params: unknown[] = []): Promise<T> {
    const answer = (await this.send({ jsonrpc: "2.0", id: this.nextId++, method, params })) as JsonRpcResponse;
    if ("error" in answer) throw new JsonRpcError(answer.error.code, answer.error.message, answer.error.data);
    return answer.result as T;
  }

  /** Closes the connections. */
  async close(): Promise<void> {
    await this.pool.close().catch(() => undefined);
  }
}
