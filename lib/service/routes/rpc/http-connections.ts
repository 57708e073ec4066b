/**
 * The RPC URLs at the connection: calls read and answered straight off the socket, before Node's HTTP server sees
 * them. Node's server costs a call more than the chain itself does (its request and response objects, header
 * handling, writes in pieces: docs/performance.md "RPC URLs"), and a test suite makes thousands of calls a second on
 * a few kept-alive connections. A call here costs one read, a look at its head, the answer (./http.ts, the same as
 * through Node's server) and one write.
 *
 * Only the plain shape of a call is read here: `POST /rpc/{admin|public}/{key} HTTP/1.1` with a Host, one
 * Content-Length, a body within the limit, well-formed header lines. Anything else (another method or path, a
 * chunked or oversized body, `Expect`, an upgrade to WebSocket, HTTP/1.0, a head over 16 KB) hands the connection,
 * with every byte not yet answered, to Node's HTTP server, which keeps it from then on: it answers exactly as before,
 * errors included. Plain HTTP only: over TLS, Node's server reads every request (./http.ts serves the calls there).
 *
 * Where the native hop runs (./native-hop.ts), a connection whose call just passed through is handed to it, and it
 * comes back here at the first call the hop does not answer itself.
 */
import type { Server } from "node:http";
import type { Socket } from "node:net";
import { RPC_PATH, type HttpRpc, type RpcReply } from "./http";
import type { NativeHop } from "./native-hop";
import type { RpcAccess } from "../../chains/types";
import type { RateDecision } from "../../rate-limit";

/** The head of a call this module answers. */
export interface RpcCallHead {
  /** `/rpc/{access}/{key}` without the query. */
  readonly path: string;
  readonly access: RpcAccess;
  readonly key: string;
  readonly origin: string | undefined;
  readonly contentLength: number;
  /** The caller asked to close the connection after the answer. */
  readonly close: boolean;
  /** Where the body starts in the bytes read. */
  readonly bodyStart: number;
  /** Where the Content-Length digits are in the bytes read: from `lengthStart` to before `lengthEnd`. */
  readonly lengthStart: number;
  readonly lengthEnd: number;
}

/** Longest head read here; a longer one goes to Node's server (which answers 431). */
export const MAX_HEAD_BYTES = 16 * 1024;
/** Longest a call may take to arrive once its first byte has (Node's server gives a head 60 s, too). */
const REQUEST_ARRIVAL_MS = 60_000;

