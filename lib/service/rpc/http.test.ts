/**
 * The RPC URLs' HTTP transport (./http.ts) on Node's HTTP server, over real TCP sockets that write raw HTTP bytes:
 * kept-alive and pipelined calls, calls arriving byte by byte, a connection that goes from RPC calls to the API and
 * back, chunked bodies, `Expect`, oversized bodies, upgrades to WebSocket, malformed heads (Node's parser answers
 * them), the rate limit, and closing the service with callers still connected. Every wait is on an event (an answer,
 * an end, a close), never on a timer.
 */
import { connect, type Socket } from "node:net";
import { connect as connectTls } from "node:tls";
import WebSocket from "ws";
import { startTestService, type TestService, type TestServiceOptions } from "../../../test/helpers/service";
import { call, expectErrorBody } from "../../../test/helpers/http";
import { NoChainEngine } from "../no-chain-engine";
import type { ChainEngine, JsonRpcRequest, JsonRpcResponse } from "../chains";

/** An HTTP answer read off a raw socket. */
interface RawResponse {
  readonly status: number;
  /** The status line and header lines exactly as sent. */
  readonly head: string;
  /** Header values by lower-case name (repeated headers joined with ", "). */
  readonly headers: Record<string, string>;
  readonly body: Buffer;
  readonly json: any;
}

/** A TCP connection to the service that writes raw bytes and reads the answers one by one, in order. */
class RawConnection {
  private buffer = Buffer.alloc(0);
  private readonly answers: RawResponse[] = [];
  private readonly waiting: { resolve: (response: RawResponse) => void; reject: (error: Error) => void }[] = [];
  /** Interim answers (100 Continue) seen. */
  readonly interim: string[] = [];
  /** Resolves when the service ends its side. */
  readonly ended: Promise<void>;
  /** Resolves when the socket is closed. */
  readonly closed: Promise<void>;
  private finished = false;

  private constructor(readonly socket: Socket) {
    socket.on("data", (chunk: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      this.parse();
    });
    socket.on("error", () => undefined); // a reset shows as 'close' and as answers that never came
    this.ended = new Promise((resolve) => socket.once("end", resolve));
    this.closed = new Promise((resolve) => socket.once("close", () => resolve()));
    void this.closed.then(() => {
      this.finished = true;
      for (const waiter of this.waiting.splice(0))
        waiter.reject(new Error(`connection closed with no answer; unread: ${JSON.stringify(this.buffer.toString("latin1"))}`));
    });
  }

  /** Connects to the service's base URL (over TLS, trusting its self-signed certificate, for an https URL). */
  static open(service: Pick<TestService, "baseUrl">, options: { allowHalfOpen?: boolean } = {}): Promise<RawConnection> {
    const url = new URL(service.baseUrl);
    return new Promise((resolve, reject) => {
      const target = { host: url.hostname, port: Number(url.port), allowHalfOpen: options.allowHalfOpen ?? false };
      const connected = () => resolve(new RawConnection(socket));
      const socket: Socket =
        url.protocol === "https:" ? connectTls({ ...target, rejectUnauthorized: false }, connected) : connect(target, connected);
      socket.once("error", reject);
    });
  }

  /** Writes bytes and waits until they are handed to the kernel. */
  write(data: string | Buffer): Promise<void> {
    return new Promise((resolve, reject) => this.socket.write(data, (error) => (error ? reject(error) : resolve())));
  }

  /** Writes `data` one byte per write. */
  async trickle(data: string | Buffer): Promise<void> {
    const bytes = typeof data === "string" ? Buffer.from(data, "latin1") : data;
    for (let i = 0; i < bytes.length; i += 1) await this.write(bytes.subarray(i, i + 1));
  }

  /** The next answer; rejects if the connection closes first. */
  next(): Promise<RawResponse> {
    const answer = this.answers.shift();
    if (answer) return Promise.resolve(answer);
    if (this.finished) return Promise.reject(new Error("connection closed with no answer"));
    return new Promise((resolve, reject) => this.waiting.push({ resolve, reject }));
  }

  /** Writes a request and reads its answer. */
  async send(data: string | Buffer): Promise<RawResponse> {
    await this.write(data);
    return this.next();
  }

  destroy(): void {
    this.socket.destroy();
  }

