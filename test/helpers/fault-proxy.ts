/**
 * A small fault-injecting HTTP proxy for client tests. It sits between the client and a real upstream (the
 * local service) and, request by request, passes the request through or injects a fault:
 * - `drop-before`: reads the request, then closes the connection without forwarding it (the service never sees it);
 * - `drop-after`: forwards the request, waits for the service's whole answer, then closes the connection
 *   without relaying it (the service acted, the client cannot know);
 * - `{ delayMs }`: holds the request for a while before forwarding it (a client timeout then races a late success);
 * - `503`: answers 503 itself without forwarding.
 *
 * @example
 * const proxy = await startFaultProxy(service.baseUrl);
 * proxy.inject("drop-after", (r) => r.method === "POST");
 * const client = createClient({ baseUrl: proxy.baseUrl, accessKey });
 */
import { createServer, request as httpRequest, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** What the proxy does to one request. */
export type Fault = "pass" | "drop-before" | "drop-after" | "503" | { delayMs: number };

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
export async function startFaultProxy(upstream: string): Promise<FaultProxy> {
  const target = new URL(upstream);
  const queue: { fault: Fault; when: (request: { method: string; url: string }) => boolean }[] = [];
  const log: ProxyLogEntry[] = [];

  const takeFault = (method: string, url: string): Fault => {
    const index = queue.findIndex((q) => q.when({ method, url }));
    return index === -1 ? "pass" : queue.splice(index, 1)[0]!.fault;
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
      if (fault === "drop-before") return void req.socket.destroy();
      if (fault === "503") {
        res.writeHead(503, { "content-type": "text/plain", connection: "close" });
        return void res.end("injected 503");
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
