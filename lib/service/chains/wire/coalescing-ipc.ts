/**
 * Single pass-through calls from many callers on one IPC socket to a node (`CoalescingIpc`), with the id swap that
 * makes it possible.
 */
import { connect, type Socket } from "node:net";
import { ChainTimeoutError, DEFAULT_RPC_TIMEOUT_MS } from "./chain-timeout";
import { PendingBytes } from "./pending-bytes";
import { NEWLINE } from "./socket-framing";

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
 * the general path; the next call opens a new socket. A call not answered within the deadline (`timeoutMs`,
 * ./chain-timeout.ts) gets `ChainTimeoutError`, and the socket is dropped with it (the calls still in flight on it
 * take the general path, which has its own deadline): one timer for the oldest call in flight, not one per call.
 */
export class CoalescingIpc {
  private socket: Socket | null = null;
  /**
   * Calls in flight, at our id (ids are small and reused, so the array is as long as the most calls ever in flight at
   * once). Not a Map: a Map that takes and drops an entry per call is rebuilt every few calls, and V8 links each
   * rebuilt table from the one before; once one of them is old, every later table, with the calls and requests its
   * entries hold, survives young collections, which then copy all of it (docs/performance.md "RPC URLs").
   */
  private waiting: (Waiting | undefined)[] = [];
  /** Looks at the oldest call in flight when its deadline comes; armed while calls are in flight. */
  private deadlineTimer: NodeJS.Timeout | null = null;
  private queued = "";
  private flushing = false;
  /** The next id of ours never used on this socket, and those used and answered, free again. */
  private nextId = 1;
  private freeIds: number[] = [];
  /** The start of an answer line, while the rest is on its way. */
  private readonly partial = new PendingBytes();
  private closed = false;
  private readonly flush = () => this.write();

  constructor(
    private readonly path: string,
    /** The deadline of one call (./chain-timeout.ts). */
    private readonly timeoutMs: number = DEFAULT_RPC_TIMEOUT_MS,
  ) {}

  /**
   * Sends a single call, `request` parsed from `text`; `done` gets the node's answer with the caller's id, null
   * when the node could not be reached or answered in a way this does not read, or `ChainTimeoutError` past the
   * deadline. False, with nothing sent, when the call cannot go this way (its id is not found as described below).
   */
  call(request: { readonly id?: unknown }, text: string, done: CallDone): boolean {
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
    this.waiting[id] = { callerId, done, deadline: Date.now() + this.timeoutMs };
    if (this.deadlineTimer === null) this.armDeadline(this.timeoutMs);
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

  private armDeadline(delayMs: number): void {
    this.deadlineTimer = setTimeout(() => this.checkDeadline(), delayMs);
    this.deadlineTimer.unref();
  }

  /** Fails the calls past their deadline (and drops the socket), or waits for the oldest call's deadline. */
  private checkDeadline(): void {
    this.deadlineTimer = null;
    let first = Infinity;
    for (const call of this.waiting) if (call !== undefined && call.deadline < first) first = call.deadline;
    if (first === Infinity) return; // nothing in flight
    const left = first - Date.now();
    if (left > 0) return this.armDeadline(left);
    this.fail(this.socket, new ChainTimeoutError(this.timeoutMs));
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
    const call = this.waiting[id];
    if (call === undefined || idEnd === idStart || line[idEnd] !== 0x2c /* , */) return false;
    this.waiting[id] = undefined;
    this.freeIds.push(id);
    const callerIdLength = Buffer.byteLength(call.callerId);
    const answer = Buffer.allocUnsafe(line.length - (idEnd - idStart) + callerIdLength);
    line.copy(answer, 0, 0, idStart);
    answer.write(call.callerId, idStart, "utf8");
    line.copy(answer, idStart + callerIdLength, idEnd);
    call.done(answer);
    return true;
  }

  /**
   * Fails every call in flight and drops the socket (only `socket`'s failure, when given: a newer one stays). With
   * `timeout`, the calls past their deadline get it and the others null.
   */
  private fail(socket: Socket | null = this.socket, timeout?: ChainTimeoutError): void {
    if (socket !== this.socket) return;
    this.socket = null;
    socket?.destroy();
    this.queued = "";
    this.partial.clear();
    const calls = this.waiting.filter((call) => call !== undefined);
    this.waiting = [];
    this.nextId = 1;
    this.freeIds = [];
    if (this.deadlineTimer) clearTimeout(this.deadlineTimer);
    this.deadlineTimer = null;
    const now = Date.now();
    for (const call of calls) call.done(timeout && call.deadline <= now ? timeout : null);
  }
}

/** What a caller of `CoalescingIpc.call` is given: the answer, null (take the general path), or the deadline's error. */
export type CallDone = (answer: Buffer | ChainTimeoutError | null) => void;

/** A call in flight. */
interface Waiting {
  /** The caller's id as it goes back in the answer. */
  readonly callerId: string;
  readonly done: CallDone;
  /** When it fails, `Date.now()` time. */
  readonly deadline: number;
}
