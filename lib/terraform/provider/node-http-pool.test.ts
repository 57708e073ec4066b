/**
 * The provider bundle's stand-in for undici's Pool must behave as undici does where the transport looks: the same
 * suite runs against both, over real HTTP and HTTPS servers on loopback.
 */
import { once } from "node:events";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as http from "node:http";
import * as https from "node:https";
import type { AddressInfo, Socket } from "node:net";
import { Pool as UndiciPool } from "undici";
import { generateSelfSignedCertificate } from "../../certificates/self-signed";
import { EXTRA_CA_CERTS_ENV, Pool as NodeHttpPool } from "./node-http-pool";

type AnyPool = {
  request(options: {
    path: string;
    method: string;
    headers?: Record<string, string>;
    body?: string;
    signal?: AbortSignal;
    headersTimeout?: number;
    bodyTimeout?: number;
  }): Promise<{ statusCode: number; headers: Record<string, string | string[] | undefined>; body: { text(): Promise<string> } }>;
  close(): Promise<void>;
};
type PoolFactory = (origin: string, options?: Record<string, unknown>) => AnyPool;

const implementations: [string, PoolFactory][] = [
  ["undici", (origin, options) => new UndiciPool(origin, options) as unknown as AnyPool],
  ["node:http", (origin, options) => new NodeHttpPool(origin, options) as unknown as AnyPool],
];

