/**
 * Callers of the RPC URLs for hostile-use tests: an environment's URLs, raw HTTP posts, and WebSocket clients that
 * collect every message (so a test sees answers it did not ask for).
 *
 * @example
 * const environment = await createEnvironment(service, "probe", "7201");
 * const socket = await openSocket(urlOf(environment, "Public websocket RPC"));
 */
import WebSocket from "ws";
import type { Environment } from "../../lib/api";
import { call } from "./http";
import type { TestService } from "./service";

/** Creates an environment forking network 1 under its own chain id, as alice. */
export async function createEnvironment(service: TestService, name: string, chain: string): Promise<Environment> {
  const created = await call(service, "POST", "/public/v1/account/acme/project/demo/environments", {
    as: "alice",
    body: { display_name: name, network_configs: [{ network_id: "1", chain_config_overrides: { chain_id: chain } }] },
  });
  if (created.status !== 200 && created.status !== 201) throw new Error(`environment not created: ${created.status} ${created.text}`);
  return created.body;
}

/** One of an environment's RPC URLs by its listed name (`Public RPC`, `Admin websocket RPC`, ...). */
export function urlOf(environment: Environment, name: string): string {
  return environment.active_instance.vnets[0].rpcs.find((r) => r.name === name)!.url;
}

/** A JSON-RPC request's text. */
export function rpcText(id: number | string, method: string, params: unknown[] = []): string {
  return JSON.stringify({ jsonrpc: "2.0", id, method, params });
}

/** POSTs a body and reads the answer (the JSON, or null when it is not JSON). */
export async function post(url: string, body: string | Buffer): Promise<{ status: number; json: any; text: string }> {
  const response = await fetch(url, { method: "POST", body, headers: { "content-type": "application/json" } });
  const text = await response.text();
  let json: any = null;
  try {
    json = JSON.parse(text);
  } catch {
    json = null;
  }
  return { status: response.status, json, text };
}

/** A WebSocket client that keeps every message it gets, and waits for answers by id. */
export class CollectingSocket {
  readonly messages: any[] = [];
  private readonly waiting: (() => void)[] = [];
  closedWith: { code: number; reason: string } | null = null;

  private constructor(readonly socket: WebSocket) {
    socket.on("message", (data) => {
      this.messages.push(JSON.parse(data.toString()));
      this.waiting.splice(0).forEach((wake) => wake());
    });
    socket.on("close", (code, reason) => {
      this.closedWith = { code, reason: reason.toString() };
      this.waiting.splice(0).forEach((wake) => wake());
    });
  }

  /** Opens a connection (from `localAddress`, when given). */
  static open(url: string, localAddress?: string): Promise<CollectingSocket> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(url, localAddress ? { localAddress } : {});
      socket.once("open", () => resolve(new CollectingSocket(socket)));
      socket.once("error", reject);
    });
  }

  /** Sends a raw text and waits for the answer whose id is `id` (any message when `id` is undefined). */
  async request(text: string | Buffer, id?: unknown, timeoutMs = 60_000): Promise<any> {
    const from = this.messages.length;
    this.socket.send(text);
    return this.until((messages) => messages.slice(from).find((m) => id === undefined || answerOf(m, id)), timeoutMs);
  }

  /** Waits until `found` returns something from the messages, or the connection closes (then null). */
  async until<T>(found: (messages: any[]) => T | undefined, timeoutMs = 60_000): Promise<T | null> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const hit = found(this.messages);
      if (hit !== undefined) return hit;
      if (this.closedWith) return null;
      if (Date.now() > deadline) throw new Error(`no such message within ${timeoutMs} ms`);
      await new Promise<void>((wake) => {
        this.waiting.push(wake);
        setTimeout(wake, 1_000);
      });
    }
  }

  /** Waits for the connection to close; its code and reason. */
  async closed(timeoutMs = 60_000): Promise<{ code: number; reason: string }> {
    await this.until(() => (this.closedWith ? true : undefined), timeoutMs);
    return this.closedWith!;
  }

  close(): void {
    this.socket.terminate();
  }
}

/** Whether a message is the answer with this id, alone or in a batch. */
function answerOf(message: any, id: unknown): boolean {
  return Array.isArray(message) ? message.some((m) => m?.id === id) : message?.id === id;
}

/** Whether a value is a well-formed JSON-RPC answer: version, an id, and exactly one of a result or a coded error. */
export function isRpcAnswer(value: any): boolean {
  if (typeof value !== "object" || value === null || Array.isArray(value) || value.jsonrpc !== "2.0") return false;
  if (!("id" in value) || !(value.id === null || typeof value.id === "string" || Number.isSafeInteger(value.id))) return false;
  if ("result" in value) return !("error" in value);
  return typeof value.error?.code === "number" && typeof value.error?.message === "string";
}
