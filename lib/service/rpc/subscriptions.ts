/**
 * The subscriptions of one WebSocket client connection (./websocket.ts): `eth_subscribe` and `eth_unsubscribe` go to
 * the chain's own WebSocket (one upstream connection per client connection, opened at the first subscription), its
 * notifications come back as they are. Each request goes up under an id of ours, so that the chain's answers tell
 * which subscriptions are open, whatever ids the client uses: the count is capped per connection and per RPC URL
 * (../caller-limits.ts), and a client's own id never reaches the chain.
 */
import WebSocket, { type RawData } from "ws";
import { ChainRequestError, type ChainEngine, type JsonRpcRequest, type JsonRpcResponse } from "../chains";
import { rpcError } from "./body";

/** Subscription kinds passed to the chain: new blocks, logs, pending transactions. */
export const SUBSCRIPTION_KINDS: ReadonlySet<string> = new Set(["newHeads", "logs", "newPendingTransactions"]);

/** Why a client's connection is closed when its chain's subscription channel closes (the chain stopped). */
export const CHAIN_CLOSED_REASON = "the chain stopped (idle, evicted or restarted): connect and subscribe again";

/** Open subscriptions per RPC URL, shared by its connections. */
export class UrlSubscriptions {
  private readonly counts = new Map<string, number>();

  /** Open (or asked for) subscriptions on a URL. */
  count(url: string): number {
    return this.counts.get(url) ?? 0;
  }

  /** Adds `delta` to a URL's count. */
  add(url: string, delta: number): void {
    const count = this.count(url) + delta;
    if (count > 0) this.counts.set(url, count);
    else this.counts.delete(url);
  }
}

/** What a connection's subscriptions need from it. */
export interface SubscriptionsHost {
  readonly engine: ChainEngine;
  readonly vnetId: string;
  /** The URL's window name: its subscriptions count together. */
  readonly url: string;
  readonly perUrl: UrlSubscriptions;
  readonly perConnection: number;
  readonly perUrlCap: number;
  /** Sends a JSON-RPC answer (an object, or the chain's text) to the client. */
  send(answer: JsonRpcResponse | string): void;
  /** Closes the client's connection with a reason. */
  close(code: number, reason: string): void;
}

/** A request sent up, waiting for the chain's answer. */
interface Pending {
  readonly request: JsonRpcRequest;
}

/** One client connection's subscriptions. */
export class ConnectionSubscriptions {
  private upstream: Promise<WebSocket> | null = null;
  private release: (() => void) | null = null;
  private readonly open = new Set<string>();
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private closed = false;

  constructor(private readonly host: SubscriptionsHost) {}

  /** Answers an `eth_subscribe` or `eth_unsubscribe`; never rejects. */
  async handle(request: JsonRpcRequest): Promise<void> {
    const id = request.id ?? null;
    const params = Array.isArray(request.params) ? (request.params as unknown[]) : [];
    if (request.method === "eth_subscribe") {
      const kind = params[0];
      if (typeof kind !== "string" || !SUBSCRIPTION_KINDS.has(kind)) {
        const named = typeof kind === "string" && kind.length <= 64 ? ` ${JSON.stringify(kind)}` : "";
        return this.host.send(rpcError(id, -32602, `unsupported subscription${named}: use newHeads, logs or newPendingTransactions`));
      }
      const full = this.capReached();
      if (full) return this.host.send(rpcError(id, -32005, full));
    }
    const ours = this.nextId++;
    this.pending.set(ours, { request });
    if (request.method === "eth_subscribe") this.host.perUrl.add(this.host.url, 1);
    try {
      // The request as ./body.ts wrote it anew, under our id: never the caller's bytes.
      (await this.chainSocket()).send(JSON.stringify({ ...request, id: ours }));
    } catch (error) {
      this.settle(ours, undefined);
      this.host.send(rpcError(id, -32000, error instanceof ChainRequestError ? error.message : "Internal error"));
    }
  }

  /** Ends the chain's connection and gives back this connection's share of the URL's count. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    let asked = this.open.size;
    for (const { request } of this.pending.values()) if (request.method === "eth_subscribe") asked += 1;
    this.host.perUrl.add(this.host.url, -asked);
    this.open.clear();
    this.pending.clear();
    this.release?.();
    this.release = null;
    void this.upstream?.then(
      (socket) => socket.close(),
      () => undefined,
    );
    this.upstream = null;
  }

  /** Why one more subscription is refused, or null. */
  private capReached(): string | null {
    let asked = this.open.size;
    for (const { request } of this.pending.values()) if (request.method === "eth_subscribe") asked += 1;
    if (asked >= this.host.perConnection) {
      return `too many subscriptions on this connection (at most ${this.host.perConnection}): eth_unsubscribe one first`;
    }
    if (this.host.perUrl.count(this.host.url) >= this.host.perUrlCap) {
      return `too many subscriptions on this RPC URL (at most ${this.host.perUrlCap}): eth_unsubscribe one first`;
    }
    return null;
  }

  /** The chain's WebSocket for this client, opened on the first subscription. */
  private chainSocket(): Promise<WebSocket> {
    this.upstream ??= this.connect();
    return this.upstream;
  }

  private async connect(): Promise<WebSocket> {
    const { engine, vnetId } = this.host;
    if (!engine.subscriptionChannel) throw new ChainRequestError(402, "no chain engine: subscriptions are not available");
    const channel = await engine.subscriptionChannel(vnetId);
    if (this.closed) {
      channel.release();
      throw new ChainRequestError(503, "the connection closed");
    }
    this.release = channel.release;
    const socket = new WebSocket(channel.url);
    await new Promise<void>((resolve, reject) => {
      socket.once("open", () => resolve());
      socket.once("error", reject);
    });
    socket.on("error", () => undefined);
    socket.on("message", (data: RawData) => this.fromChain(data.toString()));
    // The chain went away (stopped or crashed): its subscriptions are gone, so is this connection.
    socket.on("close", () => {
      if (!this.closed) this.host.close(1011, CHAIN_CLOSED_REASON);
    });
    return socket;
  }

  /** A notification passes as it is; an answer to one of ours goes back under the client's id. */
  private fromChain(text: string): void {
    if (this.pending.size === 0 || text.includes('"method":"eth_subscription"')) return this.host.send(text);
    let answer: JsonRpcResponse;
    try {
      answer = JSON.parse(text) as JsonRpcResponse;
    } catch {
      return;
    }
    const pending = typeof answer.id === "number" ? this.pending.get(answer.id) : undefined;
    if (!pending) return this.host.send(text);
    this.settle(answer.id as number, answer);
    this.host.send({ ...answer, id: pending.request.id ?? null });
  }

  /** Books an answer (none: the request never reached the chain): a subscription opened or closed. */
  private settle(ours: number, answer: JsonRpcResponse | undefined): void {
    const pending = this.pending.get(ours);
    if (!pending) return;
    this.pending.delete(ours);
    const { request } = pending;
    const result = answer && "result" in answer ? answer.result : undefined;
    if (request.method === "eth_subscribe") {
      if (typeof result === "string") this.open.add(result);
      else this.host.perUrl.add(this.host.url, -1);
    } else if (result === true && Array.isArray(request.params) && this.open.delete(request.params[0] as string)) {
      this.host.perUrl.add(this.host.url, -1);
    }
  }
}
