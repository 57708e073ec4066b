/**
 * The RPC URLs' native hop (lib/service/routes/rpc/native-hop.c and .ts) with real anvil chains, over raw kept-alive
 * TCP connections: the hop answers a connection's reads once a read passed through, hands the connection back at a
 * write (recorded as before) and at anything it does not read itself, lends the chain back for writes made on other
 * connections, keeps one rate window with the service, and forgets a deleted environment. The odd requests are sent
 * both to a connection the hop holds and to a service without the hop: the answers must be the same. Each test looks
 * at the hop's counts, so that none passes with the hop silently left out. Skipped where the addon is not built
 * (not Linux, no C compiler): the service then answers every call itself, which the other RPC tests cover.
 */
import { connect, type Socket } from "node:net";
import WebSocket from "ws";
import type { Environment } from "../lib/api";
import type { HopStats } from "../lib/service/routes/rpc/native-hop";
import { loadNativeHop } from "../lib/service/routes/rpc/native-hop";
import { clientFor, startTestService, type TestService } from "./helpers/service";

const ALICE = "0x00000000000000000000000000000000000a11ce";
const built = loadNativeHop() !== null;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const suite = built ? describe : describe.skip;

interface Answer {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly text: string;
}

/** One kept-alive TCP connection: writes raw requests, reads answers in order by their Content-Length. */
class Connection {
  private buffer = Buffer.alloc(0);
  private readonly waiting: { resolve: (answer: Answer) => void; reject: (error: Error) => void }[] = [];
  readonly closed: Promise<void>;

  private constructor(private readonly socket: Socket) {
    socket.on("data", (chunk: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      this.parse();
    });
    socket.on("error", () => undefined);
    this.closed = new Promise((resolve) => socket.once("close", () => resolve()));
    void this.closed.then(() => {
      for (const waiter of this.waiting.splice(0)) waiter.reject(new Error("the connection closed with no answer"));
    });
  }

  static open(baseUrl: string): Promise<Connection> {
    const url = new URL(baseUrl);
    return new Promise((resolve, reject) => {
      const socket = connect({ host: url.hostname, port: Number(url.port) }, () => resolve(new Connection(socket)));
      socket.once("error", reject);
    });
  }

  /** Sends raw bytes; resolves with the next answer. */
  send(raw: string | Buffer): Promise<Answer> {
    const answer = new Promise<Answer>((resolve, reject) => this.waiting.push({ resolve, reject }));
    this.socket.write(raw);
    return answer;
  }

  /** POSTs a JSON-RPC body to an RPC URL's path, with extra header lines. */
  post(path: string, body: unknown, headers = ""): Promise<Answer> {
    const text = typeof body === "string" ? body : JSON.stringify(body);
    return this.send(
      `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n${headers}Content-Length: ${Buffer.byteLength(text)}\r\n\r\n${text}`,
    );
  }

  close(): void {
    this.socket.destroy();
  }

  /** Writes bytes and waits until they are handed to the kernel. */
  write(raw: string): Promise<void> {
    return new Promise((resolve, reject) => this.socket.write(raw, (error) => (error ? reject(error) : resolve())));
  }

  /** Ends the connection with a reset (RST), as a killed process's kernel does. */
  reset(): void {
    this.socket.resetAndDestroy();
  }

  private parse(): void {
    for (;;) {
      const headEnd = this.buffer.indexOf("\r\n\r\n");
      if (headEnd < 0 || this.waiting.length === 0) return;
      const head = this.buffer.toString("latin1", 0, headEnd).split("\r\n");
      const headers: Record<string, string> = {};
      for (const line of head.slice(1)) {
        const colon = line.indexOf(":");
        headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
      }
      const end = headEnd + 4 + Number(headers["content-length"] ?? 0);
      if (this.buffer.length < end) return;
      const text = this.buffer.toString("utf8", headEnd + 4, end);
      this.buffer = this.buffer.subarray(end);
      this.waiting.shift()!.resolve({ status: Number(head[0].split(" ")[1]), headers, text });
    }
  }
}

