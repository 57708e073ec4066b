/**
 * The HTTP server's own bounds (caller-limits.ts has the numbers, docs/service.md "Limits per caller" the reasons): a
 * request must arrive whole within `requestTimeoutMs` (its head within `headersTimeoutMs`), and one address may hold
 * at most `connectionsPerAddress` connections at once, HTTP and WebSocket alike, so that no single machine can use
 * every descriptor the service has and lock the others out.
 */
import type { Server } from "node:http";
import type { Socket } from "node:net";
import { Server as TlsServer } from "node:tls";
import { rawErrorAnswer } from "./errors/client-errors";
import type { RpcLimits } from "./caller-limits";
import type { RateDecision } from "./rate-limit";

/** The message of a connection refused past its address's cap. */
export function tooManyConnections(cap: number): string {
  return `too many connections from this address (at most ${cap}): close some and retry`;
}

/**
 * Applies the bounds to a server that has not started listening (Node reads how often it checks the timeouts when
 * it starts). `rate` gives the rate headers of a refusal.
 *
 * @example
 * limitConnections(app.server, DEFAULT_RPC_LIMITS, (address) => limiter.take(`ip:${address}`, 100, 100, false));
 */
export function limitConnections(server: Server, limits: RpcLimits, rate: (address: string) => RateDecision): void {
  server.requestTimeout = limits.requestTimeoutMs;
  server.headersTimeout = Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs);
  // Node looks for late requests this often (30 s by default, which would double a short timeout).
  (server as Server & { connectionsCheckingInterval: number }).connectionsCheckingInterval = Math.max(
    250,
    Math.min(5_000, Math.floor(limits.requestTimeoutMs / 4)),
  );
  const open = new Map<string, number>();
  // A TLS connection has not said hello yet when it opens: it can only be closed.
  const plain = !(server instanceof TlsServer);
  server.on("connection", (socket: Socket) => {
    const address = socket.remoteAddress ?? "unknown";
    const count = (open.get(address) ?? 0) + 1;
    if (count > limits.connectionsPerAddress) {
      if (!plain || !socket.writable) socket.destroy();
      else socket.end(rawErrorAnswer(429, tooManyConnections(limits.connectionsPerAddress), rate(address)));
      return;
    }
    open.set(address, count);
    socket.once("close", () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left > 0) open.set(address, left);
      else open.delete(address);
    });
  });
}
