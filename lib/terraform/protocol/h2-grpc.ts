/**
 * A gRPC server for unary calls, directly on node:http2. The plugin protocol only needs unary calls, and
 * @grpc/grpc-js costs a provider process ~60 ms of start-up (270 KB to compile, its resolvers, channelz), paid
 * 3-5 times per Terraform command. gRPC over HTTP/2 for unary calls is small: a length-prefixed message each way,
 * status in the trailers (github.com/grpc/grpc/blob/master/doc/PROTOCOL-HTTP2.md).
 */
import { X509Certificate } from "node:crypto";
import type * as http2 from "node:http2";
import { createServer as createNetServer, type Server as NetServer } from "node:net";
import type { ServiceDefinition } from "@grpc/grpc-js";

/** gRPC status codes the server uses. */
export const GrpcStatus = { OK: 0, UNKNOWN: 2, INTERNAL: 13, UNIMPLEMENTED: 12, UNAVAILABLE: 14, RESOURCE_EXHAUSTED: 8 } as const;

/** An error a handler throws to answer with a gRPC status other than OK. */
export class GrpcError extends Error {
  constructor(
    /** The gRPC status code. */
    readonly code: number,
    message: string,
  ) {
    super(message);
    this.name = "GrpcError";
  }
}

/** Handles one unary call: a decoded request in, a response object out. */
export type UnaryHandler = (request: object) => Promise<object>;

/** TLS settings of {@link UnaryGrpcServer.listen}: our key pair, and the only client certificate we accept. */
export interface ServerTls {
  readonly keyPem: string;
  readonly certPem: string;
  readonly clientCertPem: string;
}

interface Route {
  readonly handler: UnaryHandler;
  readonly decode: (bytes: Buffer) => object;
  readonly encode: (value: object) => Buffer;
}

const MAX_MESSAGE_BYTES = 256 * 1024 * 1024; // as go-plugin allows for Terraform

/** A unary-only gRPC server. */
export class UnaryGrpcServer {
  private readonly routes = new Map<string, Route>();
  private server: http2.Http2Server | http2.Http2SecureServer | undefined;
  private listener: NetServer | undefined;
  private tls: ServerTls | undefined;
  private readonly sessions = new Set<http2.ServerHttp2Session>();
  private readonly onDisconnected: (() => void)[] = [];

  constructor(private readonly log: (message: string) => void = () => {}) {}

  /** Serves the methods of a service that have a handler; the others answer UNIMPLEMENTED. */
  addService(definition: ServiceDefinition, handlers: Readonly<Record<string, UnaryHandler>>): void {
    for (const [name, method] of Object.entries(definition)) {
      const handler = handlers[name];
      if (!handler || method.requestStream || method.responseStream) continue;
      this.routes.set(method.path, {
        handler,
        decode: method.requestDeserialize as (bytes: Buffer) => object,
        encode: method.responseSerialize as (value: object) => Buffer,
      });
    }
  }

  /**
   * Listens on host:port (0: any free port), with mutual TLS when `tls` is given; resolves to the port.
   *
   * What listens is a plain TCP server: node:http2 and the TLS server (~11 ms of a provider's start-up) are set up by
   * {@link prepare}, which a plugin calls once its handshake line is out, or at the first connection. Terraform
   * reads the handshake before it connects, so that time no longer delays the handshake.
   */
  listen(port: number, host: string, tls?: ServerTls): Promise<number> {
    this.tls = tls;
    const listener = createNetServer((socket) => this.prepare().emit("connection", socket));
    return new Promise((resolve, reject) => {
      listener.once("error", reject);
      listener.listen(port, host, () => {
        listener.off("error", reject);
        this.listener = listener;
        resolve((listener.address() as { port: number }).port);
      });
    });
  }

  /** Sets up the HTTP/2 server the connections go to (once; {@link listen} first). */
  prepare(): http2.Http2Server | http2.Http2SecureServer {
    if (!this.listener) throw new Error("UnaryGrpcServer.prepare() before listen()");
    return (this.server ??= this.createHttp2Server(this.tls));
  }

