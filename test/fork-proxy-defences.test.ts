/**
 * The fork proxy's defences against its upstream (docs/forking.md): an answer over the size cap is an error naming
 * the network and the cap, recorded nowhere, and read no further than the cap; a redirect is not followed; an
 * upstream error that echoes its URL's key reaches no caller, no log line and no recording; an unreachable upstream
 * is the user's configuration to fix, reported at once (a 400 the client does not retry). The front takes no JSON-RPC
 * batches either, as some upstreams do not: the fork's block inputs are then recorded one call at a time. Real service, real anvil,
 * behind a hostile front on an upstream anvil with real history.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Environment } from "../lib/api";
import { ApiError } from "../lib/client";
import { DEFAULT_MAX_ANSWER_BYTES } from "../lib/service/chains/fork";
import { call } from "./helpers/http";
import { DEPLOYER, startForkUpstream, type ForkUpstream } from "./helpers/fork-upstream";
import { environmentsPath, clientFor, startTestService, type TestService } from "./helpers/service";

/** The hostile front's key: in its path and in a query value, both echoed by its errors. */
const KEY = "hk-4f9a2c7e1d5b";
const QUERY_KEY = "qk8d3e6a0b9c";
/** Accounts whose reads the front answers badly. */
const HUGE = "0x00000000000000000000000000000000000b16b1";
const MOVED = "0x0000000000000000000000000000000000000307";
/** A storage slot whose read the front answers with an error that echoes its URL. */
const ECHO_SLOT = "0x99";

let upstream: ForkUpstream;
let front: Server;
let elsewhere: Server;
let frontUrl: string;
let root: string;
let service: TestService;
/** The most bytes the front wrote of one endless answer before the service stopped reading. */
let hugeBytesSent = 0;
/** Requests that reached the redirect's target: none may. */
let elsewhereHits = 0;

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as AddressInfo).port;
}

const rpcUrl = (environment: Environment, name: string) => environment.active_instance.vnets[0].rpcs.find((r) => r.name === name)!.url;

async function rpc(url: string, method: string, params: unknown[]): Promise<{ text: string; body: any }> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  const text = await response.text();
  return { text, body: JSON.parse(text) };
}

beforeAll(async () => {
  upstream = await startForkUpstream();
  root = mkdtempSync(join(tmpdir(), "chainform-fork-defences-"));
  elsewhere = createServer((request, response) => {
    elsewhereHits += 1;
    response.writeHead(200, { "content-type": "application/json" }).end('{"jsonrpc":"2.0","id":1,"result":"0xbad"}');
  });
  const elsewherePort = await listen(elsewhere);
  front = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString("utf8");
    const body = JSON.parse(text) as { id: number; method: string; params: unknown[] };
    const about = !Array.isArray(body) && Array.isArray(body.params) ? String(body.params[0]).toLowerCase() : "";
    if (Array.isArray(body)) {
      // An upstream that takes no batches: the fork's block inputs are then read one call at a time.
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32600, message: "batches are not supported" } }));
      return;
    }
    const echo = `not served at ${frontUrl} (key ${KEY}, apikey=${QUERY_KEY})`;
    if (!Array.isArray(body) && body.method === "eth_getAccountInfo") {
      // An upstream without eth_getAccountInfo, whose "method not found" (recorded: anvil then reads part by part)
      // quotes its own URL.
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify({ jsonrpc: "2.0", id: body.id, error: { code: -32601, message: `method not found: ${echo}` } }));
      return;
    }
    if (about === HUGE) {
      // An endless answer: the service must stop reading at its cap.
      response.writeHead(200, { "content-type": "application/json" });
      const chunk = Buffer.alloc(1024 * 1024, 0x61);
      response.write('{"jsonrpc":"2.0","id":1,"result":"0x');
      let sent = 0;
      const pump = () => {
        while (!response.destroyed && sent < 4 * DEFAULT_MAX_ANSWER_BYTES) {
          sent += chunk.length;
          hugeBytesSent = Math.max(hugeBytesSent, sent);
          if (!response.write(chunk)) return void response.once("drain", pump);
        }
        response.end('"}');
      };
      pump();
      return;
    }
    if (about === MOVED) {
      response.writeHead(307, { location: `http://127.0.0.1:${elsewherePort}/` }).end();
      return;
    }
    if (!Array.isArray(body) && body.method === "eth_getStorageAt" && body.params[1] === ECHO_SLOT) {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(
        JSON.stringify({ jsonrpc: "2.0", id: body.id, error: { code: -32000, message: echo, data: { url: frontUrl, key: KEY } } }),
      );
      return;
    }
    const answer = await fetch(upstream.url, { method: "POST", headers: { "content-type": "application/json" }, body: text });
    response.writeHead(answer.status, { "content-type": "application/json" }).end(await answer.text());
  });
  const port = await listen(front);
  frontUrl = `http://127.0.0.1:${port}/v3/${KEY}?apikey=${QUERY_KEY}`;
  service = await startTestService({
    dataDir: join(root, "data"),
    forkUrls: { "1": frontUrl },
    logger: { level: "debug", file: join(root, "service.log") },
  });
});
afterAll(async () => {
  await service?.close().catch(() => undefined);
  front?.closeAllConnections();
  elsewhere?.closeAllConnections();
  await Promise.all([front, elsewhere].map((server) => new Promise((resolve) => server?.close(resolve))));
  await upstream?.close();
  if (!process.env.KEEP) rmSync(root, { recursive: true, force: true });
});