  private parse(): void {
    for (;;) {
      const headEnd = this.buffer.indexOf("\r\n\r\n");
      if (headEnd < 0) return;
      const head = this.buffer.toString("latin1", 0, headEnd);
      const [statusLine, ...lines] = head.split("\r\n");
      const status = Number(statusLine.split(" ")[1]);
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(":");
        const name = line.slice(0, colon).toLowerCase();
        const value = line.slice(colon + 1).trim();
        headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
      }
      let rest = this.buffer.subarray(headEnd + 4);
      if (status >= 100 && status < 200 && status !== 101) {
        this.interim.push(statusLine);
        this.buffer = rest;
        continue;
      }
      let body: Buffer;
      if (status === 101) body = Buffer.alloc(0);
      else if (headers["transfer-encoding"] === "chunked") {
        const chunks: Buffer[] = [];
        let at = 0;
        for (;;) {
          const lineEnd = rest.indexOf("\r\n", at);
          if (lineEnd < 0) return;
          const size = parseInt(rest.toString("latin1", at, lineEnd), 16);
          if (rest.length < lineEnd + 2 + size + 2) return;
          if (size === 0) {
            at = lineEnd + 4;
            break;
          }
          chunks.push(rest.subarray(lineEnd + 2, lineEnd + 2 + size));
          at = lineEnd + 2 + size + 2;
        }
        body = Buffer.concat(chunks);
        rest = rest.subarray(at);
      } else {
        const length = Number(headers["content-length"] ?? 0);
        if (rest.length < length) return;
        body = rest.subarray(0, length);
        rest = rest.subarray(length);
      }
      this.buffer = rest;
      const text = body.toString();
      let json: unknown;
      try {
        json = text === "" ? undefined : JSON.parse(text);
      } catch {
        json = undefined;
      }
      const response: RawResponse = { status, head, headers, body, json };
      const waiter = this.waiting.shift();
      if (waiter) waiter.resolve(response);
      else this.answers.push(response);
      if (status === 101) return;
    }
  }
}

const HOST = "127.0.0.1";

/** A whole POST as bytes: Host, Content-Length, and `headers` (each "Name: value"). */
function post(path: string, body: string | object, headers: readonly string[] = []): string {
  const text = typeof body === "string" ? body : JSON.stringify(body);
  return `POST ${path} HTTP/1.1\r\nHost: ${HOST}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(text)}\r\n${headers.map((h) => `${h}\r\n`).join("")}\r\n${text}`;
}

/** A whole GET as bytes. */
function get(path: string, headers: readonly string[] = []): string {
  return `GET ${path} HTTP/1.1\r\nHost: ${HOST}\r\n${headers.map((h) => `${h}\r\n`).join("")}\r\n`;
}

/** A whole POST with a chunked body: a call Node's server reads (the connection is handed over). */
function chunkedPost(path: string, body: object, headers: readonly string[] = []): string {
  const text = JSON.stringify(body);
  return `POST ${path} HTTP/1.1\r\nHost: ${HOST}\r\nTransfer-Encoding: chunked\r\n${headers.map((h) => `${h}\r\n`).join("")}\r\n${text.length.toString(16)}\r\n${text}\r\n0\r\n\r\n`;
}

const request = (id: number | string, method = "eth_chainId"): JsonRpcRequest => ({ jsonrpc: "2.0", id, method, params: [] });

/**
 * NoChainEngine, plus a method `test_wait` whose answer waits until the test releases it: a call held in flight, for
 * pipelining and closing while a call is under way. `entered` resolves when such a call reaches the engine.
 */
class GateEngine implements ChainEngine {
  private readonly none = new NoChainEngine();
  private gates: (() => void)[] = [];
  private entries: (() => void)[] = [];
  private entered = 0;
  readonly sendTransaction = this.none.sendTransaction.bind(this.none);
  readonly simulateOnVnet = this.none.simulateOnVnet.bind(this.none);
  readonly simulateOnInstanceVnet = this.none.simulateOnInstanceVnet.bind(this.none);
  readonly simulateOnNetwork = this.none.simulateOnNetwork.bind(this.none);
  readonly destroyVnets = this.none.destroyVnets.bind(this.none);
  readonly close = this.none.close.bind(this.none);

  async rpc(_vnetId: string, body: JsonRpcRequest | JsonRpcRequest[]): Promise<JsonRpcResponse> {
    const single = Array.isArray(body) ? undefined : body;
    if (single?.method !== "test_wait") return this.none.rpc();
    this.entered += 1;
    this.entries.splice(0).forEach((resolve) => resolve());
    await new Promise<void>((resolve) => this.gates.push(resolve));
    return { jsonrpc: "2.0", id: single.id ?? null, result: "released" } satisfies JsonRpcResponse;
  }

  /** Resolves once a `test_wait` call is in the engine (at once if one came since the last release). */
  inFlight(): Promise<void> {
    if (this.entered > 0) return Promise.resolve();
    return new Promise((resolve) => this.entries.push(resolve));
  }

  /** Answers every `test_wait` call in flight. */
  release(): void {
    this.entered = 0;
    this.gates.splice(0).forEach((resolve) => resolve());
  }
}