const PREFIX = Buffer.from("POST /rpc/", "latin1");
const HEAD_END = Buffer.from("\r\n\r\n", "latin1");
/** A request target as Node's parser takes it: visible ASCII only. */
const REQUEST_TARGET = /^[\x21-\x7e]+$/;
/** Header lines as RFC 9110 allows them: a token, a colon, a value of tabs, visible characters and obs-text; each ends in CRLF. */
const HEADER_LINES = /^(?:[!#$%&'*+.^_`|~0-9A-Za-z-]+:[\t\x20-\x7e\x80-\xff]*\r\n)*$/;
/** The Content-Length header's name as found in a head's lower-cased text. */
const CONTENT_LENGTH = "\r\ncontent-length:";
/** Headers that make a request one for Node's server. */
const HANDED_OVER = ["\r\ntransfer-encoding:", "\r\nexpect:", "\r\nupgrade:"];
const STATUS_LINE: Record<RpcReply["status"], string> = {
  200: "HTTP/1.1 200 OK\r\n",
  400: "HTTP/1.1 400 Bad Request\r\n",
  404: "HTTP/1.1 404 Not Found\r\n",
  429: "HTTP/1.1 429 Too Many Requests\r\n",
  500: "HTTP/1.1 500 Internal Server Error\r\n",
};

/**
 * Reads the head of the request at the start of `data`: a call this module answers, `"other"` for anything Node's
 * server must read, or null while the head is incomplete. A call's head is read in a few passes over its text (one
 * check of every header line's form, then a search for each header that matters), the cheapest way found: most of
 * what a call costs here is this and the answer's writing.
 */
export function readRpcCallHead(data: Buffer): RpcCallHead | "other" | null {
  const prefix = Math.min(data.length, PREFIX.length);
  if (data.compare(PREFIX, 0, prefix, 0, prefix) !== 0) return "other";
  const headEnd = data.indexOf(HEAD_END);
  if (headEnd < 0) return data.length > MAX_HEAD_BYTES ? "other" : null;
  if (headEnd > MAX_HEAD_BYTES) return "other";
  // The head with the blank line's CRLF, so that every header line is found as "\r\n" + name + ":".
  const text = data.toString("latin1", 0, headEnd + 2);
  const lineEnd = text.indexOf("\r\n");
  const target = text.slice(5, lineEnd - 9); // "POST " … " HTTP/1.1"
  if (!text.startsWith(" HTTP/1.1", lineEnd - 9) || !REQUEST_TARGET.test(target)) return "other";
  const query = target.indexOf("?");
  const path = query < 0 ? target : target.slice(0, query);
  const rpcPath = RPC_PATH.exec(path);
  if (!rpcPath) return "other";
  if (!HEADER_LINES.test(text.slice(lineEnd + 2))) return "other";
  const lower = text.toLowerCase();
  for (const name of HANDED_OVER) if (lower.includes(name)) return "other";
  const length = headerValue(text, lower, CONTENT_LENGTH);
  if (length === undefined || length === null || !/^\d{1,9}$/.test(length)) return "other";
  const host = headerValue(text, lower, "\r\nhost:");
  const origin = headerValue(text, lower, "\r\norigin:");
  const connection = headerValue(text, lower, "\r\nconnection:");
  if (host === undefined || host === null || origin === null || connection === null) return "other";
  let close = false;
  if (connection !== undefined) {
    const options = connection
      .toLowerCase()
      .split(",")
      .map((option) => option.trim());
    if (options.includes("upgrade")) return "other";
    close = options.includes("close");
  }
  const lengthStart = text.indexOf(length, lower.indexOf(CONTENT_LENGTH) + CONTENT_LENGTH.length);
  return {
    path,
    access: rpcPath[1] as RpcAccess,
    key: rpcPath[2],
    origin,
    contentLength: Number(length),
    close,
    bodyStart: headEnd + 4,
    lengthStart,
    lengthEnd: lengthStart + length.length,
  };
}

/**
 * The head at the start of `data` when it is byte for byte `previous` (read from `previousBytes`, up to its body)
 * but for the Content-Length digits; null when it is not (or not yet whole). A client sends the same head call after
 * call, but for the length, so a connection reads a head in full once: after that, two byte comparisons and the
 * digits, and no string is made (the path and key are `previous`'s, so the maps they are looked up in find their
 * hashes computed). Whatever this returns, `readRpcCallHead` returns the same.
 */
export function readRepeatedHead(data: Buffer, previous: RpcCallHead, previousBytes: Buffer): RpcCallHead | null {
  const start = previous.lengthStart;
  if (data.length <= start || data.compare(previousBytes, 0, start, 0, start) !== 0) return null;
  let end = start;
  let length = 0;
  for (; end < data.length && end - start <= 9; end += 1) {
    const digit = data[end] - 0x30;
    if (digit < 0 || digit > 9) break;
    length = length * 10 + digit;
  }
  if (end === start || end - start > 9) return null;
  const rest = previous.bodyStart - previous.lengthEnd;
  const bodyStart = end + rest;
  if (bodyStart - 4 > MAX_HEAD_BYTES || data.length < bodyStart) return null;
  if (data.compare(previousBytes, previous.lengthEnd, previous.bodyStart, end, bodyStart) !== 0) return null;
  return { ...previous, contentLength: length, bodyStart, lengthEnd: end };
}

/** A header's value (spaces and tabs around it removed); undefined when absent, null when it appears more than once. */
function headerValue(text: string, lower: string, name: string): string | undefined | null {
  const at = lower.indexOf(name);
  if (at < 0) return undefined;
  if (lower.indexOf(name, at + name.length) >= 0) return null;
  const start = at + name.length;
  return text.slice(start, text.indexOf("\r\n", start)).replace(/^[ \t]+|[ \t]+$/g, "");
}

/**
 * An answer as the bytes to write: its head made as one Latin-1 string, then copied with the body into one buffer
 * (two copies in all, where writing each piece of the head into the buffer took a call into C++ per piece). Numbers
 * are never converted to strings: V8 keeps the string of each number it converts in a cache in the old generation,
 * so a number that changes every call (`X-Svc-Remaining`) would leave a string per call there, kept alive by that
 * cache past every young-generation collection. At tens of thousands of calls a second that was a full collection
 * every two seconds (docs/performance.md "RPC URLs"). A count's text is put together from strings made once
 * (`countText`).
 */
export function encodeRpcReply(reply: RpcReply, close: boolean, keepAliveSeconds: number, date: string): Buffer {
  const body = typeof reply.body === "string" ? Buffer.from(reply.body) : reply.body;
  const { headers } = reply;
  let head = STATUS_LINE[reply.status];
  for (const name in headers) {
    if (name === "connection") continue;
    const value = headers[name];
    head += `${name}: ${isCount(value) ? countText(value) : String(value)}\r\n`;
  }
  head += `${LENGTH_NAME}${countText(body.length)}${DATE_NAME}${date}${close ? CLOSE_ENDING : KEEP_ALIVE_ENDING + countText(keepAliveSeconds)}\r\n\r\n`;
  // Latin-1: one byte per character, so the head's length is its size in bytes.
  const bytes = Buffer.allocUnsafe(head.length + body.length);
  bytes.write(head, 0, "latin1");
  body.copy(bytes, head.length);
  return bytes;
}

const LENGTH_NAME = "content-length: ";
const DATE_NAME = "\r\ndate: ";
const CLOSE_ENDING = "\r\nconnection: close";
const KEEP_ALIVE_ENDING = "\r\nconnection: keep-alive\r\nkeep-alive: timeout=";

/** Whether a header's value is written as a count: a whole number from 0 to 2^53 - 1. */
function isCount(value: string | number): value is number {
  return typeof value === "number" && Number.isSafeInteger(value) && value >= 0;
}

/** The text of 0 to 999, and of the same written with three digits ("007"): made once, when the module loads. */
const UNDER_1000 = Array.from({ length: 1000 }, (_, n) => String(n));
const THREE_DIGITS = UNDER_1000.map((text) => text.padStart(3, "0"));

/** A count's decimal text, joined from the strings above: no number is converted (see `encodeRpcReply`). */
export function countText(count: number): string {
  return count < 1000 ? UNDER_1000[count] : countText(Math.floor(count / 1000)) + THREE_DIGITS[count % 1000];
}

type ConnectionListener = (socket: Socket) => void;

/**
 * Reads the RPC URLs' calls off `server`'s plain-HTTP connections, handing the rest to the connection listeners it
 * has (Node's HTTP server), and connections whose calls pass through to `hop` when given. Returns a function that
 * ends the idle connections it holds and hands new ones to Node's server (on close, so that the server's close does
 * not wait for kept-alive callers).
 */
export function serveRpcConnections(server: Server, rpc: HttpRpc, hop: NativeHop | null = null): () => void {
  const listeners = server.listeners("connection") as ConnectionListener[];
  server.removeAllListeners("connection");
  const handOver: ConnectionListener = (socket) => {
    for (const listener of listeners) listener.call(server, socket);
  };
  const open = new Set<RpcConnection>();
  let active = true;
  const serve = (socket: Socket, read: Buffer | null = null, counted: RateDecision | null = null) => {
    if (!active) {
      if (read !== null && read.length > 0) socket.unshift(read);
      return handOver(socket);
    }
    const connection = new RpcConnection(socket, rpc, server.keepAliveTimeout, handOver, () => open.delete(connection), hop);
    open.add(connection);
    if (read !== null && read.length > 0) connection.start(read, counted);
  };
  server.on("connection", (socket: Socket) => serve(socket));
  if (hop !== null) hop.onHandBack = serve;
  return () => {
    active = false;
    for (const connection of open) connection.closeWhenIdle();
  };
}

/** One caller's connection, while it sends calls this module answers. */
class RpcConnection {
  private buffered: Buffer | null = null;
  private busy = false;
  /** The service is closing: end once idle. */
  private closing = false;
  /** The caller ended its side: answer what is under way, then end ours, as Node's server does. */
  private callerEnded = false;
  /** Reading stopped: too much read ahead of the call under way, or the caller not reading its answers. */
  private held = false;
  private arrivalStarted = 0;
  /** The last head read in full, and its bytes up to its body (`readRepeatedHead`). */
  private lastHead: { readonly head: RpcCallHead; readonly bytes: Buffer } | null = null;
  /** `next` is answering calls: an answer given at once must not start it again. */
  private dispatching = false;
  /** The connection is ending: no more calls are answered. */
  private ending = false;
  /** The call under way asked to close the connection after its answer. */
  private callerCloses = false;
  /** The head of the call under way. */
  private head: RpcCallHead | null = null;
  /** The first call's rate decision, when the native hop counted it before handing the connection back. */
  private counted: RateDecision | null = null;
  private readonly onData = (chunk: Buffer) => this.read(chunk);
  // Idle for the keep-alive time: ended. A call the chain takes long over is not idle.
  private readonly onTimeout = () => this.busy || this.socket.destroy();
  private readonly onError = () => this.socket.destroy();
  private readonly onClose = () => this.done();
  private readonly onEnd = () => {
    this.callerEnded = true;
    if (!this.busy) this.finish();
  };
  private readonly onDrain = () => this.release();
  private readonly onAnswer = (reply: RpcReply) => this.answered(reply);
  private readonly onFailure = () => this.socket.destroy();

  constructor(
    private readonly socket: Socket,
    private readonly rpc: HttpRpc,
    private readonly keepAliveMs: number,
    private readonly handOver: ConnectionListener,
    private readonly done: () => void,
    private readonly hop: NativeHop | null,
  ) {
    socket.setNoDelay(true);
    socket.setTimeout(keepAliveMs);
    socket.on("data", this.onData);
    socket.on("timeout", this.onTimeout);
    socket.on("error", this.onError);
    socket.on("close", this.onClose);
    socket.on("end", this.onEnd);
  }

  /** Goes on with bytes read before this connection took the socket (handed back by the native hop). */
  start(read: Buffer, counted: RateDecision | null): void {
    this.counted = counted;
    this.read(read);
  }

  /** Ends the connection now if no call is under way or arriving, else after the call's answer. */
  closeWhenIdle(): void {
    this.closing = true;
    if (!this.busy && this.buffered === null) this.finish();
  }

  /** Ends the connection once the last answer is written, and lets go of it even if the caller keeps its side open. */
  private finish(): void {
    this.ending = true;
    this.socket.end(() => this.socket.destroy());
  }

  private read(chunk: Buffer): void {
    if (this.buffered === null) {
      this.buffered = chunk;
      this.arrivalStarted = Date.now();
    } else {
      this.buffered = Buffer.concat([this.buffered, chunk]);
    }
    if (this.busy) {
      // Calls sent ahead of their turn wait; past one call's worth, reading waits too.
      if (this.buffered.length > this.rpc.bodyLimit + MAX_HEAD_BYTES) this.hold();
      return;
    }
    // A call arriving this slowly is for Node's server, which times it by its own clocks (408).
    if (Date.now() - this.arrivalStarted > REQUEST_ARRIVAL_MS) return this.giveAway();
    this.next();
  }

  /**
   * Answers the calls at the head of what was read, one at a time, while they are whole. An answer may come at once
   * (a 429, a 404), inside `rpc.answer`: this loop, not recursion, then goes on with the calls read ahead.
   */
  private next(): void {
    if (this.dispatching) return;
    this.dispatching = true;
    try {
      while (!this.busy && !this.held && !this.ending && this.buffered !== null && !this.socket.destroyed) {
        const data = this.buffered;
        let head: RpcCallHead | "other" | null = this.lastHead && readRepeatedHead(data, this.lastHead.head, this.lastHead.bytes);
        if (head === null) {
          head = readRpcCallHead(data);
          if (head === null) return;
          if (head !== "other") this.lastHead = { head, bytes: Buffer.from(data.subarray(0, head.bodyStart)) };
        }
        if (head === "other" || head.contentLength > this.rpc.bodyLimit) return this.giveAway();
        const end = head.bodyStart + head.contentLength;
        if (data.length < end) return;
        const body = data.subarray(head.bodyStart, end);
        this.buffered = end < data.length ? data.subarray(end) : null;
        this.busy = true;
        this.callerCloses = head.close;
        this.head = head;
        const counted = this.counted;
        this.counted = null;
        this.rpc.answer(head.path, head.access, head.key, head.origin, body, this.onAnswer, this.onFailure, counted);
      }
    } finally {
      this.dispatching = false;
    }
  }

  private answered(reply: RpcReply): void {
    this.busy = false;
    if (this.socket.destroyed) return;
    const close = this.callerCloses || this.callerEnded || reply.close === true || (this.closing && this.buffered === null);
    const flushed = this.socket.write(encodeRpcReply(reply, close, Math.floor(this.keepAliveMs / 1000), httpDate()));
    if (close) return this.finish();
    if (flushed && reply.passedThrough !== undefined && this.handToHop(reply.passedThrough)) return;
    if (flushed) return this.release();
    // A caller that does not read its answers gets no more until it does.
    this.hold();
    this.socket.once("drain", this.onDrain);
  }

  /**
   * Hands the connection to the native hop after a call that passed through, when the answer is written and nothing
   * is held: the hop answers the calls that follow while they pass through too. False when it does not take it.
   */
  private handToHop(passed: NonNullable<RpcReply["passedThrough"]>): boolean {
    const head = this.head;
    if (this.hop === null || head === null || head.origin !== undefined || this.held || this.closing || this.callerEnded) return false;
    if (!this.hop.offer(this.socket, this.buffered, head.access, head.key, passed.vnetId, passed.method)) return false;
    this.ending = true;
    this.buffered = null;
    this.done();
    return true;
  }

  private hold(): void {
    if (this.held) return;
    this.held = true;
    this.socket.pause();
  }

  /** Reads again, and goes on with the calls read ahead: their arrival is timed from their turn. */
  private release(): void {
    if (this.held) {
      this.held = false;
      this.socket.resume();
    }
    if (this.buffered !== null) this.arrivalStarted = Date.now();
    this.next();
  }

  /** Hands the connection, with the bytes not yet answered, to Node's HTTP server. */
  private giveAway(): void {
    // Bytes cannot be put back once the caller has ended: Node's server would end the connection too. The connection
    // stays ours (its error and close listeners too) until it closes.
    if (this.callerEnded) return this.finish();
    this.socket.off("data", this.onData);
    this.socket.off("timeout", this.onTimeout);
    this.socket.off("error", this.onError);
    this.socket.off("close", this.onClose);
    this.socket.off("end", this.onEnd);
    this.socket.off("drain", this.onDrain);
    this.socket.setTimeout(0);
    this.done();
    if (this.buffered !== null) this.socket.unshift(this.buffered);
    this.buffered = null;
    if (this.held) this.socket.resume();
    this.handOver(this.socket);
  }
}

let dateSecond = 0;
let dateText = "";

/** The Date header's value, made once a second. */
function httpDate(): string {
  const now = Date.now();
  const second = Math.floor(now / 1000);
  if (second !== dateSecond) {
    dateSecond = second;
    dateText = new Date(now).toUTCString();
  }
  return dateText;
}
