/**
 * What the provider bundle gets for `import { Pool } from "undici"` (the `substitutes` option in
 * scripts/build/70-provider.mjs): the part of undici's `Pool` the API client (lib/client/transport/transport.ts) and
 * the provider's JSON-RPC posts (http-post.ts) use, on `node:http`/`node:https`.
 *
 * Why not undici itself in the provider: undici parses HTTP with llhttp compiled to WebAssembly. V8 soon finds the
 * parser hot and recompiles it with its optimizing compiler on a background thread: about 150 ms of CPU, and a
 * provider process cannot exit before that compile ends (Node waits for V8's worker threads at exit). Terraform waits
 * for each provider process to exit, so every plan paid it once (docs/performance.md). `node:http` parses with the
 * llhttp built into Node. The library (`chainform/client`) keeps undici.
 *
 * Same contract as the subset of undici it replaces:
 * - `new Pool(origin, { connections, keepAliveTimeout, connect: { ca, rejectUnauthorized } })`, `close()`;
 * - `request({ path, method, headers, body, signal, headersTimeout, bodyTimeout })` resolves with
 *   `{ statusCode, headers, body: { text() } }` once the status and headers are in;
 * - HTTPS trusts `CHAINFORM_EXTRA_CA_CERTS` too, where the launcher moved `NODE_EXTRA_CA_CERTS`;
 * - errors carry the same `code`s: Node's network codes (ECONNREFUSED, ECONNRESET, ...), the TLS verification
 *   codes, UND_ERR_HEADERS_TIMEOUT / UND_ERR_BODY_TIMEOUT, and on abort the signal's reason.
 */
import { readFileSync } from "node:fs";
import * as http from "node:http";
import * as https from "node:https";
import type { Socket } from "node:net";
import { rootCertificates } from "node:tls";
import { PEM_CERTIFICATE } from "../../client/transport/trusted-certificates";

/**
 * Where the provider's launcher moves `NODE_EXTRA_CA_CERTS` (see `launcherScript` in lib/terraform/mirror.ts): a PEM
 * file whose certificates HTTPS connections trust besides the others, as Node itself would.
 */
export const EXTRA_CA_CERTS_ENV = "CHAINFORM_EXTRA_CA_CERTS";

/** Options of {@link Pool}: the undici ones the provider passes. */
export interface PoolOptions {
  /** At most this many connections at once (undici's `connections`). Default: no limit. */
  readonly connections?: number | null;
  /** How long an idle connection is kept, ms. Default 4000, as undici. */
  readonly keepAliveTimeout?: number;
  /** TLS options for https origins. */
  readonly connect?: {
    readonly ca?: string | Buffer | (string | Buffer)[];
    readonly rejectUnauthorized?: boolean;
  };
}

/** One request, as undici's `Dispatcher.request` takes it. */
export interface PoolRequest {
  readonly path: string;
  readonly method: string;
  readonly headers?: Record<string, string>;
  readonly body?: string | Buffer | null;
  readonly signal?: AbortSignal;
  /** ms until the status and headers must have arrived. Default 300000, as undici. */
  readonly headersTimeout?: number;
  /** ms the body may stay silent. Default 300000, as undici. */
  readonly bodyTimeout?: number;
}

/** An answer whose body is read with `text()`, once. */
export interface PoolResponse {
  readonly statusCode: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: { text(): Promise<string> };
}

const DEFAULT_TIMEOUT_MS = 300_000;
const KEEP_ALIVE_MARGIN_MS = 1_000;
/** The idle time each server promised for its connection, from the last answer on it. */
const serverKeepAliveMs = new WeakMap<object, number>();

/** An error with undici's shape: a `code` the transport classifies. */
class PoolError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = "PoolError";
  }
}

/**
 * Keep-alive connections to one origin.
 * @example
 * const pool = new Pool("http://127.0.0.1:8080", { connections: 10 });
 * const answer = await pool.request({ path: "/v1/supported-networks", method: "GET" });
 * const text = await answer.body.text();
 */
export class Pool {
  private readonly url: URL;
  private readonly agent: http.Agent;
  private readonly module: typeof http | typeof https;
  private closed = false;

  constructor(origin: string | URL, options: PoolOptions = {}) {
    this.url = new URL(origin);
    const secure = this.url.protocol === "https:";
    this.module = secure ? https : http;
    const agentOptions = {
      keepAlive: true,
      maxSockets: options.connections ?? Infinity,
      scheduling: "lifo" as const,
    };
    const ca = secure ? withExtraCertificates(options.connect?.ca) : undefined;
    this.agent = secure
      ? new https.Agent({
          ...agentOptions,
          ...(ca !== undefined ? { ca } : {}),
          ...(options.connect?.rejectUnauthorized !== undefined ? { rejectUnauthorized: options.connect.rejectUnauthorized } : {}),
        })
      : new http.Agent(agentOptions);
    const keepAliveTimeout = options.keepAliveTimeout ?? 4_000;
    // How long an idle connection is kept: ours, and 1 s less than the server said it keeps it (`Keep-Alive:
    // timeout=N`), as undici does, so that a request never goes out on a connection the server is closing. The agent
    // destroys a free socket when its timeout fires.
    this.agent.keepSocketAlive = (duplex) => {
      const socket = duplex as Socket;
      const serverKeepsMs = serverKeepAliveMs.get(socket);
      const idleMs = Math.min(keepAliveTimeout, serverKeepsMs === undefined ? Infinity : serverKeepsMs - KEEP_ALIVE_MARGIN_MS);
      if (idleMs <= 0) return false;
      socket.setKeepAlive(true, 1_000);
      socket.unref();
      socket.setTimeout(idleMs);
      return true;
    };
    const reuseSocket = this.agent.reuseSocket.bind(this.agent);
    this.agent.reuseSocket = (socket, request) => {
      reuseSocket(socket, request);
      (socket as Socket).setTimeout(0); // a busy connection is timed by the request's own timers
    };
  }