/** A service on a GateEngine, with one environment: its Public and Admin RPC paths. */
async function gatedService(
  options: TestServiceOptions = {},
): Promise<{ service: TestService; engine: GateEngine; publicPath: string; adminPath: string }> {
  const engine = new GateEngine();
  const service = await startTestService({ createChainEngine: () => engine, logger: false, ...options });
  const created = await call(service, "POST", "/public/v1/account/acme/project/demo/environments", {
    as: "alice",
    body: { display_name: "rpc connections", network_configs: [{ network_id: "1" }] },
  });
  if (created.status !== 201 && created.status !== 200) throw new Error(`environment not created: ${created.status} ${created.text}`);
  const rpcs: { name: string; url: string }[] = created.body.active_instance.vnets[0].rpcs;
  const pathOf = (name: string) => rpcs.find((r) => r.name === name)!.url.slice(service.baseUrl.length);
  return { service, engine, publicPath: pathOf("Public RPC"), adminPath: pathOf("Admin RPC") };
}

/** The service's side of the next connection it accepts (listen before opening it). */
function nextServerSide(service: Pick<TestService, "app">): Promise<Socket> {
  return new Promise((resolve) => service.app.server.once("connection", resolve));
}

/** Resolves once `socket` has emitted `event`. */
const seen = (socket: Socket, event: "end" | "data") => new Promise<void>((resolve) => socket.once(event, () => resolve()));

/** The NoChainEngine's answer to a call with `id`. */
const noEngine = (id: number | string) => ({
  jsonrpc: "2.0",
  id,
  error: { code: -32000, message: expect.stringContaining("no chain engine") },
});

let main: Awaited<ReturnType<typeof gatedService>>;
const opened: RawConnection[] = [];
async function open(options?: { allowHalfOpen?: boolean }, service: Pick<TestService, "baseUrl"> = main.service): Promise<RawConnection> {
  const connection = await RawConnection.open(service, options);
  opened.push(connection);
  return connection;
}

beforeAll(async () => {
  main = await gatedService();
});
afterEach(() => {
  main?.engine.release();
  opened.splice(0).forEach((connection) => connection.destroy());
});
afterAll(() => main?.service.close());

