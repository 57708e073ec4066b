/**
 * Our HTTP/2 server connection against node:http2's client (nghttp2, an independent implementation), over TCP: the
 * parts of the protocol Terraform's gRPC client may use, including the awkward ones (flow control on our answers,
 * padding, CONTINUATION, PING, resets). grpc-server.test.ts and the acceptance tests cover gRPC and Terraform.
 */
import * as http2 from "node:http2";
import { connect, createServer, type Server, type Socket } from "node:net";
import { Http2ServerConnection, type Http2Request } from "./h2-connection";
import { encodeHeaders } from "./hpack";

interface Exchange {
  readonly status: number;
  readonly headers: http2.IncomingHttpHeaders;
  readonly body: Buffer;
  readonly trailers: http2.IncomingHttpHeaders;
}

function request(client: http2.ClientHttp2Session, headers: http2.OutgoingHttpHeaders, body: Buffer): Promise<Exchange> {
  return new Promise((resolve, reject) => {
    const stream = client.request({ ":method": "POST", ":path": "/echo", ...headers });
    let responseHeaders: http2.IncomingHttpHeaders = {};
    let trailers: http2.IncomingHttpHeaders = {};
    const chunks: Buffer[] = [];
    stream.on("response", (h) => (responseHeaders = h));
    stream.on("trailers", (t) => (trailers = t));
    stream.on("data", (chunk: Buffer) => chunks.push(chunk));
    stream.on("end", () =>
      resolve({ status: Number(responseHeaders[":status"]), headers: responseHeaders, body: Buffer.concat(chunks), trailers }),
    );
    stream.on("error", reject);
    stream.end(body);
  });
}

