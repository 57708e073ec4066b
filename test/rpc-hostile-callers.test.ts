/**
 * The RPC URLs against callers who hold Public URLs or make URLs up (docs/service.md "RPC URLs"):
 * - idle kept-alive connections hold no chain: with `--max-chains 2`, two of them do not stop a third environment;
 * - made-up keys leave nothing behind and count in the caller's address's window, as the API's anonymous requests;
 * - an Admin RPC URL's secret never reaches the log, in any spelling a request may use (percent-encoded, any case,
 *   doubled slashes), whether the spelling works (it is decoded) or is a 404, nor through a WebSocket upgrade, which
 *   is a line of the log of its own;
 * - a deleted environment's URLs, secrets included, are forgotten at once, before any call to them.
 */
import { connect, type Socket } from "node:net";
import WebSocket from "ws";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Environment } from "../lib/api";
import { startTestService, type TestService } from "./helpers/service";
import { call } from "./helpers/http";

const chainId = (id: number) => JSON.stringify({ jsonrpc: "2.0", id, method: "eth_chainId", params: [] });
const urlOf = (environment: Environment, name: string) => environment.active_instance.vnets[0].rpcs.find((r) => r.name === name)!.url;

async function createEnvironment(service: TestService, name: string, chain: string): Promise<Environment> {
  const created = await call(service, "POST", "/public/v1/account/acme/project/demo/environments", {
    as: "alice",
    body: { display_name: name, network_configs: [{ network_id: "1", chain_config_overrides: { chain_id: chain } }] },
  });
  if (created.status !== 200 && created.status !== 201) throw new Error(`environment not created: ${created.status} ${created.text}`);
  return created.body;
}

async function post(url: string, body: string): Promise<{ status: number; json: any }> {
  const response = await fetch(url, { method: "POST", body });
  return { status: response.status, json: await response.json() };
}

/** A kept-alive TCP connection that sends raw calls and reads one answer per call (each answer in one chunk or more). */
class KeptAlive {
  private constructor(private readonly socket: Socket) {}

  static open(url: string): Promise<KeptAlive> {
    const { hostname, port } = new URL(url);
    return new Promise((resolve, reject) => {
      const socket = connect({ host: hostname, port: Number(port) }, () => resolve(new KeptAlive(socket)));
      socket.once("error", reject);
    });
  }