describe("kept-alive calls", () => {
  test("plain calls are answered, several on one kept-alive connection", async () => {
    const connection = await open();
    for (const [path, id] of [
      [main.publicPath, 1],
      [main.adminPath, "two"],
      [main.publicPath, 3],
    ] as const) {
      const answer = await connection.send(post(path, request(id)));
      expect({ status: answer.status, json: answer.json }).toEqual({ status: 200, json: noEngine(id) });
      expect(answer.headers.connection).toBe("keep-alive");
      expect(answer.headers["keep-alive"]).toMatch(/^timeout=\d+$/);
      expect(answer.headers["content-type"]).toBe("application/json; charset=utf-8");
    }
  });

  test("pipelined calls written at once are answered in order, the first held in the engine while the second waits", async () => {
    const connection = await open();
    await connection.write(post(main.publicPath, request("first", "test_wait")) + post(main.publicPath, request("second")));
    await main.engine.inFlight();
    main.engine.release();
    const [first, second] = [await connection.next(), await connection.next()];
    expect(first.json).toEqual({ jsonrpc: "2.0", id: "first", result: "released" });
    expect(second.json).toEqual(noEngine("second"));
  });

  test("a call arriving while the one before is in the engine waits for it: answers in order", async () => {
    const serverSide = nextServerSide(main.service);
    const connection = await open();
    const server = await serverSide;
    await connection.write(post(main.publicPath, request("first", "test_wait")));
    await main.engine.inFlight();
    const read = seen(server, "data");
    await connection.write(post(main.adminPath, request("second")));
    await read; // the service has the second call while the first is held
    main.engine.release();
    expect((await connection.next()).json).toEqual({ jsonrpc: "2.0", id: "first", result: "released" });
    expect((await connection.next()).json).toEqual(noEngine("second"));
  });

  test("many pipelined calls in one write: every answer, in order", async () => {
    const connection = await open();
    const ids = Array.from({ length: 50 }, (_, i) => i);
    await connection.write(ids.map((id) => post(id % 2 ? main.adminPath : main.publicPath, request(id))).join(""));
    for (const id of ids) expect((await connection.next()).json).toEqual(noEngine(id));
  });

  test("thousands of pipelined calls answered at once (unknown URLs: 404) in one write: every answer, in order", async () => {
    // A 404 is answered inside the call to the RPC answer, not on a later turn: the connection goes on in a loop.
    const connection = await open();
    const count = 3_000;
    const unknown = (i: number) => `/rpc/public/00000000-0000-4000-8000-${String(i).padStart(12, "0")}`;
    await connection.write(Array.from({ length: count }, (_, i) => post(i % 3 === 0 ? main.publicPath : unknown(i), request(i))).join(""));
    for (let i = 0; i < count; i += 1) {
      const answer = await connection.next();
      if (i % 3 === 0) expect([i, answer.json]).toEqual([i, noEngine(i)]);
      else expect([i, answer.status]).toEqual([i, 404]);
    }
  });

  test("a call whose head arrives byte by byte and its body in pieces is answered once whole", async () => {
    const connection = await open();
    const bytes = post(main.publicPath, request(77), ["Origin: http://localhost:5173"]);
    const bodyStart = bytes.indexOf("\r\n\r\n") + 4;
    await connection.trickle(bytes.slice(0, bodyStart));
    const body = bytes.slice(bodyStart);
    await connection.write(body.slice(0, 5));
    await connection.write(body.slice(5, 20));
    const answer = await connection.send(body.slice(20));
    expect(answer.json).toEqual(noEngine(77));
    expect(answer.headers["access-control-allow-origin"]).toBe("http://localhost:5173");
    // And the connection still serves the next call.
    expect((await connection.send(post(main.publicPath, request(78)))).json).toEqual(noEngine(78));
  });

  test("a call and the start of the next in one write: the first is answered, the second once it is whole", async () => {
    const connection = await open();
    const second = post(main.adminPath, request(2));
    await connection.write(post(main.publicPath, request(1)) + second.slice(0, 30));
    expect((await connection.next()).json).toEqual(noEngine(1));
    expect((await connection.send(second.slice(30))).json).toEqual(noEngine(2));
  });

  test("query strings and header case do not change the answer", async () => {
    const connection = await open();
    const text = JSON.stringify(request(5));
    const answer = await connection.send(
      `POST ${main.publicPath}?a=1 HTTP/1.1\r\nhost: x\r\ncontent-length:   ${text.length}  \r\n\r\n${text}`,
    );
    expect(answer.json).toEqual(noEngine(5));
  });

  test("an unknown URL is the spec's 404 and the connection stays usable", async () => {
    const connection = await open();
    const unknown = await connection.send(post("/rpc/public/00000000-0000-4000-8000-000000000000", request(1)));
    expect(unknown.status).toBe(404);
    expect(unknown.json.error).toMatchObject({ slug: "resource_not_found", data: { rid: "rid:vnet" } });
    expect(unknown.headers.connection).toBe("keep-alive");
    expect((await connection.send(post(main.publicPath, request(2)))).json).toEqual(noEngine(2));
  });

  test("Connection: close gets its answer with connection: close, then the service closes the connection", async () => {
    const connection = await open();
    const answer = await connection.send(post(main.publicPath, request(9), ["Connection: close"]));
    expect(answer.json).toEqual(noEngine(9));
    expect(answer.headers.connection).toBe("close");
    expect(answer.headers["keep-alive"]).toBeUndefined();
    await connection.closed;
  });

  test("a call pipelined after a Connection: close call is not answered", async () => {
    const connection = await open();
    await connection.write(post(main.publicPath, request(1), ["Connection: close"]) + post(main.publicPath, request(2)));
    expect((await connection.next()).json).toEqual(noEngine(1));
    await connection.closed;
    await expect(connection.next()).rejects.toThrow("connection closed");
  });

  test("a caller that half-closes after its call gets the answer, then the service closes its side too", async () => {
    // Node's server ends a connection whose caller has ended its side; one held open waits for the keep-alive timeout.
    const connection = await open();
    await connection.write(post(main.publicPath, request(1)));
    connection.socket.end();
    expect((await connection.next()).json).toEqual(noEngine(1));
    await connection.ended;
    await connection.closed;
  });
});

describe("Node's parser reads every request", () => {
  test("a request whose lines end in a bare LF is refused 400 with the spec's body, and the connection closes", async () => {
    for (const path of [main.publicPath, "/v1/supported-networks"]) {
      const connection = await open();
      const text = JSON.stringify(request(1));
      const answer = await connection.send(`POST ${path} HTTP/1.1\nHost: ${HOST}\nContent-Length: ${text.length}\n\n${text}`);
      expectErrorBody({ status: answer.status, body: answer.json } as Parameters<typeof expectErrorBody>[0], 400, "bad_request");
      expect(answer.headers.connection).toBe("close");
      await connection.closed;
    }
  });

  test("pipelined calls followed by a half-close: every call is answered, in order, then the connection ends", async () => {
    const connection = await open({ allowHalfOpen: true });
    const ids = [1, 2, 3, 4, 5];
    await connection.write(ids.map((id) => post(id % 2 ? main.publicPath : main.adminPath, request(id))).join(""));
    connection.socket.end();
    const answers = [];
    for (const _ of ids) answers.push((await connection.next()).json);
    expect(answers).toEqual(ids.map(noEngine));
    await connection.ended;
  });
});

