/**
 * The single-method loads of `npm run bench -- rpc`: autocannon over HTTP, its WebSocket counterpart, and calls one
 * after another on one connection (counting 429s). Each figure is one side of a ratio the benchmark takes in turns.
 */
import { request as httpRequest, Agent } from "node:http";
import WebSocket from "ws";

// autocannon ships no types; the few fields used here are typed below.
interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p99: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}
// eslint-disable-next-line @typescript-eslint/no-require-imports
const autocannon = require("autocannon") as (options: object) => Promise<AutocannonResult>;

/** One single-method load: the call, and how many connections send it. */
export interface Load {
  readonly name: string;
  readonly method: string;
  readonly params: unknown[];
  readonly connections: number;
  readonly transport?: "ws";
}

/** `load` through `url` for `seconds` with autocannon: calls a second and the p99 (ms); any failure throws. */
export async function cannon(url: string, load: Load, seconds: number): Promise<{ rps: number; p99: number }> {
  const result = await autocannon({
    url,
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: load.method, params: load.params }),
    connections: load.connections,
    duration: seconds,
  });
  const failures = result.non2xx + result.errors + result.timeouts;
  if (failures > 0) throw new Error(`${load.name} through ${url}: ${failures} failed requests`);
  return { rps: result.requests.average, p99: result.latency.p99 };
}

/** The WebSocket counterpart of `cannon`: each connection sends the call, waits for its answer, and sends it again. */
export async function wsCannon(url: string, load: Load, seconds: number): Promise<{ rps: number; p99: number }> {
  const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: load.method, params: load.params });
  const sockets = await Promise.all(
    Array.from(
      { length: load.connections },
      () =>
        new Promise<WebSocket>((resolve, reject) => {
          const socket = new WebSocket(url.replace(/^http/, "ws"));
          socket.once("open", () => resolve(socket)).once("error", reject);
        }),
    ),
  );
  const latencies: number[] = [];
  const started = performance.now();
  await Promise.all(
    sockets.map(
      (socket) =>
        new Promise<void>((resolve) => {
          let sent = 0;
          const send = () => {
            if (performance.now() - started >= seconds * 1000) return resolve();
            sent = performance.now();
            socket.send(body);
          };
          socket.on("message", (data) => {
            if (!data.toString().includes('"result"')) throw new Error(`${load.name} through ${url}: ${data.toString()}`);
            latencies.push(performance.now() - sent);
            send();
          });
          socket.once("close", () => resolve());
          send();
        }),
    ),
  );
  const took = (performance.now() - started) / 1000;
  for (const socket of sockets) socket.close();
  const sorted = latencies.sort((a, b) => a - b);
  return { rps: latencies.length / took, p99: Math.round(sorted[Math.floor(sorted.length * 0.99)] ?? 0) };
}

/** `count` calls one after another on one keep-alive connection: how many answered 429, how many otherwise failed. */
export async function sequential(url: string, count: number): Promise<{ tooMany: number; other: number; ms: number }> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_blockNumber", params: [] });
  let tooMany = 0;
  let other = 0;
  const started = performance.now();
  for (let i = 0; i < count; i += 1) {
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(url, { method: "POST", agent, headers: { "content-type": "application/json" } }, (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      });
      req.on("error", reject);
      req.end(body);
    });
    if (status === 429) tooMany += 1;
    else if (status !== 200) other += 1;
  }
  agent.destroy();
  return { tooMany, other, ms: performance.now() - started };
}
