/**
 * What a create asks an upstream when the fork cache already holds recordings (docs/forking.md, docs/oci-store.md):
 * nothing at a recorded block (the chain id comes from the recordings), the head alone without `block_number`, and
 * with the upstream down the newest recorded block with a warning. The upstream is still checked before a fork takes
 * its first answer: another network's URL never mixes into the recordings.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Environment } from "../lib/api";
import { adminRpc, call } from "./helpers/http";
import { startForkUpstream, type ForkUpstream } from "./helpers/fork-upstream";
import { environmentsPath, startTestService, type TestService } from "./helpers/service";

jest.setTimeout(180_000);

const hex = (n: bigint) => `0x${n.toString(16)}`;
let upstream: ForkUpstream;
let cacheDir: string;

beforeAll(async () => {
  upstream = await startForkUpstream();
  cacheDir = mkdtempSync(join(tmpdir(), "chainform-warm-create-"));
  // A first service records forks at the pinned block and at the head.
  await withService(upstream.url, async (service) => {
    for (const block of [upstream.history.aliceTopped, upstream.history.head]) expect((await create(service, block)).status).toBe(200);
  });
});

afterAll(async () => {
  await upstream?.close();
  rmSync(cacheDir, { recursive: true, force: true });
});

async function withService(forkUrl: string, use: (service: TestService, log: () => string) => Promise<void>): Promise<void> {
  const logFile = join(cacheDir, `log-${Math.random().toString(16).slice(2)}`);
  const service = await startTestService({ forkUrls: { "1": forkUrl }, forkCacheDir: cacheDir, logger: { level: "info", file: logFile } });
  try {
    await use(service, () => readFileSync(logFile, "utf8"));
  } finally {
    await service.close();
  }
}

function create(service: TestService, block?: bigint) {
  return call(service, "POST", environmentsPath(service), {
    as: "alice",
    body: { display_name: "warm", network_configs: [{ network_id: "1", ...(block !== undefined && { block_number: hex(block) }) }] },
  });
}

async function rpc(url: string, method: string, params: unknown[]): Promise<{ result?: unknown; error?: { message: string } }> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  return (await response.json()) as { result?: unknown; error?: { message: string } };
}

test("a create at a recorded block asks nothing; without block_number, the head alone; the chain id is asked before the first answer used", async () => {
  await withService(upstream.url, async (service) => {
    let mark = upstream.methods.length;
    const pinned = await create(service, upstream.history.aliceTopped);
    expect(pinned.status).toBe(200);
    expect(upstream.methods.slice(mark)).toEqual([]);

    const latest = await create(service);
    expect(latest.status).toBe(200);
    expect((latest.body as Environment).networks[0].block_number).toBe(hex(upstream.history.head));
    expect(upstream.methods.slice(mark)).toEqual(["eth_blockNumber"]);

    // A read nobody recorded goes to the upstream, after its chain id was checked once.
    mark = upstream.methods.length;
    const fresh = "0x00000000000000000000000000000000000fe5e1";
    expect((await rpc(adminRpc(pinned.body as Environment), "eth_getBalance", [fresh, "latest"])).result).toBe("0x0");
    expect(upstream.methods[mark]).toBe("eth_chainId");
    expect(upstream.methods.slice(mark + 1).length).toBeGreaterThan(0);
  });
});

test("with the upstream down, a create without block_number forks the newest recorded block, with a warning", async () => {
  await withService("http://127.0.0.1:9/down", async (service, log) => {
    const created = await create(service);
    expect(created.status).toBe(200);
    expect((created.body as Environment).networks[0].block_number).toBe(hex(upstream.history.head));
    // The log is written by its own stream, so the warning may reach the file a little after the answer.
    const deadline = Date.now() + 30_000;
    while (!/cannot be asked/.test(log()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(log()).toMatch(/the head of network 1 cannot be asked; forking from its recordings instead/);
    expect(log()).not.toContain("127.0.0.1:9");
  });
});

test("another network's URL: a warm create asks it nothing, and the first read that reaches it is refused, naming why", async () => {
  const asked: string[] = [];
  // An upstream of network 10 given as network 1's.
  const server: Server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString()));
    request.on("end", () => {
      const { id, method } = JSON.parse(body) as { id: number; method: string };
      asked.push(method);
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify({ jsonrpc: "2.0", id, result: method === "eth_chainId" ? "0xa" : "0x0" }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  try {
    await withService(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, async (service) => {
      const created = await create(service, upstream.history.aliceTopped);
      expect(created.status).toBe(200);
      expect(asked).toEqual([]);
      const url = adminRpc(created.body as Environment);
      for (let i = 0; i < 2; i++) {
        const read = await rpc(url, "eth_getBalance", ["0x00000000000000000000000000000000000fe5e2", "latest"]);
        expect(read.error?.message).toMatch(/answers chain id 10, not 1: it is another network's RPC/);
      }
      // Asked once, refused for good: no read went through it.
      expect(asked).toEqual(["eth_chainId"]);
    });
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});