describe("as Node's server does (a chunked call: the connection handed over), which the tests above expect", () => {
  test("a caller that half-closes after its call gets the answer, then the service closes its side too", async () => {
    const connection = await open();
    await connection.write(chunkedPost(main.publicPath, request(1)));
    connection.socket.end();
    expect((await connection.next()).json).toEqual(noEngine(1));
    await connection.ended;
    await connection.closed;
  });

  test("close() finishes while an idle connection whose caller keeps its side open is connected", async () => {
    const { service, publicPath } = await gatedService();
    const connection = await open({ allowHalfOpen: true }, service);
    expect((await connection.send(chunkedPost(publicPath, request(1)))).json).toEqual(noEngine(1));
    await service.close();
    await connection.ended;
  });

  test("after Connection: close, the service lets go of the connection even if the caller keeps its side open", async () => {
    const { service, publicPath } = await gatedService();
    const connection = await open({ allowHalfOpen: true }, service);
    expect((await connection.send(chunkedPost(publicPath, request(1), ["Connection: close"]))).headers.connection?.toLowerCase()).toBe(
      "close",
    );
    await connection.ended;
    await service.close();
  });
});

describe("the hand-over to Node's server", () => {
  test("RPC call, then an API request, then RPC calls on the same connection: all answered", async () => {
    const connection = await open();
    expect((await connection.send(post(main.publicPath, request(1)))).json).toEqual(noEngine(1));
    const networks = await connection.send(get("/v1/supported-networks"));
    expect(networks.status).toBe(200);
    expect(Array.isArray(networks.json) || typeof networks.json === "object").toBe(true);
    expect(JSON.stringify(networks.json)).toContain('"1"');
    const after = await connection.send(post(main.publicPath, request(2)));
    expect({ status: after.status, json: after.json }).toEqual({ status: 200, json: noEngine(2) });
    expect(after.headers.connection?.toLowerCase()).toBe("keep-alive");
    const admin = await connection.send(post(main.adminPath, request(3)));
    expect(admin.json).toEqual(noEngine(3));
  });

  test("an API request pipelined between two calls in one write: three answers in order", async () => {
    const connection = await open();
    await connection.write(post(main.publicPath, request(1)) + get("/v1/supported-networks") + post(main.adminPath, request(3)));
    expect((await connection.next()).json).toEqual(noEngine(1));
    expect((await connection.next()).status).toBe(200);
    expect((await connection.next()).json).toEqual(noEngine(3));
  });

  test("an API request pipelined behind a call held in the engine waits for it, then is answered", async () => {
    const connection = await open();
    await connection.write(post(main.publicPath, request("held", "test_wait")) + get("/v1/supported-networks"));
    await main.engine.inFlight();
    main.engine.release();
    expect((await connection.next()).json).toEqual({ jsonrpc: "2.0", id: "held", result: "released" });
    expect((await connection.next()).status).toBe(200);
  });

  test("an API request arriving byte by byte after a call is answered", async () => {
    const connection = await open();
    expect((await connection.send(post(main.publicPath, request(1)))).json).toEqual(noEngine(1));
    await connection.trickle(get("/v1/supported-networks"));
    expect((await connection.next()).status).toBe(200);
  });

  test("a caller that half-closes while a call is in the engine and an API request waits behind it: the connection ends, no hang", async () => {
    const serverSide = nextServerSide(main.service);
    const connection = await open();
    const ended = seen(await serverSide, "end");
    await connection.write(post(main.publicPath, request("held", "test_wait")) + get("/v1/supported-networks"));
    await main.engine.inFlight();
    connection.socket.end();
    await ended; // the service has read the caller's end while the call is in the engine
    main.engine.release();
    // Node's server ends a connection at the caller's end, answering nothing more; the answers may or may not come.
    await connection.closed;
  });

  test("a header value with a control character (in the Origin, which would be echoed) is Node's 400", async () => {
    const connection = await open();
    const answer = await connection.send(post(main.publicPath, request(1), ["Origin: http://a\x1bb.example"]));
    expect(answer.status).toBe(400);
    expect(answer.headers["access-control-allow-origin"]).toBeUndefined();
  });

  test("a chunked body is answered (by Node's server), on a connection that served a plain call", async () => {
    const connection = await open();
    expect((await connection.send(post(main.publicPath, request(1)))).json).toEqual(noEngine(1));
    const text = JSON.stringify(request(2));
    const chunked = `POST ${main.publicPath} HTTP/1.1\r\nHost: ${HOST}\r\nTransfer-Encoding: chunked\r\n\r\n${(5).toString(16)}\r\n${text.slice(0, 5)}\r\n${(text.length - 5).toString(16)}\r\n${text.slice(5)}\r\n0\r\n\r\n`;
    const answer = await connection.send(chunked);
    expect({ status: answer.status, json: answer.json }).toEqual({ status: 200, json: noEngine(2) });
    expect((await connection.send(post(main.publicPath, request(3)))).json).toEqual(noEngine(3));
  });

  test("Expect: 100-continue gets 100 Continue, then the answer", async () => {
    const connection = await open();
    const text = JSON.stringify(request(4));
    await connection.write(
      `POST ${main.publicPath} HTTP/1.1\r\nHost: ${HOST}\r\nContent-Length: ${text.length}\r\nExpect: 100-continue\r\n\r\n`,
    );
    await new Promise<void>((resolve) => {
      const check = () => (connection.interim.length > 0 ? resolve() : connection.socket.once("data", () => setImmediate(check)));
      check();
    });
    expect(connection.interim[0]).toMatch(/^HTTP\/1\.1 100 Continue$/);
    const answer = await connection.send(text);
    expect({ status: answer.status, json: answer.json }).toEqual({ status: 200, json: noEngine(4) });
  });

  test("HTTP/1.0 is answered by Node's server and closed", async () => {
    const connection = await open();
    const text = JSON.stringify(request(6));
    const answer = await connection.send(
      `POST ${main.publicPath} HTTP/1.0\r\nHost: ${HOST}\r\nContent-Length: ${text.length}\r\n\r\n${text}`,
    );
    expect(answer.json).toEqual(noEngine(6));
    await connection.closed;
  });

  test("a body over 1 MB is the spec's 400 with connection: close, after calls on the same connection", async () => {
    const connection = await open();
    expect((await connection.send(post(main.publicPath, request(1)))).json).toEqual(noEngine(1));
    const length = 1024 * 1024 + 1;
    const answer = await connection.send(
      `POST ${main.publicPath} HTTP/1.1\r\nHost: ${HOST}\r\nContent-Length: ${length}\r\n\r\n${"[".repeat(1000)}`,
    );
    expectErrorBody({ status: answer.status, headers: new Headers(), body: answer.json, text: answer.body.toString() }, 400, "bad_request");
    expect(answer.json.error.message).toBe("request body larger than 1048576 bytes");
    expect(answer.headers.connection?.toLowerCase()).toBe("close");
    expect(answer.headers["x-svc-limit"]).toBeDefined();
    await connection.closed;
  });

  test("a body of exactly 1 MB is read and answered", async () => {
    const connection = await open();
    const id = "x".repeat(1024 * 1024 - JSON.stringify(request("")).length);
    const text = JSON.stringify(request(id));
    expect(Buffer.byteLength(text)).toBe(1024 * 1024);
    const answer = await connection.send(post(main.publicPath, text));
    expect(answer.status).toBe(200);
    expect(answer.json.id).toBe(id);
  });

  test("a header line without a colon is Node's 400 (the spec's body), not a hang", async () => {
    const connection = await open();
    const text = JSON.stringify(request(1));
    const answer = await connection.send(
      `POST ${main.publicPath} HTTP/1.1\r\nHost: ${HOST}\r\nBroken\r\nContent-Length: ${text.length}\r\n\r\n${text}`,
    );
    expect(answer.status).toBe(400);
    expect(answer.json.error.slug).toBe("bad_request");
    await connection.closed;
  });

  test("a malformed request after a call on the same connection is Node's 400", async () => {
    const connection = await open();
    expect((await connection.send(post(main.publicPath, request(1)))).json).toEqual(noEngine(1));
    const answer = await connection.send(
      `POST ${main.publicPath} HTTP/1.1\r\nHost: ${HOST}\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}`,
    );
    expect(answer.status).toBe(400);
    await connection.closed;
  });

  test("a head over 16 KB is Node's 431 or 400, not a hang", async () => {
    const connection = await open();
    const answer = await connection.send(post(main.publicPath, request(1), [`X-Pad: ${"p".repeat(17 * 1024)}`]));
    expect([400, 431]).toContain(answer.status);
  });

  test("a WebSocket on an RPC URL still works, with the ws client", async () => {
    const socket = new WebSocket(`ws://${new URL(main.service.baseUrl).host}${main.publicPath}`);
    const answer = await new Promise<any>((resolve, reject) => {
      socket.on("open", () => socket.send(JSON.stringify(request(11))));
      socket.on("message", (data) => resolve(JSON.parse(data.toString())));
      socket.on("error", reject);
    });
    socket.close();
    expect(answer).toEqual(noEngine(11));
  });

  test("a WebSocket upgrade on a connection that served an RPC call switches protocols", async () => {
    const connection = await open();
    expect((await connection.send(post(main.publicPath, request(1)))).json).toEqual(noEngine(1));
    const upgraded = await connection.send(
      get(main.publicPath, [
        "Upgrade: websocket",
        "Connection: Upgrade",
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
        "Sec-WebSocket-Version: 13",
      ]),
    );
    expect(upgraded.status).toBe(101);
    expect(upgraded.headers["sec-websocket-accept"]).toBe("s3pPLMBiTxaQ9kYGzzhZRbK+xOo=");
  });
});

