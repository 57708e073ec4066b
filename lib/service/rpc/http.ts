/**
 * The RPC URLs over HTTP: a thin transport on Node's own HTTP server (plain and TLS alike), ahead of the API's
 * request listener. Node parses every request (a malformed one is its 400, before anything here: client-errors.ts);
 * this reads the body of a `POST` or answers the `OPTIONS` preflight of a path under `/rpc/`, and hands the call to
 * the pipeline (./pipeline.ts), which decides everything. Any other request goes on to the API.
 *
 * A body over the limit is read to its end and thrown away (up to ../caller-limits.ts `discardBytes`) before its 400 goes, the
 * API's as the RPC URLs': a connection closed while its caller still sends loses the answer (the caller sees a
 * broken pipe), and a kept-alive connection then carries on.
 *
 * A connection holds nothing between its calls: a call takes its chain's lock for as long as the chain answers it
 * (chains/pool/chain-pool.ts `tryUse` or `use`), so an idle kept-alive connection never counts as a use of a chain.
 */
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import { CORS_ALLOW_HEADERS } from "../cors";
import { redactUrl } from "../log";
import type { RpcPipeline, RpcReply } from "./pipeline";
import type { RpcRoute } from "./route";

/** Routes a request by its Host header and target when the host is a hosted RPC host (./hosted-hosts.ts), else null. */
export type HostedRouter = (host: string | undefined, target: string) => RpcRoute | Promise<RpcRoute> | null;

/** What the log shows for the path of a call routed by a hosted host name. */
export const HOSTED_PATH_IN_LOGS = "/{hosted RPC key}";

/** The Host header from Node's list of raw headers, without making the request's header object. */
function hostOf(raw: readonly string[]): string | undefined {
  for (let i = 0; i < raw.length; i += 2) if (raw[i].length === 4 && raw[i].toLowerCase() === "host") return raw[i + 1];
  return undefined;
}

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
export function serveRpcOverHttp(server: Server, pipeline: RpcPipeline, log?: RpcCallLog, routeHosted?: HostedRouter): () => void {
  const listeners = server.listeners("request") as Listener[];
  server.removeAllListeners("request");
  let closing = false;
  const logsCalls = log !== undefined && (log.level === "debug" || log.level === "trace");
  const toApi = (request: IncomingMessage, response: ServerResponse) => {
    for (const listener of listeners) listener.call(server, request, response);
  };
  const serve = (route: RpcRoute, request: IncomingMessage, response: ServerResponse, hosted = false) => {
    const started = logsCalls ? performance.now() : 0;
    const sent = (reply: RpcReply) => {
      send(response, reply, closing);
      if (logsCalls) logCall(log!, request, reply.status, started, hosted);
    };
    if (request.method === "OPTIONS") return sent(preflight(pipeline, route, request));
    return serveCall(pipeline, route, request, response, sent);
  };
  server.on("request", (request: IncomingMessage, response: ServerResponse) => {
    if (request.method === "POST" || request.method === "OPTIONS") {
      // Under a hosted host name the host and path decide (./hosted-hosts.ts); a gateway's chain may be made first.
      const hosted = routeHosted ? routeHosted(hostOf(request.rawHeaders), request.url ?? "") : null;
      if (hosted instanceof Promise) {
        // Making a gateway's chain may fail: that call gets the spec's 500, never an unhandled rejection.
        return void hosted.then(
          (route) => serve(route, request, response, true),
          (failure: unknown) => send(response, pipeline.internalError({ "content-type": "application/json" }, failure), closing),
        );
      }
      if (hosted !== null) return serve(hosted, request, response, true);
      const route = pipeline.route(request.url ?? "");
      if (route !== null) return serve(route, request, response);
    }
    // The API reads its bodies itself, each route with its own limit; an oversized one is read away by the API's
    // error handler before its answer (errors/plugin.ts).
    toApi(request, response);
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
  const oversized = (whole: boolean) =>
    pipeline.answer(route, request.socket.remoteAddress, origin, null, (reply) => sent(whole ? reply : { ...reply, close: true }));
  if (length !== undefined && length > limit) {
    // A body too large even to throw away is answered at once, and its connection closed.
    if (length > pipeline.limits.discardBytes) return oversized(false);
    return discard(request, pipeline.limits.discardBytes, oversized);
  }
  // A call's head and body mostly come in one read, which Node's parser goes through before this tick: the body is
  // then whole in the request's buffer (its Content-Length of bytes, which is how Node's parser frames it), and is
  // taken from there without the stream's events. Node marks the request complete only in a later callback, so its
  // `complete` cannot tell.
  process.nextTick(() => {
    if (length !== undefined && !request.readableFlowing && request.readableLength === length) {
      return answer(length === 0 ? EMPTY : (request.read() as Buffer));
    }
    readBody(
      request,
      limit,
      answer,
      () => discard(request, pipeline.limits.discardBytes, oversized),
      () => response.destroy(),
    );
  });
}

/**
 * Reads a body to its end and throws it away, then calls `done(true)`; past `bound` bytes it stops reading and calls
 * `done(false)`: the answer must then close the connection. A caller gone mid-body is not answered.
 */
function discard(request: IncomingMessage, bound: number, done: (whole: boolean) => void): void {
  let size = 0;
  let finished = false;
  const finish = (whole: boolean) => {
    if (finished) return;
    finished = true;
    request.removeListener("data", onData);
    done(whole);
  };
  const onData = (chunk: Buffer) => {
    size += chunk.length;
    if (size > bound) {
      request.pause();
      finish(false);
    }
  };
  if (request.complete) return finish(true);
  request.on("data", onData);
  request.once("end", () => finish(true));
  request.once("error", () => (finished = true));
  request.resume();
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
 * Calls `done` with the body, or `tooLarge` once it is larger than `limit` (with the rest of it still to read);
 * `gone` when the caller went away mid-body (nothing to answer).
 */
function readBody(request: IncomingMessage, limit: number, done: (body: Buffer) => void, tooLarge: () => void, gone: () => void): void {
  const chunks: Buffer[] = [];
  let size = 0;
  let finished = false;
  const finish = (body: Buffer) => {
    if (finished) return;
    finished = true;
    done(body);
  };
  request.on("data", (chunk: Buffer) => {
    size += chunk.length;
    if (size > limit) {
      request.removeAllListeners("data");
      chunks.length = 0;
      if (!finished) {
        finished = true;
        tooLarge();
      }
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
  if (closing || reply.close) headers.connection = "close";
  const length = typeof body === "string" ? Buffer.byteLength(body) : body.length;
  const head: (string | number)[] = ["content-length", length];
  for (const name in headers) head.push(name, headers[name]);
  response.writeHead(reply.status, head as unknown as string[]);
  if (typeof body === "string") response.end(body);
  else response.end(body.toString("latin1"), "latin1");
}

/** Logs a call as the API's requests are logged (the same two lines), at debug level: `--log-level debug` or `trace`. */
function logCall(log: RpcCallLog, request: IncomingMessage, status: number, started: number, hosted: boolean): void {
  // Under a hosted host name the whole path is a key (an Admin secret, an access key): only its shape is logged.
  const url = hosted ? HOSTED_PATH_IN_LOGS : redactUrl(request.url ?? "");
  const req = { method: request.method, url, remoteAddress: request.socket.remoteAddress };
  log.debug({ req }, "incoming request");
  log.debug({ res: { statusCode: status }, responseTime: performance.now() - started }, "request completed");
}