/** Creates an environment of one network with chain id `chainId` through the project's client. */
async function createEnvironment(s: TestService, chainId: string): Promise<Environment> {
  const client = clientFor(s);
  try {
    return await client.createEnvironment({
      display_name: `native hop ${chainId}`,
      network_configs: [{ network_id: "1", chain_config_overrides: { chain_id: chainId }, accounts: [{ address: ALICE, balance: "0x1" }] }],
    });
  } finally {
    await client.close();
  }
}
/** The RPC methods of an environment's records of one kind (one page of 100). */
async function recordedMethods(s: TestService, e: Environment, kind: "cheatcode"): Promise<(string | undefined)[]> {
  const client = clientFor(s);
  try {
    const records = await client.listTransactions({ environmentId: e.id, instanceId: e.active_instance.id, kind, perPage: 100 });
    return records.map((record) => record.rpc_method);
  } finally {
    await client.close();
  }
}
/** The path of an environment's RPC URL. */
const pathOf = (e: Environment, name: "Admin RPC" | "Public RPC") =>
  new URL(e.active_instance.vnets[0].rpcs.find((r) => r.name === name)!.url).pathname;
const call = (method: string, params: unknown[] = [], id: number | string = 1) => ({ jsonrpc: "2.0", id, method, params });
const statsOf = (s: TestService): HopStats => s.app.nativeHop!.stats();