describe("the answer's head", () => {
  const ORIGIN = "https://dapp.example";

  test("a call with an Origin: the X-Svc-* headers, content-type, CORS headers, keep-alive, chunked or not", async () => {
    const connection = await open();
    const text = JSON.stringify(request(21));
    const plain = await connection.send(post(main.publicPath, text, [`Origin: ${ORIGIN}`]));
    const chunked = await connection.send(chunkedPost(main.publicPath, request(21), [`Origin: ${ORIGIN}`]));
    for (const answer of [plain, chunked]) {
      expect(answer.json).toEqual(noEngine(21));
      expect(answer.headers).toMatchObject({
        "content-type": "application/json; charset=utf-8",
        "access-control-allow-origin": ORIGIN,
        "access-control-allow-credentials": "true",
        "access-control-allow-methods": "GET, POST, PUT, PATCH, DELETE, OPTIONS",
        "access-control-expose-headers": "X-Svc-Limit, X-Svc-Remaining, X-Svc-Reset-Timestamp",
        "access-control-max-age": "86400",
        vary: "Origin",
        connection: "keep-alive",
      });
      expect(Number(answer.headers["x-svc-limit"])).toBeGreaterThan(0);
      expect(Number(answer.headers["x-svc-reset-timestamp"])).toBeGreaterThan(Date.now() / 1000 - 1);
    }
  });

  test("a preflight is 204 with the CORS and rate headers, and is not counted", async () => {
    const connection = await open();
    const preflight = (id: number) =>
      `OPTIONS ${main.publicPath} HTTP/1.1\r\nHost: ${HOST}\r\nOrigin: ${ORIGIN}\r\nAccess-Control-Request-Headers: content-type\r\nX-Id: ${id}\r\n\r\n`;
    const first = await connection.send(preflight(1));
    const second = await connection.send(preflight(2));
    expect(first.status).toBe(204);
    expect(first.headers).toMatchObject({ "access-control-allow-origin": ORIGIN, "access-control-allow-headers": "content-type" });
    expect(second.headers["x-svc-remaining"]).toBe(first.headers["x-svc-remaining"]);
  });

  test("an unknown URL's 404: the spec's body, the rate and CORS headers", async () => {
    const connection = await open();
    const unknown = await connection.send(post("/rpc/admin/" + "Z".repeat(43), request(22), [`Origin: ${ORIGIN}`]));
    expect(unknown.status).toBe(404);
    expect(unknown.json.error).toMatchObject({ slug: "resource_not_found", data: { rid: "rid:vnet" } });
    expect(unknown.body.toString()).not.toContain("Z".repeat(43));
    expect(unknown.headers["access-control-allow-origin"]).toBe(ORIGIN);
    expect(unknown.headers["x-svc-limit"]).toBeDefined();
  });
});

