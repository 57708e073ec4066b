/**
 * The connections under the API and the RPC URLs against callers who hold them (lib/service/caller-limits.ts):
 * - every body over the limit gets the spec's 400, every time: 50 of 2 MB in a row and 50 at once, to the API and to
 *   an RPC URL, over kept-alive connections;
 * - a body dripped a byte every 10 s is cut by the request timeout (30 s) and answered;
 * - a WebSocket that answers no ping is dropped, one that does stays;
 * - thousands of idle WebSockets (from several loopback addresses) leave the API answering, and one address past its
 *   cap of connections is refused with a 429.
 */
import { connect, type Socket } from "node:net";
import { startTestService, type TestService, environmentsPath } from "./helpers/service";
import { CollectingSocket, createEnvironment, post, rpcText, urlOf } from "./helpers/rpc-callers";
import type { Environment } from "../lib/api";

const TWO_MB = Buffer.alloc(2 * 1024 * 1024, 0x20);
const LIMIT_MESSAGE = "request body larger than 1048576 bytes";

/** A raw TCP connection to the service, from `localAddress` when given. */
function rawConnection(service: TestService, localAddress?: string): Promise<Socket> {
  const { hostname, port } = new URL(service.baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port), ...(localAddress && { localAddress }) }, () => resolve(socket));
    socket.once("error", reject);
  });
}

/** Everything a socket receives until it closes. */
function readToClose(socket: Socket): Promise<string> {
  return new Promise((resolve) => {
    let text = "";
    socket.on("data", (chunk) => (text += chunk.toString()));
    socket.on("error", () => undefined);
    socket.on("close", () => resolve(text));
  });
}

describe("oversized bodies", () => {
  let service: TestService;
  let environment: Environment;
  beforeAll(async () => {
    service = await startTestService();
    environment = await createEnvironment(service, "big bodies", "7601");
  });
  afterAll(() => service.close());

  const api = () =>
    fetch(`${service.baseUrl}${environmentsPath(service)}`, {
      method: "POST",
      body: TWO_MB,
      headers: { ...service.headersOf("alice"), "content-type": "application/json" },
    }).then(async (response) => ({ status: response.status, json: (await response.json()) as any }));
  const rpc = () => post(urlOf(environment, "Public RPC"), TWO_MB);

  test.each([
    ["the API", api],
    ["an RPC URL", rpc],
  ])("50 bodies of 2 MB in a row, then 50 at once, to %s: 100 answers, each the spec's 400 naming the limit", async (_, send) => {
    const answers = [];
    for (let i = 0; i < 50; i += 1) answers.push(await send());
    answers.push(...(await Promise.all(Array.from({ length: 50 }, () => send()))));
    expect(answers).toHaveLength(100);
    for (const answer of answers) {
      expect(answer.status).toBe(400);
      expect(answer.json.error).toMatchObject({ slug: "bad_request", message: LIMIT_MESSAGE });
    }
    expect((await post(urlOf(environment, "Public RPC"), rpcText(1, "eth_chainId"))).json.result).toBe("0x1db1");
  });

  test("three oversized bodies pipelined on one kept-alive connection get three answers, the API's and an RPC URL's", async () => {
    for (const path of [environmentsPath(service), new URL(urlOf(environment, "Public RPC")).pathname]) {
      const socket = await rawConnection(service);
      const received = readToClose(socket);
      const head = `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nX-Access-Key: ${service.keys.alice}\r\nContent-Length: ${TWO_MB.length}\r\n\r\n`;
      for (let i = 0; i < 3; i += 1) socket.write(Buffer.concat([Buffer.from(head), TWO_MB]));
      socket.end(`GET /v1/supported-networks HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
      const text = await received;
      expect(text.match(/HTTP\/1\.1 400 /g)).toHaveLength(3);
      expect(text.match(new RegExp(LIMIT_MESSAGE, "g"))).toHaveLength(3);
      expect(text).toMatch(/HTTP\/1\.1 200 /);
    }
  });
});

describe("slow and idle connections", () => {
  test("a body dripped a byte every 10 s is cut by the 30 s request timeout and answered; the service goes on", async () => {
    const service = await startTestService();
    try {
      const socket = await rawConnection(service);
      const received = readToClose(socket);
      const started = Date.now();
      socket.write(`POST /rpc/public/whatever HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{`);
      const drip = setInterval(() => socket.writable && socket.write(" "), 10_000);
      const text = await received;
      clearInterval(drip);
      const seconds = (Date.now() - started) / 1000;
      expect(seconds).toBeGreaterThan(25);
      expect(seconds).toBeLessThan(60);
      expect(text).toMatch(/^HTTP\/1\.1 400 /);
      expect(text).toContain("the request was not received in time");
      expect((await fetch(`${service.baseUrl}/v1/supported-networks`)).status).toBe(200);
    } finally {
      await service.close();
    }
  }, 120_000);

  test("a WebSocket that answers no ping is dropped; one that answers stays", async () => {
    const service = await startTestService({ rpcLimits: { heartbeatMs: 1_000 } });
    try {
      const environment = await createEnvironment(service, "heartbeat", "7602");
      const url = new URL(urlOf(environment, "Public websocket RPC"));
      const live = await CollectingSocket.open(url.href);
      // a hand-made client: upgrades, then reads nothing and answers nothing
      const dead = await rawConnection(service);
      const deadClosed = readToClose(dead);
      dead.write(
        `GET ${url.pathname} HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
          `Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n`,
      );
      const text = await deadClosed;
      expect(text).toMatch(/^HTTP\/1\.1 101 /);
      expect(live.closedWith).toBeNull();
      expect(await live.request(rpcText(1, "eth_chainId"), 1)).toEqual({ jsonrpc: "2.0", id: 1, result: "0x1db2" });
      live.close();
    } finally {
      await service.close();
    }
  });

  test("4,000 idle WebSockets from four addresses leave the API answering; an address past 1,024 connections gets a 429", async () => {
    const service = await startTestService();
    const sockets: CollectingSocket[] = [];
    try {
      const environment = await createEnvironment(service, "idle crowd", "7603");
      const url = urlOf(environment, "Public websocket RPC");
      for (const address of ["127.0.0.2", "127.0.0.3", "127.0.0.4", "127.0.0.5"]) {
        for (let i = 0; i < 1_000; i += 100) {
          sockets.push(...(await Promise.all(Array.from({ length: 100 }, () => CollectingSocket.open(url, address)))));
        }
      }
      expect(sockets).toHaveLength(4_000);
      const started = Date.now();
      expect((await fetch(`${service.baseUrl}/v1/supported-networks`)).status).toBe(200);
      expect((await post(urlOf(environment, "Public RPC"), rpcText(1, "eth_chainId"))).json.result).toBe("0x1db3");
      expect(Date.now() - started).toBeLessThan(10_000);
      // 24 more from one address fill its 1,024; the next is refused with the spec's body
      sockets.push(...(await Promise.all(Array.from({ length: 24 }, () => CollectingSocket.open(url, "127.0.0.2")))));
      const refused = await rawConnection(service, "127.0.0.2");
      const answer = await readToClose(refused);
      expect(answer).toMatch(/^HTTP\/1\.1 429 /);
      expect(answer).toContain("too many connections from this address (at most 1024)");
      // another address is not refused
      expect((await fetch(`${service.baseUrl}/v1/supported-networks`)).status).toBe(200);
    } finally {
      sockets.forEach((socket) => socket.close());
      await service.close();
    }
  }, 300_000);
});