  /** Sends a call on `path` and resolves with the answer's body once it is whole. */
  call(path: string, body: string): Promise<any> {
    return new Promise((resolve, reject) => {
      let data = "";
      const read = (chunk: Buffer) => {
        data += chunk.toString();
        const head = data.indexOf("\r\n\r\n");
        const length = /content-length: *(\d+)/i.exec(data);
        if (head >= 0 && length && data.length >= head + 4 + Number(length[1])) {
          this.socket.off("data", read);
          resolve(JSON.parse(data.slice(head + 4, head + 4 + Number(length[1]))));
        }
      };
      this.socket.on("data", read);
      this.socket.once("close", () => reject(new Error("closed")));
      this.socket.write(`POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
    });
  }

  close(): void {
    this.socket.destroy();
  }
}

describe("idle kept-alive connections", () => {
  test("with --max-chains 2, two idle kept-alive connections that made reads do not stop a third environment", async () => {
    const service = await startTestService({ maxChains: 2 });
    const connections: KeptAlive[] = [];
    try {
      for (const [name, chain] of [
        ["first", "7101"],
        ["second", "7102"],
      ]) {
        const environment = await createEnvironment(service, name, chain);
        const connection = await KeptAlive.open(service.baseUrl);
        connections.push(connection);
        const path = new URL(urlOf(environment, "Public RPC")).pathname;
        for (const id of [1, 2]) expect((await connection.call(path, chainId(id))).result).toBe(`0x${Number(chain).toString(16)}`);
      }
      // Both connections stay open and idle; a third environment's chain starts and answers.
      const third = await createEnvironment(service, "third", "7103");
      expect((await post(urlOf(third, "Public RPC"), chainId(3))).json).toEqual({ jsonrpc: "2.0", id: 3, result: "0x1bbf" });
      // And the first connections still work (their chains start again as needed).
      const first = connections[0];
      expect((await first.call(new URL(urlOf(third, "Admin RPC")).pathname, chainId(4))).result).toBe("0x1bbf");
    } finally {
      connections.forEach((connection) => connection.close());
      await service.close();
    }
  });
});

describe("made-up keys", () => {
  test("leave nothing behind, count in the caller's address's window (429 past it), and never in a real URL's", async () => {
    const service = await startTestService({ rateLimits: { unauthenticatedLimit: 10_000, burstLimit: 10_000 } });
    try {
      const environment = await createEnvironment(service, "real", "7111");
      const limiter = service.app.service.limiter;
      expect((await post(urlOf(environment, "Public RPC"), chainId(1))).status).toBe(200);
      const before = limiter.size;
      const made = Array.from({ length: 400 }, (_, i) => [
        `${service.baseUrl}/rpc/admin/made-up-secret-${i}`,
        `${service.baseUrl}/rpc/public/00000000-0000-4000-8000-${String(i).padStart(12, "0")}`,
        `${service.baseUrl}/rpc/ADMIN/made-up-${i}`,
      ]).flat();
      for (let i = 0; i < made.length; i += 50) {
        const answers = await Promise.all(made.slice(i, i + 50).map((url) => post(url, chainId(i))));
        for (const answer of answers) expect(answer.status).toBe(404);
      }
      // One window for the caller's address, none per key.
      expect(limiter.size).toBeLessThanOrEqual(before + 1);
    } finally {
      await service.close();
    }
  });

  test("the per-address limit: made-up keys past it get 429; the real URLs keep their own window", async () => {
    const service = await startTestService({ rateLimits: { unauthenticatedLimit: 5, burstLimit: 5 } });
    try {
      const environment = await createEnvironment(service, "limited", "7112");
      const statuses = [];
      for (let i = 0; i < 7; i += 1) statuses.push((await post(`${service.baseUrl}/rpc/public/made-up-${i}`, chainId(i))).status);
      expect(statuses).toEqual([404, 404, 404, 404, 404, 429, 429]);
      const limited = await post(`${service.baseUrl}/rpc/admin/made-up`, chainId(8));
      expect(limited.json.error).toMatchObject({ slug: "too_many_requests" });
      // The same address's calls to a real URL are counted in that URL's window, not refused.
      expect((await post(urlOf(environment, "Public RPC"), chainId(9))).json.result).toBe("0x1bc8");
      // The API's anonymous requests share the address's window with the made-up keys.
      expect((await fetch(`${service.baseUrl}/v1/supported-networks`)).status).toBe(429);
    } finally {
      await service.close();
    }
  });
});

describe("secrets in the log", () => {
  test("no spelling of an Admin RPC URL puts its secret in the log, at debug level (a line per call) or info", async () => {
    const dir = mkdtempSync(join(tmpdir(), "rpc-secrets-"));
    try {
      for (const level of ["debug", "info"]) {
        const file = join(dir, `${level}.log`);
        const service = await startTestService({ logger: { level, file } });
        try {
          const environment = await createEnvironment(service, `logged ${level}`, "7121");
          const secret = new URL(urlOf(environment, "Admin RPC")).pathname.split("/").pop()!;
          const working = [`/rpc/%61dmin/${secret}`, `/%72pc/admin/${secret}`, `/rpc/admin/${secret}?token=${secret}`];
          for (const path of working) {
            expect((await post(`${service.baseUrl}${path}`, chainId(1))).json).toEqual({ jsonrpc: "2.0", id: 1, result: "0x1bd1" });
          }
          const notFound = [
            `/rpc/ADMIN/${secret}`,
            `/rpc/admin//${secret}`,
            `/RPC/admin/${secret}`,
            `/rpc/admin/${secret}/more`,
            `/rpc/admin%2F${secret}`,
            `/rpc/%41DMIN/${secret}`,
          ];
          for (const path of notFound) expect((await post(`${service.baseUrl}${path}`, chainId(2))).status).toBe(404);
          for (const path of [...working, ...notFound, `/dashboard/login?%74oken=${secret}`, `/rpc/admin/${secret}`]) {
            await fetch(`${service.baseUrl}${path}`);
          }
          // A WebSocket upgrade of the Admin URL, and one of a made-up URL (refused 404).
          const upgraded = new WebSocket(urlOf(environment, "Admin RPC").replace(/^http/, "ws"));
          await new Promise((resolve, reject) => upgraded.once("open", resolve).once("error", reject));
          upgraded.close();
          const refused = new WebSocket(`${service.baseUrl.replace(/^http/, "ws")}/rpc/admin/${secret}x`);
          await new Promise((resolve) => refused.once("error", resolve));
        } finally {
          await service.close();
        }
        const log = readFileSync(file, "utf8");
        expect(log).toContain("[redacted]");
        const upgrades = log
          .split("\n")
          .filter((line) => line.includes('"websocket upgrade"'))
          .map((line) => JSON.parse(line) as { status: number; req: { url: string } });
        expect(upgrades.map((upgrade) => [upgrade.status, upgrade.req.url])).toEqual([
          [101, "/rpc/admin/[redacted]"],
          [404, "/rpc/admin/[redacted]"],
        ]);
        expect(log.split("\n").filter((line) => /rpc|token/i.test(line) && !line.includes("[redacted]") && /admin/i.test(line))).toEqual(
          [],
        );
        expect(log.match(/[A-Za-z0-9_-]{43}/g) ?? []).toEqual([]);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("deleted environments", () => {
  test("their URLs, Admin secrets included, are forgotten as the deletion begins, and answer 404 after", async () => {
    const service = await startTestService();
    try {
      const environment = await createEnvironment(service, "deleted", "7131");
      const vnetId = environment.active_instance.vnets[0].id;
      expect((await post(urlOf(environment, "Admin RPC"), chainId(1))).status).toBe(200);
      expect(service.app.rpcPipeline!.rememberedVnets().has(vnetId)).toBe(true);
      const deleted = await call(service, "DELETE", `/public/v1/account/acme/project/demo/environments/${environment.id}`, { as: "alice" });
      expect(deleted.status).toBe(204);
      // THEN nothing of it is remembered, before any call to its URLs tells the pipeline it is gone
      expect(service.app.rpcPipeline!.rememberedVnets().has(vnetId)).toBe(false);
      expect((await post(urlOf(environment, "Admin RPC"), chainId(2))).status).toBe(404);
      expect((await post(urlOf(environment, "Public RPC"), chainId(3))).status).toBe(404);
    } finally {
      await service.close();
    }
  });
});