suite("the native hop", () => {
  let service: TestService;
  let environment: Environment;

  beforeAll(async () => {
    service = await startTestService();
    environment = await createEnvironment(service, "7101");
  });
  afterAll(() => service?.close());

  test("answers a kept-alive connection's reads; a write on it comes back to the service, is recorded, and the reads after it see it", async () => {
    const admin = pathOf(environment, "Admin RPC");
    const connection = await Connection.open(service.baseUrl);
    // The first call starts the chain (the service's general path); the second passes through and is handed over.
    await connection.post(admin, call("eth_chainId"));
    const before = statsOf(service);
    for (let i = 0; i < 5; i += 1) {
      const answer = await connection.post(admin, call("eth_chainId", [], i));
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.text)).toEqual({ jsonrpc: "2.0", id: i, result: "0x1bbd" });
      expect(answer.headers["x-svc-limit"]).toBe("1000000");
    }
    const reads = statsOf(service);
    expect(reads.adopted).toBe(before.adopted + 1);
    expect(reads.answered).toBe(before.answered + 4); // the first read was the service's, the rest the hop's
    const set = await connection.post(admin, call("anvil_setBalance", [ALICE, "0x2a"], "set"));
    expect(JSON.parse(set.text)).toEqual({ jsonrpc: "2.0", id: "set", result: null });
    expect(statsOf(service).handedBack).toBe(reads.handedBack + 1);
    const balance = await connection.post(admin, call("eth_getBalance", [ALICE, "latest"], 7));
    expect(JSON.parse(balance.text).result).toBe("0x2a");
    expect(await recordedMethods(service, environment, "cheatcode")).toContain("anvil_setBalance");
    // The read after the write passed through the service, which handed the connection over again.
    expect((await connection.post(admin, call("eth_blockNumber"))).status).toBe(200);
    expect(statsOf(service).adopted).toBeGreaterThan(reads.adopted);
    connection.close();
  });

  test("writes on other connections wait for the hop's reads, and each read after a write sees it", async () => {
    const admin = pathOf(environment, "Admin RPC");
    const reader = await Connection.open(service.baseUrl);
    const writer = await Connection.open(service.baseUrl);
    await reader.post(admin, call("eth_blockNumber"));
    const before = statsOf(service);
    for (let i = 1; i <= 20; i += 1) {
      // Reads in flight on the hop while the write asks for the chain alone.
      const reads = Array.from({ length: 3 }, () => reader.post(admin, call("eth_getBalance", [ALICE, "latest"])));
      const written = writer.post(admin, call("anvil_setBalance", [ALICE, `0x${(1000 + i).toString(16)}`]));
      await Promise.all(reads);
      expect((await written).status).toBe(200);
      const after = await reader.post(admin, call("eth_getBalance", [ALICE, "latest"]));
      expect(JSON.parse(after.text).result).toBe(`0x${(1000 + i).toString(16)}`);
    }
    expect(statsOf(service).answered).toBeGreaterThan(before.answered);
    reader.close();
    writer.close();
  });

  test("the Public RPC still refuses and answers itself what it did, on a connection the hop holds", async () => {
    const publicPath = pathOf(environment, "Public RPC");
    const connection = await Connection.open(service.baseUrl);
    await connection.post(publicPath, call("eth_blockNumber"));
    expect((await connection.post(publicPath, call("eth_chainId"))).status).toBe(200);
    const adopted = statsOf(service).adopted;
    const cheat = JSON.parse((await connection.post(publicPath, call("anvil_setBalance", [ALICE, "0x1"], 2))).text);
    expect(cheat.error.code).toBe(-32601);
    expect(JSON.parse((await connection.post(publicPath, call("eth_accounts", [], 3))).text)).toEqual({
      jsonrpc: "2.0",
      id: 3,
      result: [],
    });
    const unsigned = JSON.parse((await connection.post(publicPath, call("eth_sendTransaction", [{ from: ALICE, to: ALICE }], 4))).text);
    expect(unsigned.error).toMatchObject({ code: -32000 });
    expect(statsOf(service).adopted).toBeGreaterThanOrEqual(adopted);
    connection.close();
  });

  test("many connections writing and reading at once: every read sees its connection's last write, and every write is recorded", async () => {
    const admin = pathOf(environment, "Admin RPC");
    const count = () => recordedMethods(service, environment, "cheatcode");
    const recorded = (await count()).length;
    const before = statsOf(service);
    const ROUNDS = 12; // 72 writes: within one page of records
    const workers = Array.from({ length: 6 }, async (_, worker) => {
      const address = `0x${(0xb0b0 + worker).toString(16).padStart(40, "0")}`;
      const connection = await Connection.open(service.baseUrl);
      const seen: string[] = [];
      for (let round = 1; round <= ROUNDS; round += 1) {
        const value = `0x${(worker * 1000 + round).toString(16)}`;
        await connection.post(admin, call("anvil_setBalance", [address, value]));
        // Two reads after each write: the first passes through the service, the second is the hop's.
        for (let read = 0; read < 2; read += 1)
          seen.push(JSON.parse((await connection.post(admin, call("eth_getBalance", [address, "latest"]))).text).result);
        expect(seen.slice(-2)).toEqual([value, value]);
      }
      connection.close();
      return seen.length;
    });
    expect(await Promise.all(workers)).toEqual(Array(6).fill(ROUNDS * 2));
    expect((await count()).length).toBe(recorded + 6 * ROUNDS);
    const after = statsOf(service);
    expect(after.answered).toBeGreaterThan(before.answered);
    // Writes that found their connection with the hop came back (while another write holds the chain, a connection
    // is not handed over, so not every write does).
    expect(after.handedBack).toBeGreaterThan(before.handedBack);
  });

  test("callers that reset their connections with calls in flight do not disturb anyone else's answers", async () => {
    const admin = pathOf(environment, "Admin RPC");
    const body = (id: number) => JSON.stringify(call("eth_getBalance", [ALICE, "latest"], id));
    const request = (id: number) => `POST ${admin} HTTP/1.1\r\nHost: x\r\nContent-Length: ${body(id).length}\r\n\r\n${body(id)}`;
    const before = statsOf(service);
    for (let round = 0; round < 40; round += 1) {
      const quitter = await Connection.open(service.baseUrl);
      await quitter.post(admin, call("eth_blockNumber"));
      await quitter.post(admin, call("eth_blockNumber")); // the hop's now
      await quitter.write(Array.from({ length: 30 }, (_, i) => request(i)).join(""));
      quitter.reset();
    }
    expect(statsOf(service).adopted).toBeGreaterThanOrEqual(before.adopted + 40);
    // Everyone after them gets their own answers, with their own ids, in order.
    const connections = await Promise.all(Array.from({ length: 4 }, () => Connection.open(service.baseUrl)));
    const ids = await Promise.all(
      connections.map(async (connection, n) => {
        const seen: unknown[] = [];
        for (let i = 0; i < 50; i += 1) {
          const answer = JSON.parse((await connection.post(admin, call("eth_chainId", [], n * 100 + i))).text);
          expect(answer.result).toBe("0x1bbd");
          seen.push(answer.id);
        }
        connection.close();
        return seen;
      }),
    );
    expect(ids).toEqual(connections.map((_, n) => Array.from({ length: 50 }, (_, i) => n * 100 + i)));
  });

  test("a deleted environment's URL answers 404 on a connection the hop holds", async () => {
    const doomed = await createEnvironment(service, "7102");
    const admin = pathOf(doomed, "Admin RPC");
    const connection = await Connection.open(service.baseUrl);
    await connection.post(admin, call("eth_blockNumber")); // starts the chain
    await connection.post(admin, call("eth_blockNumber")); // passes through: handed over
    const answered = statsOf(service).answered;
    expect((await connection.post(admin, call("eth_blockNumber"))).status).toBe(200);
    expect(statsOf(service).answered).toBe(answered + 1);
    const client = clientFor(service);
    await client.deleteEnvironment({ environmentId: doomed.id }).finally(() => client.close());
    const gone = await connection.post(admin, call("eth_blockNumber"));
    expect(gone.status).toBe(404);
    expect(JSON.parse(gone.text).error.message).toContain("RPC URL");
    connection.close();
  });
});

