/**
 * Hostile use, round 5 (the RPC URLs' part), against the real service and real anvil chains: each reproduction that
 * once stopped or swelled the service, then a follow-up call that must get its right answer.
 * - a body nested 5,000 deep, over HTTP (Public and Admin) and as one WebSocket message: anvil's -32600;
 * - `eth_subscribe` with an object where the kind goes: -32602, the connection goes on;
 * - a WebSocket client that never reads: closed with 1013, the service's memory stays bounded;
 * - subscriptions and live filters capped per connection and per URL, with a clear error, uninstall freeing room;
 * - subscribers cannot pin chains under `--max-chains`;
 * - `/rpc/./admin/SECRET` and its kin never put the secret in the log; no 404 quotes a path segment.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import WebSocket from "ws";
import { startTestService, type TestService } from "./helpers/service";
import { call } from "./helpers/http";
import { CollectingSocket, createEnvironment, post, rpcText, urlOf } from "./helpers/rpc-callers";
import type { Environment } from "../lib/api";

const nested = (depth: number) => `{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[${"[".repeat(depth)}${"]".repeat(depth)}]}`;
/**
 * What anvil's HTTP port answers a body nested 128 deep or more (checked against anvil by hand); the service answers
 * so from 127 on (lib/service/rpc/body.ts `MAX_NESTING`).
 */
const TOO_DEEP = { jsonrpc: "2.0", id: null, error: { code: -32600, message: "Invalid request" } };

