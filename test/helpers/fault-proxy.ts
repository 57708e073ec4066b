/**
 * A small fault-injecting HTTP proxy for client tests. It sits between the client and a real upstream (the
 * local service) and, request by request, passes the request through or injects a fault:
 * - `drop-before`: reads the request, then closes the connection without forwarding it (the service never sees it);
 * - `drop-after`: forwards the request, waits for the service's whole answer, then closes the connection
 *   without relaying it (the service acted, the client cannot know);
 * - `{ delayMs }`: holds the request for a while before forwarding it (a client timeout then races a late success);
 * - `503`: answers 503 itself (the spec's error body, error id `fault`) without forwarding;
 * - `429`: answers 429 itself with `X-Svc-Remaining: 0` and a reset timestamp one second ahead.
 *
 * Besides queued faults, {@link FaultProxyOptions.random} injects faults at random into a share of all requests,
 * from a seeded generator, so a failing sequence can be replayed.
 *
 * @example
 * const proxy = await startFaultProxy(service.baseUrl);
 * proxy.inject("drop-after", (r) => r.method === "POST");
 * const client = createClient({ baseUrl: proxy.baseUrl, accessKey });
 */
import { createServer, request as httpRequest, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** What the proxy does to one request. */
export type Fault = "pass" | "drop-before" | "drop-after" | "503" | "429" | { delayMs: number };

/** The transient faults a service or the network in front of it can produce (what random injection draws from). */
export const TRANSIENT_FAULTS = ["503", "429", "drop-before", "drop-after"] as const satisfies readonly Fault[];

/** Options of {@link startFaultProxy}. */
export interface FaultProxyOptions {
  /** Injects a fault into `rate` (0 to 1) of the requests no queued fault applies to, drawn from `seed`. */
  readonly random?: { readonly rate: number; readonly seed: number; readonly faults?: readonly Fault[] };
  /** Called as each request arrives, before the proxy acts on it (a delayed request is then still in flight). */
  readonly onRequest?: (entry: ProxyLogEntry) => void;
}

/** One request the proxy saw, and what it did. */
export interface ProxyLogEntry {
  method: string;
  url: string;
  fault: Fault;
  /** The upstream's status, when the request was forwarded and answered. */
  upstreamStatus?: number;
}

/** A running fault proxy. */
export interface FaultProxy {
  /** `http://127.0.0.1:<port>`. */
  readonly baseUrl: string;
  /** Every request seen, in arrival order. */
  readonly log: ProxyLogEntry[];
  /** Queues a fault for the next request that `when` accepts (default: any). Faults are used once, in order. */
  inject(fault: Fault, when?: (request: { method: string; url: string }) => boolean): void;
  /** Drops every queued fault. */
  clear(): void;
  /** Stops listening and closes open connections. */
  close(): Promise<void>;
}

/** Starts a proxy on 127.0.0.1 (free port) in front of `upstream` (an http:// base URL). */
export async function startFaultProxy(upstream: string, options: FaultProxyOptions = {}): Promise<FaultProxy> {
  const target = new URL(upstream);
  const queue: { fault: Fault; when: (request: { method: string; url: string }) => boolean }[] = [];
  const log: ProxyLogEntry[] = [];
  const random = options.random && { ...options.random, next: mulberry32(options.random.seed) };

  const takeFault = (method: string, url: string): Fault => {
    const index = queue.findIndex((q) => q.when({ method, url }));
    if (index !== -1) return queue.splice(index, 1)[0]!.fault;
    if (!random || random.next() >= random.rate) return "pass";
    const faults = random.faults ?? TRANSIENT_FAULTS;
    return faults[Math.floor(random.next() * faults.length)]!;
  };

  const forward = (req: IncomingMessage, body: Buffer) =>
    new Promise<{ status: number; headers: IncomingMessage["headers"]; body: Buffer }>((resolve, reject) => {
      const upstreamRequest = httpRequest(
        { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () => resolve({ status: res.statusCode ?? 502, headers: res.headers, body: Buffer.concat(chunks) }));
          res.on("error", reject);
        },
      );
      upstreamRequest.on("error", reject);
      upstreamRequest.end(body);
    });

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      const fault = takeFault(req.method ?? "GET", req.url ?? "/");
      const entry: ProxyLogEntry = { method: req.method ?? "GET", url: req.url ?? "/", fault };
      log.push(entry);
      options.onRequest?.(entry);
      if (fault === "drop-before") return void req.socket.destroy();
      if (fault === "503") {
        res.writeHead(503, { "content-type": "application/json", connection: "close" });
        return void res.end(JSON.stringify({ error: { id: "fault", slug: "service_unavailable", message: "injected" } }));
      }
      if (fault === "429") {
        res.writeHead(429, {
          "content-type": "application/json",
          "x-svc-limit": "400",
          "x-svc-remaining": "0",
          "x-svc-reset-timestamp": String(Math.ceil(Date.now() / 1000) + 1),
        });
        return void res.end(JSON.stringify({ error: { id: "fault", slug: "too_many_requests", message: "injected" } }));
      }
      if (typeof fault === "object") await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
      try {
        const answer = await forward(req, Buffer.concat(chunks));
        entry.upstreamStatus = answer.status;
        if (fault === "drop-after") return void req.socket.destroy();
        if (res.destroyed) return; // the client gave up while the request was delayed
        const headers = { ...answer.headers };
        delete headers["transfer-encoding"];
        headers["content-length"] = String(answer.body.length);
        res.writeHead(answer.status, headers);
        res.end(answer.body);
      } catch {
        req.socket.destroy();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    log,
    inject(fault, when = () => true) {
      queue.push({ fault, when });
    },
    clear() {
      queue.length = 0;
    },
    close() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** A small seeded PRNG (mulberry32): the same seed gives the same fault sequence. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