describe("Http2ServerConnection", () => {
  let server: Server;
  let port: number;
  const logs: string[] = [];
  // Requests held unanswered, with whether our side of their connection has ended (FIN sent by socket.end()).
  const held: { connection: Http2ServerConnection; request: Http2Request; ended: () => boolean }[] = [];
  let onHeld: (() => void) | undefined;
  /** Resolves once the server holds a request. */
  const nextHeld = () => new Promise<void>((resolve) => (held.length > 0 ? resolve() : (onHeld = resolve)));
  /** Resolves once the server has read all the client sent before: the answer to a PING comes after it. */
  const serverCaughtUp = (client: http2.ClientHttp2Session) =>
    new Promise<void>((resolve, reject) => client.ping((error) => (error ? reject(error) : resolve())));

  beforeAll(async () => {
    server = createServer({ noDelay: true }, (socket: Socket) => {
      let ended = false;
      socket.on("finish", () => (ended = true));
      const connection: Http2ServerConnection = new Http2ServerConnection(socket, {
        maxBodyBytes: 8 * 1024 * 1024,
        log: (message) => logs.push(message),
        onClose: () => {},
        onRequest: (req) => {
          const header = (name: string) => req.headers.find(([n]) => n === name)?.[1] ?? "";
          if (header("x-hold") === "yes") {
            held.push({ connection, request: req, ended: () => ended });
            onHeld?.();
            onHeld = undefined;
            return;
          }
          if (header("x-throw") === "yes") throw new Error("handler bug");
          connection.respond(
            req.streamId,
            encodeHeaders([
              [":status", "200"],
              ["x-big-length", String(header("x-big").length)],
            ]),
            req.body,
            encodeHeaders([["x-size", String(req.bodySize)]]),
          );
        },
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as { port: number }).port;
  });
  afterAll(() => server.close());

  const withClient = async <T>(
    settings: http2.Settings,
    body: (client: http2.ClientHttp2Session) => Promise<T>,
    options: http2.ClientSessionOptions = {},
  ): Promise<T> => {
    const client = http2.connect(`http://127.0.0.1:${port}`, { settings, ...options });
    try {
      return await body(client);
    } finally {
      client.close();
    }
  };

  test("answers wait for the client's window: 1 MB back through a 1,000-byte stream window", async () => {
    const payload = Buffer.alloc(1024 * 1024, 7);
    const exchange = await withClient({ initialWindowSize: 1000 }, (client) => request(client, {}, payload));
    expect(exchange.status).toBe(200);
    expect(exchange.body.equals(payload)).toBe(true);
    expect(exchange.trailers["x-size"]).toBe(String(payload.length));
  });

  test("many streams at once on one connection", async () => {
    const exchanges = await withClient({}, (client) =>
      Promise.all(Array.from({ length: 60 }, (_, i) => request(client, {}, Buffer.from(`call ${i}`)))),
    );
    expect(exchanges.map((e) => e.body.toString())).toEqual(Array.from({ length: 60 }, (_, i) => `call ${i}`));
  });

  test("padded frames, and a header block split over CONTINUATION frames", async () => {
    const big = "b".repeat(40_000);
    const exchange = await withClient({}, (client) => request(client, { "x-big": big }, Buffer.from("padded")), {
      paddingStrategy: http2.constants.PADDING_STRATEGY_MAX,
      maxSendHeaderBlockLength: 100_000,
    });
    expect(exchange.body.toString()).toBe("padded");
    expect(exchange.headers["x-big-length"]).toBe(String(big.length));
  });

  test("PING is answered", async () => {
    const ms = await withClient({}, async (client) => {
      await new Promise((resolve) => client.once("connect", resolve)); // a ping sent before is cancelled
      return new Promise<number>((resolve, reject) => client.ping((error, duration) => (error ? reject(error) : resolve(duration))));
    });
    expect(ms).toBeGreaterThanOrEqual(0);
  });

  test("a stream the client resets is never answered, and the connection goes on", async () => {
    await withClient({}, async (client) => {
      const stream = client.request({ ":method": "POST", ":path": "/echo", "x-hold": "yes" });
      stream.on("error", () => {});
      stream.end("late");
      await nextHeld();
      expect(held).toHaveLength(1);
      stream.close(http2.constants.NGHTTP2_CANCEL);
      await serverCaughtUp(client);
      const { connection, request: heldRequest } = held.pop()!;
      connection.respond(heldRequest.streamId, encodeHeaders([[":status", "200"]]), Buffer.from("too late"), encodeHeaders([]));
      expect((await request(client, {}, Buffer.from("after"))).body.toString()).toBe("after");
    });
  });

  test("after the client's GOAWAY, the calls in flight are still answered, then the connection ends", async () => {
    await withClient({}, async (client) => {
      const inFlight = request(client, { "x-hold": "yes" }, Buffer.from("in flight"));
      await nextHeld();
      expect(held).toHaveLength(1);
      client.goaway();
      await serverCaughtUp(client);
      const { connection, request: heldRequest, ended } = held.pop()!;
      expect(ended()).toBe(false); // a call is still in flight
      connection.respond(heldRequest.streamId, encodeHeaders([[":status", "200"]]), heldRequest.body, encodeHeaders([]));
      expect((await inFlight).body.toString()).toBe("in flight");
      await new Promise((resolve) => setImmediate(resolve));
      expect(ended()).toBe(true);
    });
  });

  test("a request handler that throws resets its own stream only", async () => {
    await withClient({}, async (client) => {
      await expect(request(client, { "x-throw": "yes" }, Buffer.from("x"))).rejects.toThrow(/NGHTTP2_INTERNAL_ERROR/);
      expect((await request(client, {}, Buffer.from("still here"))).body.toString()).toBe("still here");
    });
    expect(logs.join("\n")).toMatch(/request handler failed: Error: handler bug/);
  });

  test("a client that does not speak HTTP/2 is told GOAWAY and disconnected", async () => {
    const socket = connect(port, "127.0.0.1");
    const received: Buffer[] = [];
    socket.on("data", (chunk: Buffer) => received.push(chunk));
    socket.write("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
    await new Promise((resolve) => socket.on("close", resolve));
    const bytes = Buffer.concat(received);
    // Our SETTINGS first, then a GOAWAY frame (type 7) with PROTOCOL_ERROR (1).
    const goaway = bytes.indexOf(Buffer.from([0, 0, 8, 7, 0, 0, 0, 0, 0]));
    expect(goaway).toBeGreaterThan(0);
    expect(bytes.readUInt32BE(goaway + 13)).toBe(1);
    expect(logs.join("\n")).toMatch(/not an HTTP\/2 client preface/);
  });
});
