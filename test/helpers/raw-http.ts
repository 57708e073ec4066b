/**
 * Raw HTTP/1.1 over real TCP (and TLS) sockets, for the tests of the RPC URLs' HTTP transport
 * (lib/service/rpc/http*.test.ts): a connection that writes bytes as given and reads the answers one by one, whole
 * requests as bytes, and a service whose chain engine holds a call in flight until the test releases it.
 */
import { connect, type Socket } from "node:net";
import { connect as connectTls } from "node:tls";
import { startTestService, type TestService, type TestServiceOptions } from "./service";
import { call } from "./http";
import { NoChainEngine } from "../../lib/service/no-chain-engine";
import type { ChainEngine, JsonRpcRequest, JsonRpcResponse } from "../../lib/service/chains/types";

/** An HTTP answer read off a raw socket. */
export interface RawResponse {
  readonly status: number;
  /** The status line and header lines exactly as sent. */
  readonly head: string;
  /** Header values by lower-case name (repeated headers joined with ", "). */
  readonly headers: Record<string, string>;
  readonly body: Buffer;
  readonly json: any;
}

/** A TCP connection to the service that writes raw bytes and reads the answers one by one, in order. */
export class RawConnection {
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

export const HOST = "127.0.0.1";

/** A whole POST as bytes: Host, Content-Length, and `headers` (each "Name: value"). */
export function post(path: string, body: string | object, headers: readonly string[] = []): string {
  const text = typeof body === "string" ? body : JSON.stringify(body);
  return `POST ${path} HTTP/1.1\r\nHost: ${HOST}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(text)}\r\n${headers.map((h) => `${h}\r\n`).join("")}\r\n${text}`;
}

/** A whole GET as bytes. */
export function get(path: string, headers: readonly string[] = []): string {
  return `GET ${path} HTTP/1.1\r\nHost: ${HOST}\r\n${headers.map((h) => `${h}\r\n`).join("")}\r\n`;
}

/** A whole POST with a chunked body: a call Node's server reads (the connection is handed over). */
export function chunkedPost(path: string, body: object, headers: readonly string[] = []): string {
  const text = JSON.stringify(body);
  return `POST ${path} HTTP/1.1\r\nHost: ${HOST}\r\nTransfer-Encoding: chunked\r\n${headers.map((h) => `${h}\r\n`).join("")}\r\n${text.length.toString(16)}\r\n${text}\r\n0\r\n\r\n`;
}

export const request = (id: number | string, method = "eth_chainId"): JsonRpcRequest => ({ jsonrpc: "2.0", id, method, params: [] });

/**
 * NoChainEngine, plus a method `test_wait` whose answer waits until the test releases it: a call held in flight, for
 * pipelining and closing while a call is under way. `entered` resolves when such a call reaches the engine.
 */
export class GateEngine implements ChainEngine {
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
export async function gatedService(
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
export function nextServerSide(service: Pick<TestService, "app">): Promise<Socket> {
  return new Promise((resolve) => service.app.server.once("connection", resolve));
}

/** Resolves once `socket` has emitted `event`. */
export const seen = (socket: Socket, event: "end" | "data") => new Promise<void>((resolve) => socket.once(event, () => resolve()));

/** The NoChainEngine's answer to a call with `id`. */
export const noEngine = (id: number | string) => ({
  jsonrpc: "2.0",
  id,
  error: { code: -32000, message: expect.stringContaining("no chain engine") },
});

/** A service whose engine can hold a call (`gatedService`). */
export type GatedService = Awaited<ReturnType<typeof gatedService>>;

/**
 * The set-up the raw-HTTP test files share: one gated service for the file, and after each test a held call
 * released and every connection the test opened closed. `current()` is the service once the file's `beforeAll` ran.
 */
export function gatedServiceForFile(): {
  current(): GatedService;
  open(options?: { allowHalfOpen?: boolean }, service?: Pick<TestService, "baseUrl">): Promise<RawConnection>;
} {
  let main: GatedService | undefined;
  const opened: RawConnection[] = [];
  beforeAll(async () => {
    main = await gatedService();
  });
  afterEach(() => {
    main?.engine.release();
    opened.splice(0).forEach((connection) => connection.destroy());
  });
  afterAll(() => main?.service.close());
  return {
    current: () => main!,
    async open(options, service = main!.service) {
      const connection = await RawConnection.open(service, options);
      opened.push(connection);
      return connection;
    },
  };
}