describe("the rate limit", () => {
  test("a low RPC limit answers 429 with the spec's body, and the connection stays usable", async () => {
    const limited = await gatedService({ rateLimits: { rpcLimit: 2 } });
    try {
      const connection = await open(undefined, limited.service);
      const answers = [];
      for (const id of [1, 2, 3, 4]) answers.push(await connection.send(post(limited.publicPath, request(id))));
      expect(answers.map((a) => a.status)).toEqual([200, 200, 429, 429]);
      expect(answers.map((a) => a.headers["x-svc-remaining"])).toEqual(["1", "0", "0", "0"]);
      expect(answers[2].headers.connection).toBe("keep-alive");
      expect(answers[2].headers["content-type"]).toBe("application/json; charset=utf-8");
      expect(answers[2].json.error).toMatchObject({
        slug: "too_many_requests",
        message: "too many requests: back off until X-Svc-Reset-Timestamp",
      });
      // The other URL has its own count.
      expect((await connection.send(post(limited.adminPath, request(5)))).status).toBe(200);
    } finally {
      await limited.service.close();
    }
  });
});

describe("closing the service", () => {
  test("close() finishes while an idle kept-alive RPC connection is open, and ends that connection", async () => {
    const { service, publicPath } = await gatedService();
    const connection = await open(undefined, service);
    expect((await connection.send(post(publicPath, request(1)))).json).toEqual(noEngine(1));
    await Promise.all([service.close(), connection.closed]);
  });

  test("close() finishes while an idle connection whose caller keeps its side open (allowHalfOpen) is connected", async () => {
    const { service, publicPath } = await gatedService();
    const connection = await open({ allowHalfOpen: true }, service);
    expect((await connection.send(post(publicPath, request(1)))).json).toEqual(noEngine(1));
    await service.close();
    await connection.ended;
  });

  test("after Connection: close, the service lets go of the connection even if the caller keeps its side open", async () => {
    const { service, publicPath } = await gatedService();
    const connection = await open({ allowHalfOpen: true }, service);
    expect((await connection.send(post(publicPath, request(1), ["Connection: close"]))).headers.connection).toBe("close");
    await connection.ended;
    await service.close();
  });

  test("a call in flight during close gets its answer (connection: close), then close() finishes", async () => {
    const { service, engine, publicPath, adminPath } = await gatedService();
    const idle = await open(undefined, service);
    expect((await idle.send(post(publicPath, request(1)))).json).toEqual(noEngine(1));
    const busy = await open(undefined, service);
    await busy.write(post(adminPath, request("held", "test_wait")));
    await engine.inFlight();
    const closing = service.close();
    await idle.ended; // the service has begun closing: idle connections are ended
    engine.release();
    const answer = await busy.next();
    expect(answer.json).toEqual({ jsonrpc: "2.0", id: "held", result: "released" });
    expect(answer.headers.connection).toBe("close");
    await Promise.all([closing, busy.closed, idle.closed]);
  });

  test("a call half-arrived during close is answered once whole, then the connection closes", async () => {
    const { service, publicPath } = await gatedService();
    const idle = await open(undefined, service);
    expect((await idle.send(post(publicPath, request(1)))).json).toEqual(noEngine(1));
    const serverSide = nextServerSide(service);
    const arriving = await open(undefined, service);
    const read = seen(await serverSide, "data");
    const bytes = post(publicPath, request(2));
    await arriving.write(bytes.slice(0, 40));
    await read; // the service holds the first bytes
    const closing = service.close();
    await idle.ended;
    const answer = await arriving.send(bytes.slice(40));
    expect(answer.json).toEqual(noEngine(2));
    expect(answer.headers.connection).toBe("close");
    await Promise.all([closing, arriving.closed]);
  });
});