/** A loopback server whose handler each test sets; counts connections and the most open at once. */
async function startServer(secure?: { keyPem: string; certPem: string }) {
  let handler: http.RequestListener = (_request, response) => response.end("ok");
  const server = secure
    ? https.createServer({ key: secure.keyPem, cert: secure.certPem }, (request, response) => handler(request, response))
    : http.createServer((request, response) => handler(request, response));
  const stats = { connections: 0, open: 0, maxOpen: 0 };
  const sockets = new Set<Socket>();
  server.on(secure ? "secureConnection" : "connection", (socket: Socket) => {
    stats.connections++;
    stats.open++;
    stats.maxOpen = Math.max(stats.maxOpen, stats.open);
    sockets.add(socket);
    socket.once("close", () => {
      stats.open--;
      sockets.delete(socket);
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return {
    origin: `${secure ? "https" : "http"}://127.0.0.1:${port}`,
    stats,
    handle: (next: http.RequestListener) => (handler = next),
    close: async () => {
      for (const socket of sockets) socket.destroy();
      server.close();
      await once(server, "close");
    },
  };
}

const readBody = (request: http.IncomingMessage) =>
  new Promise<string>((resolve) => {
    let text = "";
    request.on("data", (chunk) => (text += chunk));
    request.on("end", () => resolve(text));
  });

describe.each(implementations)("Pool over %s", (_name, createPool) => {
  let server: Awaited<ReturnType<typeof startServer>>;
  let pool: AnyPool;
  beforeEach(async () => {
    server = await startServer();
  });
  afterEach(async () => {
    await pool?.close().catch(() => {}); // a test may have closed it already
    await server.close();
  });

  test("answers status, lower-case headers and body, and keeps the connection for the next request", async () => {
    server.handle((request, response) => {
      response.setHeader("X-Svc-Remaining", "41");
      response.setHeader("Set-Cookie", ["a=1", "b=2"]);
      response.statusCode = 201;
      response.end(JSON.stringify({ path: request.url, method: request.method }));
    });
    pool = createPool(server.origin, { connections: 4 });
    for (let i = 0; i < 3; i++) {
      const answer = await pool.request({ path: `/v1/things?page=${i}`, method: "GET" });
      expect(answer.statusCode).toBe(201);
      expect(answer.headers["x-svc-remaining"]).toBe("41");
      expect(answer.headers["set-cookie"]).toEqual(["a=1", "b=2"]);
      expect(JSON.parse(await answer.body.text())).toEqual({ path: `/v1/things?page=${i}`, method: "GET" });
    }
    expect(server.stats.connections).toBeLessThan(3); // undici sometimes opens a second one
  });

  test("sends a body with its length and the given headers", async () => {
    let seen: { body: string; length: string | undefined; type: string | undefined; key: string | undefined } | undefined;
    server.handle(async (request, response) => {
      seen = {
        body: await readBody(request),
        length: request.headers["content-length"],
        type: request.headers["content-type"],
        key: String(request.headers["x-access-key"]),
      };
      response.end();
    });
    pool = createPool(server.origin);
    const body = JSON.stringify({ display_name: "ünïcödé" });
    const answer = await pool.request({
      path: "/v1/environments",
      method: "POST",
      headers: { "content-type": "application/json", "x-access-key": "k" },
      body,
    });
    expect(await answer.body.text()).toBe("");
    expect(seen).toEqual({ body, length: String(Buffer.byteLength(body)), type: "application/json", key: "k" });
  });

  test("opens at most `connections` connections, and frees one when its answer is in even if its body is unread", async () => {
    server.handle((_request, response) => setTimeout(() => response.end("slow"), 50));
    pool = createPool(server.origin, { connections: 2 });
    // All six answers are awaited before any body is read: the first bodies must not hold their connections.
    const answers = await Promise.all(Array.from({ length: 6 }, () => pool.request({ path: "/", method: "GET", headersTimeout: 5_000 })));
    expect(await Promise.all(answers.map((answer) => answer.body.text()))).toEqual(Array(6).fill("slow"));
    expect(server.stats.maxOpen).toBe(2);
  });

  test("a refused connection fails with ECONNREFUSED (the transport's 'not sent')", async () => {
    const closed = server.origin;
    await server.close();
    server = await startServer(); // for afterEach
    pool = createPool(closed);
    await expect(pool.request({ path: "/", method: "GET" })).rejects.toMatchObject({ code: "ECONNREFUSED" });
  });

  test("no headers within headersTimeout fails with UND_ERR_HEADERS_TIMEOUT", async () => {
    server.handle(() => {}); // never answers
    pool = createPool(server.origin);
    await expect(pool.request({ path: "/", method: "GET", headersTimeout: 100 })).rejects.toMatchObject({
      code: "UND_ERR_HEADERS_TIMEOUT",
    });
  });

  test("a body silent for bodyTimeout fails with UND_ERR_BODY_TIMEOUT", async () => {
    server.handle((_request, response) => {
      response.writeHead(200, { "content-length": "10" });
      response.write("12345"); // and never the rest
    });
    pool = createPool(server.origin);
    const answer = await pool.request({ path: "/", method: "GET", bodyTimeout: 100 });
    expect(answer.statusCode).toBe(200);
    await expect(answer.body.text()).rejects.toMatchObject({ code: "UND_ERR_BODY_TIMEOUT" });
  });

  test("a connection closed in the middle of the body fails the body", async () => {
    server.handle((_request, response) => {
      response.writeHead(200, { "content-length": "10" });
      response.write("12345", () => response.socket?.destroy());
    });
    pool = createPool(server.origin);
    const answer = await pool.request({ path: "/", method: "GET" });
    await expect(answer.body.text()).rejects.toHaveProperty("code");
  });

  test("an aborted signal fails the request", async () => {
    server.handle(() => {}); // never answers
    pool = createPool(server.origin);
    const controller = new AbortController();
    const pending = pool.request({ path: "/", method: "GET", signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    await expect(pending).rejects.toMatchObject({ name: "AbortError" });
  });

  test("a closed pool refuses requests", async () => {
    pool = createPool(server.origin);
    await pool.close();
    await expect(Promise.resolve().then(() => pool.request({ path: "/", method: "GET" }))).rejects.toThrow(/closed|destroyed/);
  });
});

describe.each(implementations)("Pool over %s, HTTPS", (_name, createPool) => {
  const certificate = generateSelfSignedCertificate({
    commonName: "localhost",
    organization: "chainform test",
    dnsNames: ["localhost"],
    ipAddresses: ["127.0.0.1"],
  });
  let server: Awaited<ReturnType<typeof startServer>>;
  let pool: AnyPool | undefined;
  beforeAll(async () => {
    server = await startServer(certificate);
  });
  afterEach(async () => {
    await pool?.close();
    pool = undefined;
  });
  afterAll(() => server.close());

  test("refuses a certificate it does not trust, with the TLS verification code", async () => {
    pool = createPool(server.origin);
    await expect(pool.request({ path: "/", method: "GET" })).rejects.toMatchObject({ code: "DEPTH_ZERO_SELF_SIGNED_CERT" });
  });

  test("trusts the certificates of connect.ca", async () => {
    pool = createPool(server.origin, { connect: { ca: [certificate.certPem] } });
    const answer = await pool.request({ path: "/", method: "GET" });
    expect(await answer.body.text()).toBe("ok");
  });
});

describe("Pool over node:http, HTTPS with the launcher's CHAINFORM_EXTRA_CA_CERTS", () => {
  const certificate = generateSelfSignedCertificate({
    commonName: "localhost",
    organization: "chainform test",
    dnsNames: ["localhost"],
    ipAddresses: ["127.0.0.1"],
  });
  const other = generateSelfSignedCertificate({ commonName: "other", organization: "chainform test", dnsNames: ["other"] });
  let server: Awaited<ReturnType<typeof startServer>>;
  let dir: string;
  beforeAll(async () => {
    server = await startServer(certificate);
    dir = mkdtempSync(join(tmpdir(), "chainform-extra-ca-"));
  });
  afterEach(() => {
    delete process.env[EXTRA_CA_CERTS_ENV];
  });
  afterAll(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test("trusts the file's certificates besides Node's roots", async () => {
    const file = join(dir, "extra.pem");
    writeFileSync(file, `${other.certPem}${certificate.certPem}`);
    process.env[EXTRA_CA_CERTS_ENV] = file;
    const pool = new NodeHttpPool(server.origin);
    await expect((await pool.request({ path: "/", method: "GET" })).body.text()).resolves.toBe("ok");
    await pool.close();
  });

  test("trusts them besides connect.ca too", async () => {
    const file = join(dir, "extra-only.pem");
    writeFileSync(file, certificate.certPem);
    process.env[EXTRA_CA_CERTS_ENV] = file;
    const pool = new NodeHttpPool(server.origin, { connect: { ca: [other.certPem] } });
    await expect((await pool.request({ path: "/", method: "GET" })).body.text()).resolves.toBe("ok");
    await pool.close();
  });

  test("an unreadable file is ignored: the server's certificate stays untrusted", async () => {
    process.env[EXTRA_CA_CERTS_ENV] = join(dir, "missing.pem");
    const pool = new NodeHttpPool(server.origin);
    await expect(pool.request({ path: "/", method: "GET" })).rejects.toMatchObject({ code: "DEPTH_ZERO_SELF_SIGNED_CERT" });
    await pool.close();
  });
});

describe("Pool over node:http, idle connections", () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  let pool: NodeHttpPool | undefined;
  afterEach(async () => {
    await pool?.close();
    await server.close();
  });
  const idle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  test("closes a connection idle for keepAliveTimeout and opens a new one", async () => {
    server = await startServer();
    pool = new NodeHttpPool(server.origin, { keepAliveTimeout: 100 });
    await (await pool.request({ path: "/", method: "GET" })).body.text();
    await idle(400);
    await expect((await pool.request({ path: "/", method: "GET" })).body.text()).resolves.toBe("ok");
    expect(server.stats.connections).toBe(2);
  });

  test("keeps a connection 1 s less than the server's Keep-Alive timeout", async () => {
    server = await startServer();
    server.handle((_request, response) => {
      response.setHeader("keep-alive", "timeout=1"); // the server keeps idle connections 1 s: we keep none
      response.end("ok");
    });
    pool = new NodeHttpPool(server.origin, { keepAliveTimeout: 10_000 });
    await (await pool.request({ path: "/", method: "GET" })).body.text();
    await idle(50);
    await (await pool.request({ path: "/", method: "GET" })).body.text();
    expect(server.stats.connections).toBe(2);
  });

  test("reuses a connection the server keeps long enough", async () => {
    server = await startServer();
    server.handle((_request, response) => {
      response.setHeader("keep-alive", "timeout=5");
      response.end("ok");
    });
    pool = new NodeHttpPool(server.origin, { keepAliveTimeout: 10_000 });
    for (let i = 0; i < 3; i++) await (await pool.request({ path: "/", method: "GET" })).body.text();
    expect(server.stats.connections).toBe(1);
  });
});