  /** Sends one request; resolves when the status and headers are in. */
  request(options: PoolRequest): Promise<PoolResponse> {
    if (this.closed) return Promise.reject(new PoolError("UND_ERR_CLOSED", "The pool is closed."));
    const headersTimeout = options.headersTimeout ?? DEFAULT_TIMEOUT_MS;
    const bodyTimeout = options.bodyTimeout ?? DEFAULT_TIMEOUT_MS;
    const body = options.body ?? undefined;
    const headers: Record<string, string | number> = { ...options.headers };
    if (body !== undefined && !Object.keys(headers).some((name) => name.toLowerCase() === "content-length")) {
      headers["content-length"] = Buffer.byteLength(body);
    }
    return new Promise<PoolResponse>((resolve, reject) => {
      if (options.signal?.aborted) return reject(aborted(options.signal));
      const request = this.module.request({
        protocol: this.url.protocol,
        hostname: this.url.hostname.replace(/^\[|\]$/g, ""),
        port: this.url.port,
        path: options.path,
        method: options.method,
        headers,
        agent: this.agent,
      });
      let settled = false;
      const fail = (error: Error) => {
        if (settled) return;
        settled = true;
        clearTimeout(headersTimer);
        options.signal?.removeEventListener("abort", onAbort);
        reject(error);
      };
      const onAbort = () => request.destroy(aborted(options.signal));
      options.signal?.addEventListener("abort", onAbort, { once: true });
      const headersTimer = setTimeout(
        () => request.destroy(new PoolError("UND_ERR_HEADERS_TIMEOUT", `No answer within ${headersTimeout} ms.`)),
        headersTimeout,
      );
      request.on("error", fail); // `on`: a request can fail twice (a timeout, then the socket), and an unheard error would crash
      request.once("response", (response) => {
        clearTimeout(headersTimer);
        const hint = /\btimeout=(\d+)/.exec(String(response.headers["keep-alive"] ?? ""));
        if (hint) serverKeepAliveMs.set(response.socket, Number(hint[1]) * 1_000);
        settled = true;
        resolve(readable(response, request, bodyTimeout, () => options.signal?.removeEventListener("abort", onAbort)));
      });
      request.end(body);
    });
  }

  /** Closes idle connections and refuses new requests. */
  async close(): Promise<void> {
    this.closed = true;
    this.agent.destroy();
  }
}

/** The certificates of {@link EXTRA_CA_CERTS_ENV}'s file, read once per process (one per pool, one per origin). */
let extraCertificates: { readonly file: string; readonly certificates: readonly string[] | undefined } | undefined;

/**
 * `ca` plus the certificates of {@link EXTRA_CA_CERTS_ENV}: added to the given list, or to Node's roots when none is
 * given. An unreadable file is ignored with a warning on stderr (Terraform's log), as Node does.
 */
function withExtraCertificates(ca: string | Buffer | (string | Buffer)[] | undefined): string | Buffer | (string | Buffer)[] | undefined {
  const file = process.env[EXTRA_CA_CERTS_ENV];
  if (!file) return ca;
  if (extraCertificates?.file !== file) {
    let certificates: string[] | undefined;
    try {
      certificates = readFileSync(file, "utf8").match(PEM_CERTIFICATE) ?? [];
    } catch (error) {
      process.stderr.write(`Warning: Ignoring extra certs from \`${file}\`, load failed: ${(error as Error).message}\n`);
    }
    extraCertificates = { file, certificates };
  }
  if (!extraCertificates.certificates) return ca;
  const base = ca === undefined ? rootCertificates : Array.isArray(ca) ? ca : [ca];
  return [...base, ...extraCertificates.certificates];
}

/** What undici rejects with on abort: the signal's reason (an AbortError DOMException unless one was given). */
function aborted(signal: AbortSignal | undefined): Error {
  const reason: unknown = signal?.reason;
  return reason instanceof Error ? reason : new DOMException("This operation was aborted", "AbortError");
}

/**
 * The answer. Its body is read at once into memory, as undici does, so that the connection goes back to the pool
 * as soon as the answer is complete, whether or not the caller reads the body. A body silent for `bodyTimeout` ms
 * fails.
 */
function readable(response: http.IncomingMessage, request: http.ClientRequest, bodyTimeout: number, done: () => void): PoolResponse {
  const received = new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let timer: NodeJS.Timeout | undefined;
    let finished = false;
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(
        () => request.destroy(new PoolError("UND_ERR_BODY_TIMEOUT", `The body stalled for ${bodyTimeout} ms.`)),
        bodyTimeout,
      );
    };
    const finish = (error?: Error) => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      done();
      if (error) reject(error);
      else resolve(Buffer.concat(chunks).toString("utf8"));
    };
    arm();
    response.on("data", (chunk: Buffer) => {
      chunks.push(chunk);
      arm();
    });
    response.once("end", () => finish());
    response.on("error", (error) => finish(error));
    request.on("error", (error) => finish(error));
    response.once("aborted", () => finish(new PoolError("ECONNRESET", "The connection closed before the body was complete.")));
  });
  received.catch(() => {}); // a body nobody reads may fail unheard
  let consumed = false;
  const text = () => {
    if (consumed) return Promise.reject(new TypeError("Body is unusable: it has already been read."));
    consumed = true;
    return received;
  };
  return { statusCode: response.statusCode ?? 0, headers: response.headers, body: { text } };
}
