/**
 * The RPC proxy's way to a chain for the calls it passes through: kept-alive sockets to one node, one call at a
 * time per socket, the answer handed back as bytes. Two framings:
 * - `ipc`: anvil's IPC socket (`--ipc PATH`, a Unix socket), a JSON-RPC body in, one line out. The cheapest way in:
 *   no HTTP on either side, and a Unix socket's write costs the kernel a fraction of a loopback TCP write
 *   (docs/performance.md "RPC URLs").
 * - `http`: HTTP/1.1 POSTs, the answer read by its Content-Length, for a node reached by URL only.
 * A read-only call through an RPC URL then costs the service little more than its socket writes and reads; undici's
 * general machinery (dispatcher, request and body objects, header parsing) was the largest part of the rest.
 * Anything this client does not expect (no Content-Length, a closed socket, extra bytes) fails the call, and the
 * caller takes its general path (`JsonRpcClient.send`, on undici).
 */
import { randomBytes } from "node:crypto";
import { readdirSync, rmSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A node's answer: its HTTP status and body. */
export interface RawAnswer {
  readonly status: number;
  readonly body: Buffer;
}

/** Where a node is: `{ http: "http://127.0.0.1:8545" }` or `{ ipc: "/tmp/anvil.ipc" }`. */
export type ChainAddress = { readonly http: string } | { readonly ipc: string };

/** How calls are written to a socket and answers found in what it sends back. */
interface Framing {
  encode(body: Buffer): Buffer;
  /** Whether an answer may end in this chunk (else it is kept, unread, until one that may: a large answer is joined once). */
  mayEnd(chunk: Buffer): boolean;
  /** The answer at the start of `data` once it is whole; null while it is not; throws when it is not one. */
  decode(data: Buffer): { answer: RawAnswer; end: number; close: boolean } | null;
}

const HEADER_END = Buffer.from("\r\n\r\n");
const NEWLINE = 0x0a;
const CONTENT_LENGTH = /\r\ncontent-length:[ \t]*(\d+)/i;
const CONNECTION_CLOSE = /\r\nconnection:[ \t]*close/i;

function httpFraming(url: URL): Framing {
  const head = `POST ${url.pathname || "/"} HTTP/1.1\r\nhost: ${url.host}\r\ncontent-type: application/json\r\ncontent-length: `;
  return {
    encode: (body) => Buffer.concat([Buffer.from(`${head}${body.length}\r\n\r\n`, "latin1"), body]),
    mayEnd: () => true,
    decode(data) {
      const headerEnd = data.indexOf(HEADER_END);
      if (headerEnd < 0) return null;
      const header = data.toString("latin1", 0, headerEnd);
      const length = CONTENT_LENGTH.exec(header);
      if (!length) throw new Error("the chain answered without Content-Length");
      const end = headerEnd + 4 + Number(length[1]);
      if (data.length < end) return null;
      return {
        answer: { status: Number(header.slice(9, 12)), body: data.subarray(headerEnd + 4, end) },
        end,
        close: CONNECTION_CLOSE.test(header),
      };
    },
  };
}

/** anvil's IPC: a request as it is; each answer is one line (compact JSON holds no raw newline). */
const IPC_FRAMING: Framing = {
  encode: (body) => body,
  mayEnd: (chunk) => chunk.includes(NEWLINE),
  decode(data) {
    const newline = data.indexOf(NEWLINE);
    if (newline < 0) return null;
    return { answer: { status: 200, body: data.subarray(0, newline) }, end: newline + 1, close: false };
  },
};

/** Up to `maxSockets` kept-alive sockets to one node. */
export class ChainSocketPool {
  private readonly idle: RawConnection[] = [];
  private readonly queue: { resolve: (connection: RawConnection) => void; reject: (error: Error) => void }[] = [];
  private open = 0;
  private closed = false;
  private readonly framing: Framing;
  private readonly connectTo: () => Socket;

  constructor(
    address: ChainAddress,
    private readonly maxSockets: number,
  ) {
    if ("ipc" in address) {
      this.framing = IPC_FRAMING;
      this.connectTo = () => connect({ path: address.ipc });
    } else {
      const url = new URL(address.http);
      if (url.protocol !== "http:") throw new Error(`ChainSocketPool speaks plain HTTP only, not ${url.protocol}`);
      this.framing = httpFraming(url);
      const host = url.hostname.replace(/^\[|\]$/g, "");
      const port = Number(url.port || 80);
      this.connectTo = () => connect({ host, port, noDelay: true });
    }
  }

  /** POSTs a JSON body; rejects when the socket fails or the answer is not one this client reads. */
  async post(body: Buffer | string): Promise<RawAnswer> {
    if (this.closed) throw new Error("the connection pool is closed");
    const connection =
      this.idle.pop() ??
      (this.open < this.maxSockets
        ? this.connect()
        : await new Promise<RawConnection>((resolve, reject) => this.queue.push({ resolve, reject })));
    const payload = typeof body === "string" ? Buffer.from(body) : body;
    return new Promise((resolve, reject) =>
      this.send(connection, payload, (answer) => (answer instanceof Error ? reject(answer) : resolve(answer))),
    );
  }

  /**
   * POSTs a JSON body at once if a socket is free (idle, or a new one under the cap), calling `done` with the answer
   * or the failure; false, with nothing sent, when every socket is busy. The RPC URLs' pass-through calls come this
   * way: a callback, no promise (a promise and its turn of the microtask queue cost a call more than the chain's
   * own IPC read and write).
   */
  postNow(body: Buffer, done: (answer: RawAnswer | Error) => void): boolean {
    if (this.closed) return false;
    const connection = this.idle.pop() ?? (this.open < this.maxSockets ? this.connect() : null);
    if (connection === null) return false;
    this.send(connection, body, done);
    return true;
  }

  private send(connection: RawConnection, payload: Buffer, done: (answer: RawAnswer | Error) => void): void {
    connection.post(this.framing.encode(payload), (answer) => {
      this.release(connection);
      done(answer);
    });
  }

  /** Closes every socket. */
  close(): void {
    this.closed = true;
    for (const connection of this.idle.splice(0)) connection.destroy();
    for (const waiter of this.queue.splice(0)) waiter.reject(new Error("the connection pool is closed"));
  }

  private connect(): RawConnection {
    this.open += 1;
    const connection: RawConnection = new RawConnection(this.connectTo(), this.framing, () => {
      this.open -= 1;
      const index = this.idle.indexOf(connection);
      if (index >= 0) this.idle.splice(index, 1);
      // A caller waiting for a socket gets a fresh one in place of this one.
      const waiter = this.queue.shift();
      if (waiter && !this.closed) waiter.resolve(this.connect());
    });
    return connection;
  }

  private release(connection: RawConnection): void {
    if (!connection.usable || this.closed) {
      connection.destroy(); // its close hands a waiter a fresh socket
      return;
    }
    const waiter = this.queue.shift();
    if (waiter) waiter.resolve(connection);
    else this.idle.push(connection);
  }
}

/**
 * The bytes of an answer (or a line) that came in parts, kept until the chunk that may end it: then joined once, so a
 * large answer in many chunks is copied once, not on every chunk.
 */
class PendingBytes {
  private readonly parts: Buffer[] = [];
  private size = 0;

  /** Keeps bytes until the next chunk. */
  keep(bytes: Buffer): void {
    this.parts.push(bytes);
    this.size += bytes.length;
  }

  /** The bytes kept and `chunk` after them, as one buffer (`chunk` itself when none are kept); none are kept after. */
  with(chunk: Buffer): Buffer {
    if (this.parts.length === 0) return chunk;
    this.parts.push(chunk);
    const joined = Buffer.concat(this.parts, this.size + chunk.length);
    this.clear();
    return joined;
  }

  clear(): void {
    this.parts.length = 0;
    this.size = 0;
  }
}

/** One socket: one call at a time. */
class RawConnection {
  /** An answer's first parts, while the rest is on its way. */
  private readonly partial = new PendingBytes();
  private pending: ((answer: RawAnswer | Error) => void) | null = null;
  private alive = true;

  constructor(
    private readonly socket: Socket,
    private readonly framing: Framing,
    private readonly onClose: () => void,
  ) {
    socket.setKeepAlive(true);
    socket.on("data", (chunk: Buffer) => this.read(chunk));
    socket.on("error", (error) => this.fail(error));
    socket.on("close", () => {
      this.fail(new Error("the chain closed the connection"));
      this.onClose();
    });
  }

  get usable(): boolean {
    return this.alive && this.pending === null;
  }

  /** Writes a request; `done` gets the answer, or the failure (once). */
  post(request: Buffer, done: (answer: RawAnswer | Error) => void): void {
    if (!this.alive) return done(new Error("the connection is closed"));
    this.pending = done;
    this.socket.write(request);
  }

  destroy(): void {
    this.alive = false;
    this.socket.destroy();
  }

  private read(chunk: Buffer): void {
    if (!this.pending) return this.fail(new Error("the chain sent bytes nobody asked for"));
    if (!this.framing.mayEnd(chunk)) return this.partial.keep(chunk);
    const data = this.partial.with(chunk);
    let decoded: ReturnType<Framing["decode"]>;
    try {
      decoded = this.framing.decode(data);
    } catch (error) {
      return this.fail(error as Error);
    }
    if (!decoded) return this.partial.keep(data);
    if (data.length > decoded.end) return this.fail(new Error("the chain answered more than asked"));
    const done = this.pending;
    this.pending = null;
    if (decoded.close) this.alive = false;
    done(decoded.answer);
  }

  private fail(error: Error): void {
    this.alive = false;
    const pending = this.pending;
    this.pending = null;
    pending?.(error);
    this.socket.destroy();
  }
}

const IPC_PREFIX = "chainform-anvil-";
let staleSwept = false;

/**
 * A fresh path for a node's IPC socket in the temp directory, named after this process. anvil leaves its socket
 * file behind and a SIGKILLed service removes nothing, so the first call also removes the sockets of processes
 * that no longer exist.
 */
export function ipcSocketPath(): string {
  const dir = tmpdir();
  if (!staleSwept) {
    staleSwept = true;
    for (const name of readdirSync(dir).filter((n) => n.startsWith(IPC_PREFIX) && n.endsWith(".ipc"))) {
      const pid = Number(name.slice(IPC_PREFIX.length).split("-")[0]);
      if (pid > 0 && pid !== process.pid && !processExists(pid)) rmSync(join(dir, name), { force: true });
    }
  }
  return join(dir, `${IPC_PREFIX}${process.pid}-${randomBytes(6).toString("hex")}.ipc`);
}

function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** How anvil's IPC answer to a single call begins, before the id (serde writes its members in this order). */
const ANSWER_PREFIX = Buffer.from('{"jsonrpc":"2.0","id":', "latin1");
/** The name of a call's id member, quoted. */
const ID_NAME = '"id"';
/** What may follow a member's value in JSON: whitespace, a comma, the object's end (not `.0` or `e0` of a number). */
const ID_ENDS: ReadonlySet<number> = new Set([0x20, 0x09, 0x0a, 0x0d, 0x2c, 0x7d]);

/**
 * The caller's id as it is written at `start` of `text` (a JSON member's value), when it is a string or a safe
 * integer written there as JSON.stringify writes it: the text that goes back in the answer. Null otherwise. Read
 * from the text rather than made by JSON.stringify, so that a numeric id, new on every call, is never made a string
 * (see `CoalescingIpc.call`).
 */
function canonicalId(id: unknown, text: string, start: number): string | null {
  let end = start;
  if (typeof id === "string") {
    // With no backslash in the text (the caller checks), the characters between the quotes are the string's own: a
    // control character cannot be in JSON text raw, and a lone surrogate is not in text decoded from UTF-8.
    if (text.charCodeAt(start) !== 0x22 /* " */ || !text.startsWith(id, start + 1)) return null;
    end = start + id.length + 1;
    if (text.charCodeAt(end) !== 0x22) return null;
    end += 1;
  } else if (typeof id === "number" && Number.isSafeInteger(id) && !Object.is(id, -0)) {
    // Its digits, after a minus sign when negative, with no leading zero (`-0`, `01`, and `1.0` or `1e0`, which the
    // caller's look at what follows refuses, are written otherwise by JSON.stringify).
    if (id < 0) {
      if (text.charCodeAt(end) !== 0x2d /* - */) return null;
      end += 1;
    }
    const digits = end;
    let value = 0;
    for (; end < text.length && end - digits < 16; end += 1) {
      const digit = text.charCodeAt(end) - 0x30;
      if (digit < 0 || digit > 9) break;
      value = value * 10 + digit;
    }
    if (end === digits || value !== Math.abs(id) || (text.charCodeAt(digits) === 0x30 && end - digits > 1)) return null;
  } else return null;
  return text.slice(start, end);
}

/**
 * Single calls from many callers on one IPC socket to a node: each call goes with an id of ours, the calls of one
 * turn of the event loop go in one write, and each answer is matched by its id and given back with the caller's id
 * in place of ours. anvil answers the calls of one socket as each is done (not in order), which the ids sort out.
 * At 16 connections this halves the writes and reads between the service and anvil and lets anvil read many calls
 * at a time (docs/performance.md "RPC URLs": a proxy doing only this answered 0.95 of anvil's throughput where one
 * call per socket reached 0.86).
 *
 * A call is taken only when its id can be swapped in its text and put back in the answer byte for byte (see `call`);
 * the rest of its text goes to anvil as the caller wrote it. Anything unexpected from anvil (an
 * answer that does not begin as anvil's do, an id not waited for) fails every call in flight, whose callers take
 * the general path; the next call opens a new socket.
 */
export class CoalescingIpc {
  private socket: Socket | null = null;
  private readonly waiting = new Map<number, { readonly callerId: string; readonly done: (answer: Buffer | null) => void }>();
  private queued = "";
  private flushing = false;
  /** The next id of ours never used on this socket, and those used and answered, free again. */
  private nextId = 1;
  private freeIds: number[] = [];
  /** The start of an answer line, while the rest is on its way. */
  private readonly partial = new PendingBytes();
  private closed = false;
  private readonly flush = () => this.write();

  constructor(private readonly path: string) {}

  /**
   * Sends a single call, `request` parsed from `text`; `done` gets the node's answer with the caller's id, or null
   * when the node could not be reached or answered in a way this does not read. False, with nothing sent, when the
   * call cannot go this way (its id is not found as described below).
   */
  call(request: { readonly id?: unknown }, text: string, done: (answer: Buffer | null) => void): boolean {
    // The id is swapped in the caller's text, not by writing the call again. That is safe only where the text's one
    // `"id"` is the call's own id member: so no backslash (a member name could be escaped: `"\u0069d"`), `"id"` once
    // (not also inside the params), followed by a colon and the id exactly as JSON.stringify writes it.
    if (this.closed || text.includes("\\")) return false;
    const at = text.indexOf(ID_NAME);
    if (at < 0 || text.includes(ID_NAME, at + ID_NAME.length) || text.charCodeAt(at + ID_NAME.length) !== 0x3a /* : */) return false;
    const idStart = at + ID_NAME.length + 1;
    const callerId = canonicalId(request.id, text, idStart);
    if (callerId === null || !ID_ENDS.has(text.charCodeAt(idStart + callerId.length))) return false;
    // Ids of ours are reused once answered, so that few distinct numbers are ever made strings (V8 keeps each such
    // string in a cache that outlives young objects: docs/performance.md "RPC URLs").
    const id = this.freeIds.pop() ?? this.nextId++;
    this.waiting.set(id, { callerId, done });
    this.queued += `${text.slice(0, idStart)}${id}${text.slice(idStart + callerId.length)}\n`;
    if (!this.flushing) {
      this.flushing = true;
      setImmediate(this.flush);
    }
    return true;
  }

  /** Closes the socket; calls in flight get null. */
  close(): void {
    this.closed = true;
    this.fail();
  }

  private write(): void {
    this.flushing = false;
    if (this.queued === "") return;
    const socket = this.socket ?? this.connect();
    socket.write(this.queued, "utf8");
    this.queued = "";
  }

  private connect(): Socket {
    const socket = connect({ path: this.path });
    this.socket = socket;
    socket.on("data", (chunk: Buffer) => this.read(chunk));
    socket.on("error", () => this.fail(socket));
    socket.on("close", () => this.fail(socket));
    return socket;
  }

  private read(chunk: Buffer): void {
    if (!chunk.includes(NEWLINE)) return this.partial.keep(chunk);
    const data = this.partial.with(chunk);
    let start = 0;
    for (let newline = data.indexOf(NEWLINE); newline >= 0; newline = data.indexOf(NEWLINE, start)) {
      if (!this.answer(data.subarray(start, newline))) return this.fail();
      start = newline + 1;
    }
    if (start < data.length) this.partial.keep(data.subarray(start));
  }

  /** Gives an answer line to its caller; false when it is not an answer this reads. */
  private answer(line: Buffer): boolean {
    const idStart = ANSWER_PREFIX.length;
    if (line.length <= idStart || line.compare(ANSWER_PREFIX, 0, idStart, 0, idStart) !== 0) return false;
    let idEnd = idStart;
    let id = 0;
    for (; idEnd < line.length && idEnd - idStart < 11; idEnd += 1) {
      const digit = line[idEnd] - 0x30;
      if (digit < 0 || digit > 9) break;
      id = id * 10 + digit;
    }
    const call = this.waiting.get(id);
    if (call === undefined || idEnd === idStart || line[idEnd] !== 0x2c /* , */) return false;
    this.waiting.delete(id);
    this.freeIds.push(id);
    const callerIdLength = Buffer.byteLength(call.callerId);
    const answer = Buffer.allocUnsafe(line.length - (idEnd - idStart) + callerIdLength);
    line.copy(answer, 0, 0, idStart);
    answer.write(call.callerId, idStart, "utf8");
    line.copy(answer, idStart + callerIdLength, idEnd);
    call.done(answer);
    return true;
  }

  /** Fails every call in flight and drops the socket (only `socket`'s failure, when given: a newer one stays). */
  private fail(socket: Socket | null = this.socket): void {
    if (socket !== this.socket) return;
    this.socket = null;
    socket?.destroy();
    this.queued = "";
    this.partial.clear();
    const calls = [...this.waiting.values()];
    this.waiting.clear();
    this.nextId = 1;
    this.freeIds = [];
    for (const call of calls) call.done(null);
  }
}