suite("the native hop when the service closes", () => {
  test("calls under way are answered, the connections end, and close does not wait for callers", async () => {
    const service = await startTestService();
    const environment = await createEnvironment(service, "7105");
    const admin = pathOf(environment, "Admin RPC");
    const connections = await Promise.all(Array.from({ length: 4 }, () => Connection.open(service.baseUrl)));
    for (const connection of connections) {
      await connection.post(admin, call("eth_blockNumber"));
      await connection.post(admin, call("eth_blockNumber"));
    }
    expect(statsOf(service).adopted).toBeGreaterThanOrEqual(4);
    // Calls keep coming while the service closes: each is answered or its connection ends, none hangs.
    const callers = connections.map(async (connection) => {
      for (;;) {
        const answer = await connection.post(admin, call("eth_blockNumber")).catch(() => null);
        if (answer === null || answer.headers.connection === "close") return answer?.status ?? "ended";
        expect(answer.status).toBe(200);
      }
    });
    await service.close();
    await Promise.all(connections.map((connection) => connection.closed));
    expect(await Promise.all(callers)).toEqual(expect.arrayContaining([expect.anything()]));
  });
});

suite("the native hop and the rate limit", () => {
  let service: TestService;
  let environment: Environment;
  const LIMIT = 12;

  beforeAll(async () => {
    service = await startTestService({ rateLimits: { rpcLimit: LIMIT } });
    environment = await createEnvironment(service, "7103");
  });
  afterAll(() => service?.close());

  test("one window per URL whichever side answers: the hop's calls and the WebSocket's count together, and the call past the limit gets 429", async () => {
    const admin = pathOf(environment, "Admin RPC");
    const connection = await Connection.open(service.baseUrl);
    const socket = new WebSocket(`${service.baseUrl.replace("http", "ws")}${admin}`);
    await new Promise((resolve, reject) => socket.once("open", resolve).once("error", reject));
    const overWebSocket = () =>
      new Promise<void>((resolve) => {
        socket.once("message", () => resolve());
        socket.send(JSON.stringify(call("eth_blockNumber")));
      });
    const before = statsOf(service);
    const remaining: number[] = [];
    await overWebSocket(); // the upgrade and this message: 2 of 12
    for (let i = 0; i < 8; i += 1)
      remaining.push(Number((await connection.post(admin, call("eth_blockNumber"))).headers["x-svc-remaining"]));
    await overWebSocket(); // 11 of 12
    remaining.push(Number((await connection.post(admin, call("eth_blockNumber"))).headers["x-svc-remaining"]));
    expect(remaining).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 0]);
    expect(statsOf(service).answered - before.answered).toBeGreaterThanOrEqual(7);
    const refused = await connection.post(admin, call("eth_blockNumber"));
    expect(refused.status).toBe(429);
    expect(JSON.parse(refused.text).error.message).toContain("too many requests");
    expect(refused.headers["x-svc-remaining"]).toBe("0");
    socket.close();
    connection.close();
  });
});

