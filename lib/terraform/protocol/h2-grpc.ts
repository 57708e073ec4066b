/**
 * A gRPC server for unary calls, on our own HTTP/2 connection (h2-connection.ts) over node:tls. The plugin protocol
 * only needs unary calls, and @grpc/grpc-js costs a provider process ~60 ms of start-up (270 KB to compile, its
 * resolvers, channelz), paid 3-5 times per Terraform command; node:http2 costs ~10 ms to load and ~0.9 ms of CPU per
 * call in a process this short-lived. gRPC over HTTP/2 for unary calls is small: a length-prefixed message each
 * way, status in the trailers (github.com/grpc/grpc/blob/master/doc/PROTOCOL-HTTP2.md).
 */
import { createServer as createNetServer, type Server as NetServer, type Socket } from "node:net";
import type * as tls from "node:tls";
import type { ServiceDefinition } from "@grpc/grpc-js";
import { pemToDer } from "../../certificates/self-signed";
import { Http2ServerConnection, type Http2Request } from "./h2-connection";
import { encodeHeaders } from "./hpack";

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

/** Handles one unary call: a decoded request in, a response object (or its bytes, {@link EncodedResponse}) out. */
export type UnaryHandler = (request: object) => Promise<object>;

/** A response already encoded as protobuf: the server sends these bytes as they are. */
export class EncodedResponse {
  constructor(
    /** The protobuf encoding of the response message. */
    readonly bytes: Uint8Array,
  ) {}
}

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
  private listener: NetServer | undefined;
  private tls: ServerTls | undefined;
  private accept: ((socket: Socket) => void) | undefined;
  private readonly connections = new Set<Http2ServerConnection>();
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
   * What listens is a plain server: node:tls and the TLS context (a few ms of a provider's start-up) are set up by
   * {@link prepare}, which a plugin calls once its handshake line is out, or at the first connection. Terraform
   * reads the handshake before it connects, so that time no longer delays the handshake.
   */
  async listen(port: number, host: string, tls?: ServerTls): Promise<number> {
    const listener = await this.listenOn({ port, host }, tls);
    return (listener.address() as { port: number }).port;
  }

  /**
   * Listens on a Unix socket at `path`, as {@link listen} does on TCP. Closing the server ({@link close}) removes
   * the socket file.
   */
  async listenUnix(path: string, tls?: ServerTls): Promise<void> {
    await this.listenOn({ path }, tls);
  }

  private listenOn(options: { port: number; host: string } | { path: string }, tls: ServerTls | undefined): Promise<NetServer> {
    this.tls = tls;
    // No Nagle: each answer is a small write that Terraform waits for (as node:http2 also sets).
    const listener = createNetServer({ noDelay: true }, (socket) => {
      this.prepare();
      this.accept!(socket);
    });
    return new Promise((resolve, reject) => {
      listener.once("error", reject);
      listener.listen(options, () => {
        listener.off("error", reject);
        this.listener = listener;
        resolve(listener);
      });
    });
  }

  /** Sets up what accepts the connections: TLS, then HTTP/2 (once; {@link listen} first). */
  prepare(): void {
    if (!this.listener) throw new Error("UnaryGrpcServer.prepare() before listen()");
    this.accept ??= this.tls ? this.tlsAcceptor(this.tls) : (socket) => this.serve(socket);
  }

  private tlsAcceptor(settings: ServerTls): (socket: Socket) => void {
    const { createServer } = require("node:tls") as typeof tls;
    const clientCertDer = pemToDer(settings.clientCertPem);
    const server = createServer({
      key: settings.keyPem,
      cert: settings.certPem,
      // Ask for the client's certificate and check it below: exactly the one Terraform gave us. An empty `ca` keeps
      // Node from building its store of public root certificates, which no client of ours chains to: on Node 20
      // that store takes ~30 ms to build, in each of the 3-5 provider processes of a command. The handshake still
      // proves the client holds the certificate's key (TLS CertificateVerify); only the chain check is ours, and a
      // pinned certificate needs no chain.
      ca: [],
      requestCert: true,
      rejectUnauthorized: false,
      // HTTP/2 (ALPN h2): grpc-go refuses servers that do not negotiate it.
      ALPNProtocols: ["h2"],
    });
    server.on("secureConnection", (socket: tls.TLSSocket) => {
      // Emitted once the TLS handshake is done, before any of the client's HTTP/2 bytes are read.
      if (!socket.getPeerX509Certificate()?.raw.equals(clientCertDer)) {
        this.log("TLS client rejected: it did not present Terraform's client certificate");
        socket.destroy();
        return;
      }
      this.serve(socket);
    });
    server.on("tlsClientError", (error) => this.log(`TLS client rejected: ${error.message}`));
    return (socket) => server.emit("connection", socket);
  }

  private serve(socket: Socket): void {
    const connection: Http2ServerConnection = new Http2ServerConnection(socket, {
      maxBodyBytes: MAX_MESSAGE_BYTES + 5,
      log: this.log,
      onRequest: (request) => this.onRequest(connection, request),
      onClose: () => {
        this.connections.delete(connection);
        if (this.connections.size === 0) this.onDisconnected.splice(0).forEach((callback) => callback());
      },
    });
    this.connections.add(connection);
  }

  /**
   * Calls `callback` once no client is connected any more (at once when none is): after a client has read its
   * last answer and hung up, nothing is left in flight.
   */
  whenDisconnected(callback: () => void): void {
    if (this.connections.size === 0) callback();
    else this.onDisconnected.push(callback);
  }

  /** Stops accepting connections. */
  close(): void {
    this.listener?.close();
  }

  private onRequest(connection: Http2ServerConnection, request: Http2Request): void {
    let method = "";
    let path = "";
    let contentType = "";
    for (const [name, value] of request.headers) {
      if (name === ":method") method = value;
      else if (name === ":path") path = value;
      else if (name === "content-type") contentType = value;
    }
    const respondStatus = (code: number, message: string) => connection.respond(request.streamId, trailersOnly(code, message));
    if (method !== "POST" || !contentType.startsWith("application/grpc")) {
      connection.respond(request.streamId, UNSUPPORTED_MEDIA_TYPE);
      return;
    }
    const route = this.routes.get(path);
    if (!route) return respondStatus(GrpcStatus.UNIMPLEMENTED, `${path} is not implemented by this provider`);
    this.handle(route, request).then(
      (message) => {
        const prefix = Buffer.alloc(5);
        prefix.writeUInt32BE(message.length, 1);
        connection.respond(request.streamId, RESPONSE_HEADERS, Buffer.concat([prefix, message]), OK_TRAILERS);
      },
      (error: unknown) => {
        if (error instanceof GrpcError) return respondStatus(error.code, error.message);
        this.log(`gRPC ${path} failed: ${error instanceof Error ? error.stack : String(error)}`);
        respondStatus(GrpcStatus.INTERNAL, String(error));
      },
    );
  }

  private async handle(route: Route, request: Http2Request): Promise<Buffer> {
    if (request.bodySize > MAX_MESSAGE_BYTES + 5) throw new GrpcError(GrpcStatus.RESOURCE_EXHAUSTED, "request too large");
    // One length-prefixed message: a compressed flag (we advertise no compression, so it must be 0) and a length.
    const body = request.body;
    if (body.length < 5 || body[0] !== 0 || body.readUInt32BE(1) !== body.length - 5) {
      throw new GrpcError(GrpcStatus.INTERNAL, "malformed or compressed request message");
    }
    const response = await route.handler(route.decode(body.subarray(5)));
    return response instanceof EncodedResponse ? Buffer.from(response.bytes) : route.encode(response);
  }
}

const RESPONSE_HEADERS = encodeHeaders([
  [":status", "200"],
  ["content-type", "application/grpc"],
]);
const OK_TRAILERS = encodeHeaders([["grpc-status", String(GrpcStatus.OK)]]);
const UNSUPPORTED_MEDIA_TYPE = encodeHeaders([[":status", "415"]]);

// A "trailers-only" response: status in the only HEADERS frame, as gRPC does for calls that fail before replying.
function trailersOnly(code: number, message: string): Buffer {
  return encodeHeaders([
    [":status", "200"],
    ["content-type", "application/grpc"],
    ["grpc-status", String(code)],
    ["grpc-message", encodeURIComponent(message)],
  ]);
}
