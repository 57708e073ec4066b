/**
 * The RPC URLs over HTTP: a thin transport on Node's own HTTP server (plain and TLS alike), ahead of the API's
 * request listener. Node parses every request (a malformed one is its 400, before anything here: client-errors.ts);
 * this reads the body of a `POST` or answers the `OPTIONS` preflight of a path under `/rpc/`, and hands the call to
 * the pipeline (./pipeline.ts), which decides everything. Any other request goes on to the API.
 *
 * A connection holds nothing between its calls: a call takes its chain's lock for as long as the chain answers it
 * (chains/pool/chain-pool.ts `tryUse` or `use`), so an idle kept-alive connection never counts as a use of a chain.
 */
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import { CORS_ALLOW_HEADERS } from "../cors";
import { redactUrl } from "../log";
import type { RpcPipeline, RpcReply } from "./pipeline";
import type { RpcRoute } from "./route";

type Listener = (request: IncomingMessage, response: ServerResponse) => void;

/** What the HTTP transport logs: each call at debug level, as the API logs a request (the path's secret redacted). */
export interface RpcCallLog {
  /** The log's level (pino's names): calls are logged at `debug` and `trace`. */
  readonly level: string;
  debug(details: object, message: string): void;
}

/**
 * Serves the RPC URLs on `server` ahead of the request listeners it has (the API's). Returns a function to call when
 * the service begins to close: calls still come in and are answered (the chains run until the server has closed),
 * each with `connection: close`, so that no connection outlives the close.
 */
export function serveRpcOverHttp(server: Server, pipeline: RpcPipeline, log?: RpcCallLog): () => void {
  const listeners = server.listeners("request") as Listener[];
  server.removeAllListeners("request");
  let closing = false;
  const logsCalls = log !== undefined && (log.level === "debug" || log.level === "trace");
  server.on("request", (request: IncomingMessage, response: ServerResponse) => {
    if (request.method === "POST" || request.method === "OPTIONS") {
      const route = pipeline.route(request.url ?? "");
      if (route !== null) {
        const started = logsCalls ? performance.now() : 0;
        const sent = (reply: RpcReply) => {
          send(response, reply, closing);
          if (logsCalls) logCall(log!, request, reply.status, started);
        };
        if (request.method === "OPTIONS") return sent(preflight(pipeline, route, request));
        return serveCall(pipeline, route, request, response, sent);
      }
    }
    for (const listener of listeners) listener.call(server, request, response);
  });
  return () => {
    closing = true;
  };
}

/**
 * Reads a call's body (up to the limit) and answers it through the pipeline. Callbacks, not promises: at tens of
 * thousands of calls a second, a promise and its turn of the microtask queue per call are a cost worth saving.
 */
function serveCall(
  pipeline: RpcPipeline,
  route: RpcRoute,
  request: IncomingMessage,
  response: ServerResponse,
  sent: (reply: RpcReply) => void,
): void {
  const limit = pipeline.context.bodyLimit;
  const { length, origin } = readHeaders(request.rawHeaders);
  const answer = (bytes: Buffer | null) => pipeline.answer(route, request.socket.remoteAddress, origin, bytes, sent);
  if (length !== undefined && length > limit) return answer(null);
  // A call's head and body mostly come in one read, which Node's parser goes through before this tick: the body is
  // then whole in the request's buffer (its Content-Length of bytes, which is how Node's parser frames it), and is
  // taken from there without the stream's events. Node marks the request complete only in a later callback, so its
  // `complete` cannot tell.
  process.nextTick(() => {
    if (length !== undefined && !request.readableFlowing && request.readableLength === length) {
      return answer(length === 0 ? EMPTY : (request.read() as Buffer));
    }
    readBody(request, limit, answer, () => response.destroy());
  });
}

const EMPTY = Buffer.alloc(0);

/**
 * The two headers a call needs, read from Node's list of raw headers (names in any case), so that Node need not make
 * the request's header object: the declared Content-Length (undefined when none: Node's parser has refused a request
 * with two that differ or one that is not a number) and the Origin.
 */
function readHeaders(raw: readonly string[]): { length: number | undefined; origin: string | undefined } {
  let length: number | undefined;
  let origin: string | undefined;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i];
    if (name.length === 14 && name.toLowerCase() === "content-length") length = Number(raw[i + 1]);
    else if (name.length === 6 && name.toLowerCase() === "origin" && origin === undefined) origin = raw[i + 1];
  }
  return { length, origin };
}

/** A CORS preflight: 204 with the CORS and rate headers, never counted, never refused. */
function preflight(pipeline: RpcPipeline, route: RpcRoute, request: IncomingMessage): RpcReply {
  const rate = pipeline.rate(pipeline.resolve(route), request.socket.remoteAddress, false);
  const headers = pipeline.head(rate, request.headers.origin);
  delete headers["content-type"];
  if (request.headers.origin !== undefined) {
    headers["access-control-allow-headers"] = request.headers["access-control-request-headers"] ?? CORS_ALLOW_HEADERS;
  }
  return { status: 204, headers, body: "" };
}

/**
 * Calls `done` with the body, or null when it is larger than `limit` (the rest is not read); `gone` when the caller
 * went away mid-body (nothing to answer).
 */
function readBody(request: IncomingMessage, limit: number, done: (body: Buffer | null) => void, gone: () => void): void {
  const chunks: Buffer[] = [];
  let size = 0;
  let finished = false;
  const finish = (body: Buffer | null) => {
    if (finished) return;
    finished = true;
    done(body);
  };
  request.on("data", (chunk: Buffer) => {
    size += chunk.length;
    if (size > limit) {
      request.removeAllListeners("data");
      request.pause();
      finish(null);
    } else chunks.push(chunk);
  });
  request.on("end", () => finish(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size)));
  const fail = () => {
    if (finished) return;
    finished = true;
    gone();
  };
  request.on("error", fail);
  request.on("aborted", fail);
}

/**
 * Writes an answer. Its head goes to Node as a flat list of names and values (which Node writes as they are), and a
 * body of bytes goes as text (read as Latin-1, written as Latin-1: the same bytes), so that Node writes head and body
 * in one write rather than two.
 */
function send(response: ServerResponse, reply: RpcReply, closing: boolean): void {
  if (response.headersSent || response.destroyed) return;
  const { headers, body } = reply;
  if (closing) headers.connection = "close";
  const length = typeof body === "string" ? Buffer.byteLength(body) : body.length;
  const head: (string | number)[] = ["content-length", length];
  for (const name in headers) head.push(name, headers[name]);
  response.writeHead(reply.status, head as unknown as string[]);
  if (typeof body === "string") response.end(body);
  else response.end(body.toString("latin1"), "latin1");
}

/** Logs a call as the API's requests are logged (the same two lines), at debug level: `--log-level debug` or `trace`. */
function logCall(log: RpcCallLog, request: IncomingMessage, status: number, started: number): void {
  const req = { method: request.method, url: redactUrl(request.url ?? ""), remoteAddress: request.socket.remoteAddress };
  log.debug({ req }, "incoming request");
  log.debug({ res: { statusCode: status }, responseTime: performance.now() - started }, "request completed");
}