describe("over TLS", () => {
  test("calls kept alive, pipelined, between API requests and chunked, as over plain HTTP", async () => {
    const service = await startTestService({ createChainEngine: () => new GateEngine(), logger: false, tls: true });
    try {
      expect(service.baseUrl).toMatch(/^https:/);
      const connection = await open(undefined, service);
      const created = await connection.send(
        post("/public/v1/account/acme/project/demo/environments", { display_name: "tls", network_configs: [{ network_id: "1" }] }, [
          `X-Access-Key: ${service.keys.alice}`,
        ]),
      );
      const publicPath = new URL(created.json.active_instance.vnets[0].rpcs.find((r: { name: string }) => r.name === "Public RPC").url)
        .pathname;
      const first = await connection.send(post(publicPath, request(1)));
      expect(first.json).toEqual(noEngine(1));
      await connection.write(post(publicPath, request(2)) + get("/v1/supported-networks") + chunkedPost(publicPath, request(3)));
      expect((await connection.next()).json).toEqual(noEngine(2));
      expect((await connection.next()).status).toBe(200);
      expect((await connection.next()).json).toEqual(noEngine(3));
    } finally {
      await service.close();
    }
  });
});

describe("with a real chain", () => {
  let chain: Awaited<ReturnType<typeof realService>>;
  async function realService() {
    const service = await startTestService({ logger: false });
    const created = await call(service, "POST", "/public/v1/account/acme/project/demo/environments", {
      as: "alice",
      body: { display_name: "rpc connections chain", network_configs: [{ network_id: "1", chain_config_overrides: { chain_id: "7031" } }] },
    });
    const rpcs: { name: string; url: string }[] = created.body.active_instance.vnets[0].rpcs;
    const pathOf = (name: string) => rpcs.find((r) => r.name === name)!.url.slice(service.baseUrl.length);
    return { service, publicPath: pathOf("Public RPC"), adminPath: pathOf("Admin RPC") };
  }
  beforeAll(async () => {
    chain = await realService();
  });
  afterAll(() => chain?.service.close());

  test("eth_chainId, kept alive, pipelined, byte by byte, and a batch", async () => {
    const connection = await open(undefined, chain.service);
    expect((await connection.send(post(chain.publicPath, request(1)))).json).toEqual({ jsonrpc: "2.0", id: 1, result: "0x1b77" });
    await connection.write(post(chain.adminPath, request("a")) + post(chain.publicPath, request("b", "eth_blockNumber")));
    expect((await connection.next()).json).toEqual({ jsonrpc: "2.0", id: "a", result: "0x1b77" });
    expect((await connection.next()).json).toMatchObject({ jsonrpc: "2.0", id: "b", result: expect.stringMatching(/^0x[0-9a-f]+$/) });
    const trickled = post(chain.publicPath, request(4));
    await connection.trickle(trickled);
    expect((await connection.next()).json).toEqual({ jsonrpc: "2.0", id: 4, result: "0x1b77" });
    const batch = await connection.send(post(chain.publicPath, [request(5), request(6, "eth_blockNumber")]));
    expect(batch.json.map((a: { id: number }) => a.id)).toEqual([5, 6]);
    expect(batch.json[0].result).toBe("0x1b77");
  });

  test("the Public RPC still refuses an admin method", async () => {
    const connection = await open(undefined, chain.service);
    const refused = await connection.send(post(chain.publicPath, request(1, "anvil_setBalance")));
    expect(refused.status).toBe(200);
    expect(refused.json.error).toBeDefined();
    const allowed = await connection.send(
      post(chain.adminPath, {
        jsonrpc: "2.0",
        id: 2,
        method: "anvil_setBalance",
        params: ["0x000000000000000000000000000000000000beef", "0x10"],
      }),
    );
    expect(allowed.json).toEqual({ jsonrpc: "2.0", id: 2, result: null });
  });
});