test("an oversized answer, a redirect and an upstream error quoting its key: each a named error; no key in any answer, log line or recording", async () => {
  const path = environmentsPath(service);
  const created = await call(service, "POST", path, {
    as: "alice",
    body: { display_name: "hostile", network_configs: [{ network_id: "1" }] },
  });
  expect(created.status).toBe(200);
  const environment = created.body as Environment;
  const answers: string[] = [created.text];

  for (const name of ["Admin RPC", "Public RPC"]) {
    const url = rpcUrl(environment, name);
    const huge = await rpc(url, "eth_getBalance", [HUGE, "latest"]);
    answers.push(huge.text);
    expect(huge.body.error.message).toContain(
      `the upstream of network 1 answered more than ${DEFAULT_MAX_ANSWER_BYTES} bytes, the cap on one upstream answer; nothing was recorded`,
    );
    const moved = await rpc(url, "eth_getBalance", [MOVED, "latest"]);
    answers.push(moved.text);
    expect(moved.body.error.message).toMatch(/the upstream of network 1 answered a redirect \(HTTP 307\), which chainform does not follow/);
    const echoed = await rpc(url, "eth_getStorageAt", [upstream.history.token, ECHO_SLOT, "latest"]);
    answers.push(echoed.text);
    expect(echoed.body.error.message).toMatch(/not served at/);
    // Reads that work go on working, part by part after the upstream's "method not found".
    const balance = await rpc(url, "eth_getBalance", [DEPLOYER, "latest"]);
    answers.push(balance.text);
    expect(BigInt(balance.body.result)).toBeGreaterThan(0n);
  }
  // The endless answer was read no further than the cap (plus what was in flight on the socket).
  expect(hugeBytesSent).toBeLessThan(2 * DEFAULT_MAX_ANSWER_BYTES);
  expect(elsewhereHits).toBe(0);
  await service.close();

  const recordings = readdirSync(join(root, "data", "fork-cache", "1")).map((name) =>
    readFileSync(join(root, "data", "fork-cache", "1", name), "utf8"),
  );
  const recorded = recordings.join("");
  expect(recorded.includes("method not found: not served at [upstream of network 1]")).toBe(true);
  expect(recorded.includes("aaaaaaaa")).toBe(false);
  // What a chain needs to mine offline was recorded all the same, one call at a time.
  expect(recorded.includes('"chainform:block-inputs-v1": true')).toBe(true);
  expect(recorded.includes('"eth_feeHistory [\\"0xa\\",\\"0x7\\",[20]]"')).toBe(true);
  const log = readFileSync(join(root, "service.log"), "utf8");
  for (const text of [...answers, ...recordings, log]) {
    expect(text.includes(KEY) || text.includes(QUERY_KEY)).toBe(false);
  }
});

test("an unreachable upstream is reported at once as the --fork setting to fix, naming the network, never its URL", async () => {
  const unreachable = await startTestService({ forkUrls: { "10": "http://127.0.0.1:9/v2/sk-unreachable-7c1e9d" } });
  const client = clientFor(unreachable);
  const started = performance.now();
  const error = await client
    .createEnvironment({ display_name: "unreachable", network_configs: [{ network_id: "10" }] })
    .catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ApiError);
  expect((error as ApiError).status).toBe(400);
  expect((error as ApiError).message).toMatch(/the upstream of network 10 cannot be reached.*; check --fork 10=URL/);
  expect((error as ApiError).message).not.toMatch(/sk-unreachable|127\.0\.0\.1:9/);
  // No retries: a connection refused on loopback fails in milliseconds; retried 502s took 6 to 20 s.
  expect(performance.now() - started).toBeLessThan(5_000);
  await unreachable.close();
});