describe("one service, one environment", () => {
  let service: TestService;
  let environment: Environment;
  beforeAll(async () => {
    service = await startTestService({ rpcLimits: { subscriptionsPerConnection: 3, subscriptionsPerUrl: 5, filtersPerUrl: 20 } });
    environment = await createEnvironment(service, "round 5", "7501");
  });
  afterAll(() => service.close());

  const followUp = async () =>
    expect((await post(urlOf(environment, "Public RPC"), rpcText(99, "eth_chainId"))).json.result).toBe("0x1d4d");

  test("a body nested 5,000 deep gets anvil's -32600 on every RPC URL, HTTP and WebSocket; 126 levels still reach the chain", async () => {
    for (const name of ["Public RPC", "Admin RPC"]) {
      expect((await post(urlOf(environment, name), nested(5_000))).json).toEqual(TOO_DEEP);
      expect((await post(urlOf(environment, name), `[${nested(5_000)}]`)).json).toEqual(TOO_DEEP);
      expect((await post(urlOf(environment, name), "{".repeat(5_000))).json).toEqual(TOO_DEEP);
      // 124 inside params, 126 in all: anvil's own answer about the params
      expect((await post(urlOf(environment, name), nested(124))).json).toMatchObject({ id: 1, error: { code: -32602 } });
      expect((await post(urlOf(environment, name), nested(125))).json).toEqual(TOO_DEEP);
    }
    for (const name of ["Public websocket RPC", "Admin websocket RPC"]) {
      const socket = await CollectingSocket.open(urlOf(environment, name));
      expect(await socket.request(nested(5_000))).toEqual(TOO_DEEP);
      expect(await socket.request(rpcText(2, "eth_chainId"), 2)).toEqual({ jsonrpc: "2.0", id: 2, result: "0x1d4d" });
      socket.close();
    }
    await followUp();
  });

  test("eth_subscribe with an object for its kind is -32602, and the connection answers after it", async () => {
    const socket = await CollectingSocket.open(urlOf(environment, "Public websocket RPC"));
    for (const kind of [{ toString: 1 }, { toString: { valueOf: 1 } }, ["newHeads"], null, 5, "x".repeat(10_000)]) {
      const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_subscribe", params: [kind] });
      const answer = await socket.request(body, 1);
      expect(answer).toMatchObject({
        jsonrpc: "2.0",
        id: 1,
        error: { code: -32602, message: expect.stringMatching(/^unsupported subscription/) },
      });
      expect(answer.error.message.length).toBeLessThan(200);
    }
    const weird = await socket.request(JSON.stringify({ jsonrpc: "2.0", id: 2, method: "eth_unsubscribe", params: [{ toString: 1 }] }), 2);
    expect(weird).toMatchObject({ id: 2 });
    expect(await socket.request(rpcText(3, "eth_chainId"), 3)).toEqual({ jsonrpc: "2.0", id: 3, result: "0x1d4d" });
    socket.close();
    await followUp();
  });

  test("subscriptions are capped per connection and per URL with -32005; eth_unsubscribe frees room", async () => {
    const url = urlOf(environment, "Public websocket RPC");
    const first = await CollectingSocket.open(url);
    const ids: string[] = [];
    for (let i = 1; i <= 3; i += 1) ids.push((await first.request(rpcText(i, "eth_subscribe", ["newHeads"]), i)).result);
    expect(ids.every((id) => /^0x[0-9a-f]+$/.test(id))).toBe(true);
    const refused = await first.request(rpcText(4, "eth_subscribe", ["newHeads"]), 4);
    expect(refused.error).toEqual({
      code: -32005,
      message: expect.stringMatching(/too many subscriptions on this connection \(at most 3\)/),
    });
    expect(await first.request(rpcText(5, "eth_unsubscribe", [ids[0]]), 5)).toEqual({ jsonrpc: "2.0", id: 5, result: true });
    expect((await first.request(rpcText(6, "eth_subscribe", ["newHeads"]), 6)).result).toMatch(/^0x/);
    // a second connection: 2 more on the URL, then its cap of 5
    const second = await CollectingSocket.open(url);
    for (let i = 1; i <= 2; i += 1) expect((await second.request(rpcText(i, "eth_subscribe", ["logs", {}]), i)).result).toMatch(/^0x/);
    const full = await second.request(rpcText(3, "eth_subscribe", ["newHeads"]), 3);
    expect(full.error.message).toMatch(/too many subscriptions on this RPC URL \(at most 5\)/);
    // a closed connection gives its share back
    first.close();
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await second.request(rpcText(4, "eth_subscribe", ["newHeads"]), 4)).result).toMatch(/^0x/);
    // notifications still come, under the chain's subscription ids
    await post(urlOf(environment, "Admin RPC"), rpcText(1, "evm_mine"));
    const note = await second.until((messages) => messages.find((m) => m.method === "eth_subscription"));
    expect(note.params.subscription).toMatch(/^0x/);
    second.close();
    await followUp();
  });

  test("live filters are capped per URL (-32005 past it, in a batch where it stands); eth_uninstallFilter frees room", async () => {
    const url = urlOf(environment, "Public RPC");
    const batch = (from: number, count: number, method = "eth_newPendingTransactionFilter") =>
      `[${Array.from({ length: count }, (_, i) => rpcText(from + i, method)).join(",")}]`;
    const made = (await post(url, batch(1, 25))).json as any[];
    expect(made.map((a) => a.id)).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
    const ids = made.filter((a) => typeof a.result === "string").map((a) => a.result);
    expect(ids).toHaveLength(20);
    for (const refused of made.slice(20)) {
      expect(refused.error).toEqual({
        code: -32005,
        message: "too many live filters on this RPC URL (at most 20): eth_uninstallFilter one first",
      });
    }
    expect((await post(url, rpcText(30, "eth_newBlockFilter"))).json.error.code).toBe(-32005);
    expect((await post(url, rpcText(31, "eth_uninstallFilter", [ids[0]]))).json.result).toBe(true);
    expect((await post(url, rpcText(32, "eth_newBlockFilter"))).json.result).toMatch(/^0x/);
    expect((await post(url, rpcText(33, "eth_getFilterChanges", [ids[1]]))).json.result).toEqual([]);
    // the Admin URL counts its own
    expect((await post(urlOf(environment, "Admin RPC"), rpcText(34, "eth_newBlockFilter"))).json.result).toMatch(/^0x/);
    await followUp();
  });

  test("no 404 quotes a path segment, nor a route an id it was given: access keys and Admin secrets are never echoed", async () => {
    const secret = new URL(urlOf(environment, "Admin RPC")).pathname.split("/").pop()!;
    const key = service.keys.alice;
    const environments = "/public/v1/account/acme/project/demo/environments";
    const paths = [
      `${environments}/${key}`,
      `${environments}/${secret}`,
      `${environments}/${secret}/fork`,
      `/${key}`,
      `/v1/${key}/projects`,
      `/rpc/./admin/${secret}`,
      `/x/${secret}?token=${secret}`,
      `/%ff/${key}`,
      `/public/v1/${key}%`,
    ];
    for (const path of paths) {
      for (const method of ["GET", "POST", "DELETE"]) {
        const answer = await call(service, method, path, { as: "alice" });
        // fetch resolves `/rpc/./admin/…` to the Admin RPC URL itself (200); the rest are 404 or 400
        expect([200, 400, 404, 405]).toContain(answer.status);
        expect(answer.text).not.toContain(key);
        expect(answer.text).not.toContain(secret);
        expect(answer.text).not.toMatch(/cf_/);
      }
    }
    expect((await call(service, "POST", `/${key}`)).body.error.message).toBe("no route POST /{…}");
    expect((await call(service, "GET", `/v1/${key}/projects`, { as: "alice" })).body.error.message).toBe("no route GET /v1/{…}/projects");
  });
});