suite("the native hop against the service without it: the same answers to odd requests", () => {
  let withHop: TestService;
  let without: TestService;
  let paths: { withHop: string; without: string };

  beforeAll(async () => {
    [withHop, without] = await Promise.all([startTestService(), startTestService({ nativeRpc: false })]);
    const [a, b] = await Promise.all([createEnvironment(withHop, "7104"), createEnvironment(without, "7104")]);
    paths = { withHop: pathOf(a, "Admin RPC"), without: pathOf(b, "Admin RPC") };
    expect(without.app.nativeHop).toBeNull();
  });
  afterAll(() => Promise.all([withHop?.close(), without?.close()]));

  const bodies: [string, string][] = [
    ["a read", JSON.stringify(call("eth_chainId", [], 5))],
    ["a string id", JSON.stringify(call("eth_chainId", [], "a b"))],
    ["whitespace around the members", ' { "jsonrpc" : "2.0" ,\n"id":6, "method":"eth_chainId","params":[ ] } '],
    ["no params", '{"jsonrpc":"2.0","id":7,"method":"eth_chainId"}'],
    ["not JSON", '{"jsonrpc":"2.0","id":1,"method":"eth_chainId"'],
    ["a batch", JSON.stringify([call("eth_chainId", [], 1), call("eth_chainId", [], 2)])],
    ["a notification", '{"jsonrpc":"2.0","method":"eth_chainId","params":[]}'],
    ["a null id", '{"jsonrpc":"2.0","id":null,"method":"eth_chainId","params":[]}'],
    ["an id written 1.0", '{"jsonrpc":"2.0","id":1.0,"method":"eth_chainId","params":[]}'],
    ["a negative id", '{"jsonrpc":"2.0","id":-3,"method":"eth_chainId","params":[]}'],
    ["a leading-zero id", '{"jsonrpc":"2.0","id":01,"method":"eth_chainId","params":[]}'],
    ["an id past 2^53", '{"jsonrpc":"2.0","id":9007199254740993,"method":"eth_chainId","params":[]}'],
    ["params as an object", '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":{}}'],
    ["a member of its own", '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[],"x":1}'],
    ["the method twice", '{"jsonrpc":"2.0","id":1,"method":"anvil_setBalance","method":"eth_chainId","params":[]}'],
    ["an escaped method", '{"jsonrpc":"2.0","id":1,"method":"eth_chain\\u0049d","params":[]}'],
    ["jsonrpc 1.0", '{"jsonrpc":"1.0","id":1,"method":"eth_chainId","params":[]}'],
    ["a non-ASCII param", JSON.stringify(call("eth_getBalance", [ALICE, "lätest"]))],
    ["an unknown method", JSON.stringify(call("eth_noSuchMethod"))],
    ["bad params", JSON.stringify(call("eth_getBalance", ["0x12"]))],
    ["a trailing comma", '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[1,]}'],
    ["a deep params array", `{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":${"[".repeat(100)}${"]".repeat(100)}}`],
  ];
  const heads: [string, (path: string, body: string) => string][] = [
    ["a query string", (path, body) => `POST ${path}?x=1 HTTP/1.1\r\nHost: x\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`],
    [
      "an Origin",
      (path, body) =>
        `POST ${path} HTTP/1.1\r\nHost: x\r\nOrigin: https://app.example\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    ],
    [
      "chunked",
      (path, body) =>
        `POST ${path} HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n${Buffer.byteLength(body).toString(16)}\r\n${body}\r\n0\r\n\r\n`,
    ],
    ["no Host", (path, body) => `POST ${path} HTTP/1.1\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`],
    [
      "another URL",
      (_path, body) => `POST /rpc/admin/nosuchkey HTTP/1.1\r\nHost: x\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    ],
    [
      "lower-case names, tabs",
      (path, body) => `POST ${path} HTTP/1.1\r\nhost:\tx\r\ncontent-length:\t${Buffer.byteLength(body)} \r\n\r\n${body}`,
    ],
  ];

  /** What must match: the status, the JSON answer (error ids aside) and the headers a caller reads. */
  async function answersOf(service: TestService, path: string, raw: string): Promise<unknown> {
    const connection = await Connection.open(service.baseUrl);
    // A read first, so that on the service with the hop the odd request reaches a connection the hop holds.
    await connection.post(path, call("eth_chainId"));
    await connection.post(path, call("eth_chainId"));
    const answer = await connection.send(raw.replaceAll("{PATH}", path));
    connection.close();
    let json: unknown;
    try {
      json = JSON.parse(answer.text, (key, value) =>
        key === "id" && typeof value === "string" && UUID.test(value) ? "an error id" : value,
      );
    } catch {
      json = answer.text;
    }
    const { "content-type": type, "access-control-allow-origin": origin, connection: keep } = answer.headers;
    return { status: answer.status, json, type, origin, keep };
  }

  test.each(bodies)("%s", async (_name, body) => {
    const raw = `POST {PATH} HTTP/1.1\r\nHost: x\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
    const before = statsOf(withHop);
    const [a, b] = await Promise.all([answersOf(withHop, paths.withHop, raw), answersOf(without, paths.without, raw)]);
    expect(a).toEqual(b);
    expect(statsOf(withHop).answered).toBeGreaterThan(before.answered); // the hop held the connection
  });

  test.each(heads)("%s", async (_name, make) => {
    const raw = make("{PATH}", JSON.stringify(call("eth_chainId", [], 9)));
    const [a, b] = await Promise.all([answersOf(withHop, paths.withHop, raw), answersOf(without, paths.without, raw)]);
    expect(a).toEqual(b);
  });

  test("Connection: close is answered and the connection ends", async () => {
    const connection = await Connection.open(withHop.baseUrl);
    await connection.post(paths.withHop, call("eth_chainId"));
    await connection.post(paths.withHop, call("eth_chainId"));
    const last = await connection.post(paths.withHop, call("eth_chainId", [], 3), "Connection: close\r\n");
    expect(JSON.parse(last.text)).toEqual({ jsonrpc: "2.0", id: 3, result: "0x1bc0" });
    expect(last.headers.connection).toBe("close");
    await connection.closed;
  });

  test("pipelined calls sent in one write are answered in order", async () => {
    const connection = await Connection.open(withHop.baseUrl);
    await connection.post(paths.withHop, call("eth_chainId"));
    const body = (id: number) => JSON.stringify(call("eth_chainId", [], id));
    const request = (id: number) => `POST ${paths.withHop} HTTP/1.1\r\nHost: x\r\nContent-Length: ${body(id).length}\r\n\r\n${body(id)}`;
    const answers = [connection.send(Array.from({ length: 10 }, (_, i) => request(i)).join(""))];
    for (let i = 1; i < 10; i += 1) answers.push(connection.send(""));
    const ids = (await Promise.all(answers)).map((answer) => JSON.parse(answer.text).id);
    expect(ids).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    connection.close();
  });
});
