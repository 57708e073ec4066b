/**
 * The transport against a scripted HTTP server (not the chainform service: these tests pin the wire behaviour
 * of auth, retries and error mapping, case by case). Integration tests against the real service are in test/.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { generateSelfSignedCertificate } from "../../certificates/self-signed";
import {
  ApiError,
  CertificateError,
  ConnectionError,
  InvalidResponseError,
  PlainHttpServiceError,
  RateLimitError,
  TimeoutError,
} from "../errors";
import { version } from "../version";
import { createTransport, type ResponseEvent, type TransportSettings } from "./transport";

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

let server: Server;
let baseUrl: string;
let handler: Handler;
const seen: { method: string; url: string; headers: IncomingMessage["headers"]; body: string }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      handler(req, res, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));
beforeEach(() => (seen.length = 0));

const settings = (over: Partial<TransportSettings> = {}): TransportSettings => ({
  timeoutMs: 2000,
  maxRetries: 3,
  maxRetryTimeMs: 10_000,
  retryBaseDelayMs: 10,
  retryMaxDelayMs: 50,
  userAgent: `chainform/${version}`,
  pacing: true,
  resetMarginMs: 0,
  connections: 4,
  ...over,
});

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(body));
};

describe("transport", () => {
  it("sends the user agent, JSON headers and each auth form", async () => {
    handler = (_req, res) => json(res, 200, { ok: true });
    const forms = [{ accessKey: "key_1" }, { accessKey: "key_1", authMode: "basic" as const }, { bearerToken: "tok.en.sig" }];
    for (const credentials of forms) {
      const transport = createTransport(baseUrl, credentials, settings());
      await transport.request({ method: "POST", path: "/a", body: { x: 1 } });
      await transport.close();
    }
    expect(seen.map((s) => [s.headers["x-access-key"], s.headers.authorization])).toEqual([
      ["key_1", undefined],
      [undefined, `Basic ${Buffer.from("key_1:").toString("base64")}`],
      [undefined, "Bearer tok.en.sig"],
    ]);
    expect(seen[0]!.headers["user-agent"]).toBe(`chainform/${version}`);
    expect(seen[0]!.headers["content-type"]).toBe("application/json");
    expect(seen[0]!.body).toBe('{"x":1}');
  });

  it("leaves credentials off requests marked auth: false", async () => {
    handler = (_req, res) => json(res, 200, []);
    const transport = createTransport(baseUrl, { accessKey: "key_1" }, settings());
    await transport.request({ method: "GET", path: "/v1/supported-networks", auth: false });
    await transport.close();
    expect(seen[0]!.headers["x-access-key"]).toBeUndefined();
  });

  it("retries a 429 after Retry-After, reporting every answer", async () => {
    let calls = 0;
    handler = (_req, res) =>
      ++calls === 1
        ? json(res, 429, { error: { id: "e", slug: "too_many_requests", message: "slow" } }, { "retry-after": "1" })
        : json(res, 200, { ok: 1 });
    const events: ResponseEvent[] = [];
    const transport = createTransport(baseUrl, { accessKey: "k" }, settings({ onResponse: (e) => events.push(e) }));
    const started = Date.now();
    await expect(transport.request({ method: "POST", path: "/p" })).resolves.toEqual({ ok: 1 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(events.map((e) => [e.status, e.attempt])).toEqual([
      [429, 1],
      [200, 2],
    ]);
    await transport.close();
  });

  it("gives up on 429 with a RateLimitError when the wait exceeds the retry budget", async () => {
    handler = (_req, res) => json(res, 429, { error: { id: "e9", slug: "too_many_requests", message: "limit" } }, { "retry-after": "100" });
    const transport = createTransport(baseUrl, { accessKey: "k" }, settings({ maxRetryTimeMs: 5_000 }));
    const error = await transport.request({ method: "GET", path: "/g" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfterMs).toBeGreaterThan(95_000);
    expect(seen).toHaveLength(1);
    await transport.close();
  });

  it("spends no retry on a 429: the deadline bounds those, so real faults keep the whole budget", async () => {
    const script = [429, 503, 429, 503, 503, 200];
    handler = (_req, res) => {
      const status = script.shift()!;
      if (status === 429) return json(res, 429, { error: { id: "r", slug: "too_many_requests", message: "slow" } }, { "retry-after": "0" });
      json(res, status, status === 200 ? { ok: 1 } : { error: { id: "x", slug: "service_unavailable", message: "busy" } });
    };
    const transport = createTransport(baseUrl, { accessKey: "k" }, settings({ maxRetries: 3 }));
    await expect(transport.request({ method: "DELETE", path: "/d" })).resolves.toEqual({ ok: 1 });
    expect(seen).toHaveLength(6);
    await transport.close();
  });

  it("says how many attempts it made over how long when the retries run out", async () => {
    handler = (_req, res) => json(res, 503, { error: { id: "x9", slug: "service_unavailable", message: "busy" } });
    const transport = createTransport(baseUrl, { accessKey: "k" }, settings({ maxRetries: 2 }));
    const error = (await transport.request({ method: "GET", path: "/g" }).catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.attempts).toBe(3);
    expect(error.elapsedMs).toBeGreaterThanOrEqual(0);
    expect(error.message).toMatch(/^Attempts: 3 over \d+\.\d s$/m);
    await transport.close();
  });

  it("fails at once with CertificateError when the service's certificate is not trusted", async () => {
    const certificate = generateSelfSignedCertificate({ commonName: "localhost", organization: "t", dnsNames: ["localhost"] });
    let requests = 0;
    const tlsServer = createHttpsServer({ key: certificate.keyPem, cert: certificate.certPem }, (_req, res) => {
      requests++;
      json(res, 200, { ok: 1 });
    });
    await new Promise<void>((resolve) => tlsServer.listen(0, "127.0.0.1", resolve));
    const url = `https://localhost:${(tlsServer.address() as AddressInfo).port}`;
    try {
      const untrusting = createTransport(url, { accessKey: "k" }, settings());
      const error = (await untrusting.request({ method: "GET", path: "/g" }).catch((e: unknown) => e)) as CertificateError;
      expect(error).toBeInstanceOf(CertificateError);
      expect([error.code, requests]).toEqual(["DEPTH_ZERO_SELF_SIGNED_CERT", 0]);
      await untrusting.close();
      const trusting = createTransport(url, { accessKey: "k" }, settings({ tls: { ca: certificate.certPem } }));
      await expect(trusting.request({ method: "GET", path: "/g" })).resolves.toEqual({ ok: 1 });
      await trusting.close();
    } finally {
      tlsServer.closeAllConnections();
      await new Promise((resolve) => tlsServer.close(resolve));
    }
  });

  it("retries 503 for idempotent requests but not for a POST that may have acted", async () => {
    let calls = 0;
    handler = (_req, res) =>
      ++calls % 2 === 1
        ? json(res, 503, { error: { id: "x", slug: "service_unavailable", message: "busy" } })
        : json(res, 200, { n: calls });
    const transport = createTransport(baseUrl, { accessKey: "k" }, settings());
    await expect(transport.request({ method: "GET", path: "/g" })).resolves.toEqual({ n: 2 });
    const error = await transport.request({ method: "POST", path: "/p" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(503);
    await transport.close();
  });

  it("maps an error body to ApiError and scrubs secrets from it", async () => {
    handler = (_req, res) =>
      json(res, 401, {
        error: { id: "err_7", slug: "unauthorized", message: "key sekrit_key_123 is not valid", data: { url: "http://h/rpc/admin/abc" } },
      });
    const transport = createTransport(baseUrl, { accessKey: "sekrit_key_123" }, settings());
    const error = (await transport.request({ method: "GET", path: "/rpc/admin/abc/x" }).catch((e: unknown) => e)) as ApiError;
    expect([error.status, error.slug, error.errorId, error.path]).toEqual([401, "unauthorized", "err_7", "/rpc/admin/[redacted]/x"]);
    expect(error.serviceMessage).toBe("key [redacted] is not valid");
    expect(JSON.stringify(error) + error.message).not.toMatch(/sekrit_key_123|admin\/abc/);
    await transport.close();
  });

  it("times out with TimeoutError after the retries an idempotent request allows", async () => {
    handler = () => undefined; // never answers
    const transport = createTransport(baseUrl, { accessKey: "k" }, settings({ timeoutMs: 150, maxRetries: 1 }));
    const error = (await transport.request({ method: "GET", path: "/slow" }).catch((e: unknown) => e)) as TimeoutError;
    expect(error).toBeInstanceOf(TimeoutError);
    expect([error.attempts, error.timeoutMs]).toEqual([2, 150]);
    expect(seen).toHaveLength(2);
    await transport.close();
  });

  it("reports a refused connection as not sent, after retrying", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const transport = createTransport(`http://127.0.0.1:${port}`, { accessKey: "k" }, settings({ maxRetries: 2 }));
    const error = (await transport.request({ method: "POST", path: "/p" }).catch((e: unknown) => e)) as ConnectionError;
    expect(error).toBeInstanceOf(ConnectionError);
    expect([error.sent, error.code, error.attempts]).toEqual([false, "ECONNREFUSED", 3]);
    await transport.close();
  });

  it("turns a body that is not JSON into InvalidResponseError, without retrying", async () => {
    handler = (_req, res) => {
      res.writeHead(200, { "content-type": "text/html" });
      res.end("<html>proxy login</html>");
    };
    const transport = createTransport(baseUrl, { accessKey: "k" }, settings());
    await expect(transport.request({ method: "GET", path: "/g" })).rejects.toBeInstanceOf(InvalidResponseError);
    expect(seen).toHaveLength(1);
    await transport.close();
  });

  it("https:// against a plain-HTTP service: fails at once with PlainHttpServiceError, no retry", async () => {
    // GIVEN the plain-HTTP test server, counting connections, and a transport that allows 8 retries
    let connections = 0;
    const count = () => connections++;
    server.on("connection", count);
    const transport = createTransport(baseUrl.replace("http://", "https://"), { accessKey: "key_1" }, settings({ maxRetries: 8 }));
    try {
      // WHEN a request is made
      const error = await transport.request({ method: "GET", path: "/x" }).catch((e: unknown) => e);
      // THEN one connection, nothing reached a handler, and the error says to use http://
      expect(error).toBeInstanceOf(PlainHttpServiceError);
      expect((error as PlainHttpServiceError).shortMessage).toBe("The service at the base URL speaks plain HTTP, not HTTPS.");
      expect((error as PlainHttpServiceError).details).toMatch(/^Use http:\/\/ in the base URL/);
      expect(connections).toBe(1);
      expect(seen).toEqual([]);
    } finally {
      server.off("connection", count);
      await transport.close();
    }
  });
});