describe("a WebSocket client that never reads", () => {
  test("is closed with 1013 once a few MB wait for it; the service's memory stays within 300 MB of its start", async () => {
    const service = await startTestService();
    try {
      const environment = await createEnvironment(service, "unread", "7502");
      const contract = "0x00000000000000000000000000000000000c0de5";
      // 24 KB of code: each eth_getCode answers about 48 KB
      await post(urlOf(environment, "Admin RPC"), rpcText(1, "anvil_setCode", [contract, `0x${"60".repeat(24_576)}`]));
      const before = process.memoryUsage().rss;
      let peak = before;
      const socket = await CollectingSocket.open(urlOf(environment, "Public websocket RPC"));
      const raw = (socket.socket as unknown as { _socket: { pause(): void; resume(): void } })._socket;
      raw.pause(); // reads nothing from here on
      const batch = `[${Array.from({ length: 100 }, (_, i) => rpcText(i, "eth_getCode", [contract, "latest"])).join(",")}]`;
      // 300 messages would queue about 1.4 GB of answers for it without a bound
      for (let i = 0; i < 300 && socket.socket.readyState === WebSocket.OPEN; i += 1) {
        socket.socket.send(batch);
        if (i % 10 === 0) await new Promise((resolve) => setTimeout(resolve, 50));
        peak = Math.max(peak, process.memoryUsage().rss);
      }
      const watch = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 100);
      raw.resume(); // to read the close frame behind what was queued
      const { code, reason } = await socket.closed(60_000);
      clearInterval(watch);
      expect(code).toBe(1013);
      expect(reason).toMatch(/unread/);
      if (process.env.SHOW_FIGURES) console.log(`RSS before ${before >> 20} MB, peak ${peak >> 20} MB`);
      expect(peak - before).toBeLessThan(300 * 1024 * 1024);
      expect((await post(urlOf(environment, "Public RPC"), rpcText(2, "eth_chainId"))).json.result).toBe("0x1d4e");
    } finally {
      await service.close();
    }
  });
});

describe("subscribers and --max-chains 2", () => {
  test("two anonymous subscribers do not keep a third chain from starting; the evicted one is closed with a reason", async () => {
    const service = await startTestService({ maxChains: 2 });
    try {
      const environments = [];
      const sockets: CollectingSocket[] = [];
      for (const chain of ["7511", "7512"]) {
        const environment = await createEnvironment(service, `pinned ${chain}`, chain);
        environments.push(environment);
        const socket = await CollectingSocket.open(urlOf(environment, "Public websocket RPC"));
        expect((await socket.request(rpcText(1, "eth_subscribe", ["newHeads"]), 1)).result).toMatch(/^0x/);
        sockets.push(socket);
      }
      const third = await createEnvironment(service, "third", "7513");
      expect((await post(urlOf(third, "Public RPC"), rpcText(1, "eth_chainId"))).json).toEqual({ jsonrpc: "2.0", id: 1, result: "0x1d59" });
      const closed = await Promise.race(sockets.map((socket) => socket.closed(60_000)));
      expect(closed).toEqual({ code: 1011, reason: expect.stringMatching(/the chain stopped .*subscribe again/) });
      // the evicted environment answers again (its chain starts anew)
      for (const environment of environments) {
        expect((await post(urlOf(environment, "Public RPC"), rpcText(2, "eth_chainId"))).json.result).toMatch(/^0x1d5[78]$/);
      }
      sockets.forEach((socket) => socket.close());
    } finally {
      await service.close();
    }
  });
});

describe("secrets in the log, dot segments", () => {
  test("/rpc/./admin/SECRET and its kin are redacted at info and debug, GET, POST and WebSocket upgrade", async () => {
    const dir = mkdtempSync(join(tmpdir(), "rpc-dots-"));
    try {
      for (const level of ["debug", "info"]) {
        const file = join(dir, `${level}.log`);
        const service = await startTestService({ logger: { level, file } });
        let secret = "";
        try {
          const environment = await createEnvironment(service, `dots ${level}`, "7521");
          secret = new URL(urlOf(environment, "Admin RPC")).pathname.split("/").pop()!;
          const spellings = [
            `/rpc/./admin/${secret}`,
            `/rpc/%2e/admin/${secret}`,
            `/rpc/%2E%2e/rpc/admin/${secret}`,
            `/rpc/x/../admin/${secret}`,
            `/./rpc/admin/${secret}`,
            `/rpc/admin/./${secret}`,
            `/rpc/admin/${secret}/..`,
            `/rpc/%252e/admin/${secret}`,
          ];
          for (const path of spellings) {
            await fetch(`${service.baseUrl}${path}`);
            await post(`${service.baseUrl}${path}`, rpcText(1, "eth_chainId"));
            const socket = new WebSocket(`${service.baseUrl.replace(/^http/, "ws")}${path}`);
            await new Promise((resolve) => socket.once("error", resolve).once("open", resolve));
            socket.terminate();
          }
        } finally {
          await service.close();
        }
        const log = readFileSync(file, "utf8");
        expect(log).toContain("[redacted]");
        expect(log).not.toContain(secret);
        expect(log).not.toContain(secret.slice(0, 20));
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