  private createHttp2Server(tls: ServerTls | undefined): http2.Http2Server | http2.Http2SecureServer {
    const { createSecureServer, createServer } = require("node:http2") as typeof http2;
    const clientCertDer = tls ? new X509Certificate(tls.clientCertPem).raw : undefined;
    const server = tls
      ? createSecureServer({
          key: tls.keyPem,
          cert: tls.certPem,
          // Ask for the client's certificate and check it below: exactly the one Terraform gave us. An empty `ca`
          // keeps Node from building its store of public root certificates, which no client of ours chains to:
          // on Node 20 that store takes ~30 ms to build, in each of the 3-5 provider processes of a command. The
          // handshake still proves the client holds the certificate's key (TLS CertificateVerify); only the
          // chain check is ours, and a pinned certificate needs no chain.
          ca: [],
          requestCert: true,
          rejectUnauthorized: false,
          // HTTP/2 only (ALPN h2): grpc-go refuses servers that do not negotiate it.
          allowHTTP1: false,
        })
      : createServer();
    server.on("stream", (stream, headers) => this.onStream(stream, headers));
    server.on("session", (session) => {
      // Emitted before the session reads its first frame: no stream of an unknown client is ever handled.
      if (clientCertDer && !presentsCertificate(session, clientCertDer)) {
        this.log("TLS client rejected: it did not present Terraform's client certificate");
        session.destroy();
        return;
      }
      this.sessions.add(session);
      session.once("close", () => {
        this.sessions.delete(session);
        if (this.sessions.size === 0) this.onDisconnected.splice(0).forEach((callback) => callback());
      });
    });
    server.on("sessionError", (error) => this.log(`gRPC session error: ${error.message}`));
    if (tls) (server as http2.Http2SecureServer).on("tlsClientError", (error) => this.log(`TLS client rejected: ${error.message}`));
    return server;
  }

  /**
   * Calls `callback` once no client is connected any more (at once when none is): after a client has read its
   * last answer and hung up, nothing is left in flight.
   */
  whenDisconnected(callback: () => void): void {
    if (this.sessions.size === 0) callback();
    else this.onDisconnected.push(callback);
  }

  /** Stops accepting connections. */
  close(): void {
    this.listener?.close();
    this.server?.close();
  }

  private onStream(stream: http2.ServerHttp2Stream, headers: http2.IncomingHttpHeaders): void {
    stream.on("error", (error) => this.log(`gRPC stream error: ${error.message}`));
    const path = headers[":path"] ?? "";
    const route = this.routes.get(path);
    if (headers[":method"] !== "POST" || !String(headers["content-type"] ?? "").startsWith("application/grpc")) {
      stream.respond({ ":status": 415 }, { endStream: true });
      return;
    }
    if (!route) {
      respondStatus(stream, GrpcStatus.UNIMPLEMENTED, `${path} is not implemented by this provider`);
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    stream.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_MESSAGE_BYTES + 5) chunks.push(chunk);
    });
    stream.on("end", () => {
      this.handle(stream, route, Buffer.concat(chunks), size).catch((error: unknown) => {
        this.log(`gRPC ${path} failed: ${error instanceof Error ? error.stack : String(error)}`);
        if (!stream.headersSent && !stream.destroyed) respondStatus(stream, GrpcStatus.INTERNAL, String(error));
      });
    });
  }

  private async handle(stream: http2.ServerHttp2Stream, route: Route, body: Buffer, size: number): Promise<void> {
    if (size > MAX_MESSAGE_BYTES + 5) return respondStatus(stream, GrpcStatus.RESOURCE_EXHAUSTED, "request too large");
    // One length-prefixed message: a compressed flag (we advertise no compression, so it must be 0) and a length.
    if (body.length < 5 || body[0] !== 0 || body.readUInt32BE(1) !== body.length - 5) {
      return respondStatus(stream, GrpcStatus.INTERNAL, "malformed or compressed request message");
    }
    let response: object;
    try {
      response = await route.handler(route.decode(body.subarray(5)));
    } catch (error) {
      if (error instanceof GrpcError) return respondStatus(stream, error.code, error.message);
      throw error;
    }
    const message = route.encode(response);
    const prefix = Buffer.alloc(5);
    prefix.writeUInt32BE(message.length, 1);
    if (stream.destroyed) return;
    stream.respond({ ":status": 200, "content-type": "application/grpc" }, { waitForTrailers: true });
    stream.once("wantTrailers", () => stream.sendTrailers({ "grpc-status": String(GrpcStatus.OK) }));
    stream.end(Buffer.concat([prefix, message]));
  }
}

/** Whether the session's TLS peer presented exactly `expected` (DER). */
function presentsCertificate(session: http2.ServerHttp2Session, expected: Buffer): boolean {
  const socket = session.socket as unknown as { getPeerCertificate?: () => { raw?: Buffer } | null };
  const raw = socket.getPeerCertificate?.()?.raw;
  return raw !== undefined && raw.equals(expected);
}

// A "trailers-only" response: status in the only HEADERS frame, as gRPC does for calls that fail before replying.
function respondStatus(stream: http2.ServerHttp2Stream, code: number, message: string): void {
  if (stream.destroyed) return;
  stream.respond(
    { ":status": 200, "content-type": "application/grpc", "grpc-status": String(code), "grpc-message": encodeURIComponent(message) },
    { endStream: true },
  );
}
