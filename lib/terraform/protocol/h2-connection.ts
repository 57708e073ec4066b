/**
 * The server side of one HTTP/2 connection (RFC 9113), as much of it as a gRPC server of unary calls needs: it reads
 * requests (headers and a body) and writes responses (headers, body, trailers), with flow control both ways, PING,
 * SETTINGS, RST_STREAM and GOAWAY. No server push, no priorities, no streaming bodies.
 *
 * Why not node:http2: a provider process lives for one Terraform command, so its code runs in V8's interpreter, and
 * node:http2 costs each call about 0.9 ms of CPU there (a Duplex stream per call, its events and ticks), plus about
 * 10 ms to load in each of the 3-5 processes of a command. This keeps a call to a few plain function calls
 * (docs/performance.md has the figures).
 */
import type { Duplex } from "node:stream";
import { HpackDecoder, HpackError, type HeaderField } from "./hpack";

const PREFACE = Buffer.from("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", "latin1");

const DATA = 0x0;
const HEADERS = 0x1;
const RST_STREAM = 0x3;
const SETTINGS = 0x4;
const PUSH_PROMISE = 0x5;
const PING = 0x6;
const GOAWAY = 0x7;
const WINDOW_UPDATE = 0x8;
const CONTINUATION = 0x9;

const END_STREAM = 0x1;
const ACK = 0x1;
const END_HEADERS = 0x4;
const PADDED = 0x8;
const PRIORITY = 0x20;

const SETTINGS_INITIAL_WINDOW_SIZE = 0x4;
const SETTINGS_MAX_FRAME_SIZE = 0x5;

const PROTOCOL_ERROR = 0x1;
const INTERNAL_ERROR = 0x2;
const FLOW_CONTROL_ERROR = 0x3;
const FRAME_SIZE_ERROR = 0x6;
const COMPRESSION_ERROR = 0x9;

const DEFAULT_WINDOW = 65_535;
const MAX_WINDOW = 2 ** 31 - 1;
const MAX_FRAME_SIZE = 16_384; // what we accept: the protocol's default, never raised
const MAX_HEADER_BLOCK = 64 * 1024;

/** A request whose headers and whole body have arrived. */
export interface Http2Request {
  /** The stream's id; answer with {@link Http2ServerConnection.respond}. */
  readonly streamId: number;
  /** The header fields, pseudo-headers (`:path`, `:method`) included, in the order sent. */
  readonly headers: readonly HeaderField[];
  /** The body, or as much of it as `maxBodyBytes` allows. */
  readonly body: Buffer;
  /** The body's real size (more than `body.length` when it was over `maxBodyBytes`). */
  readonly bodySize: number;
}

/** Options of {@link Http2ServerConnection}. */
export interface Http2ConnectionOptions {
  /** Called once per request, when its body is complete. */
  onRequest(request: Http2Request): void;
  /** Called once, when the socket has closed. */
  onClose(): void;
  /** Where protocol errors are reported. */
  log(message: string): void;
  /** Bodies are kept up to this size; the rest is counted, not kept. */
  readonly maxBodyBytes: number;
}

interface Stream {
  readonly id: number;
  headers: readonly HeaderField[];
  chunks: Buffer[];
  size: number;
  sendWindow: number;
  // What remains to be sent: the body from `offset`, then the trailers (a header block that ends the stream).
  data?: Buffer;
  offset: number;
  trailers?: Buffer;
}

/** One HTTP/2 connection, server side, on an already-connected socket (TLS with ALPN h2, or plain TCP). */
export class Http2ServerConnection {
  private readonly decoder = new HpackDecoder();
  private readonly streams = new Map<number, Stream>();
  private readonly blocked = new Set<Stream>();
  private pending: Buffer = Buffer.alloc(0);
  private prefaceSeen = false;
  private headerBlock: { id: number; endStream: boolean; fragments: Buffer[]; size: number } | undefined;
  private lastStreamId = 0;
  private peerInitialWindow = DEFAULT_WINDOW;
  private peerMaxFrameSize = MAX_FRAME_SIZE;
  private sendWindow = DEFAULT_WINDOW;
  private received = 0; // bytes of DATA received since our last connection WINDOW_UPDATE
  private goingAway = false;
  private closed = false;

  constructor(
    private readonly socket: Duplex,
    private readonly options: Http2ConnectionOptions,
  ) {
    socket.on("data", (chunk: Buffer) => this.onData(chunk));
    socket.on("error", (error) => options.log(`HTTP/2 connection error: ${error.message}`));
    socket.on("close", () => {
      this.closed = true;
      this.streams.clear();
      this.blocked.clear();
      options.onClose();
    });
    // Our preface: SETTINGS (the largest stream window, so that requests never wait on us), and as much again for
    // the connection window, topped up as data arrives.
    const settings = Buffer.alloc(6);
    settings.writeUInt16BE(SETTINGS_INITIAL_WINDOW_SIZE, 0);
    settings.writeUInt32BE(MAX_WINDOW, 2);
    this.write([frame(SETTINGS, 0, 0, settings), windowUpdate(0, MAX_WINDOW - DEFAULT_WINDOW)]);
  }

  /**
   * Answers a request: a header block, then (optionally) a body and a trailer block. Without body and trailers the
   * header block ends the stream. A stream the client has reset, or a closed connection, is silently skipped.
   */
  respond(streamId: number, headerBlock: Buffer, body?: Buffer, trailerBlock?: Buffer): void {
    const stream = this.streams.get(streamId);
    if (!stream || this.closed) return;
    const ends = body === undefined && trailerBlock === undefined;
    const out = headerFrames(streamId, headerBlock, ends ? END_STREAM : 0, this.peerMaxFrameSize);
    if (ends) {
      this.finish(stream);
    } else {
      stream.data = body ?? Buffer.alloc(0);
      stream.offset = 0;
      stream.trailers = trailerBlock;
      this.flush(stream, out);
    }
    this.write(out);
  }

  /** Sends as much of the stream's body as both windows allow, then its trailers once the body is all out. */
  private flush(stream: Stream, out: Buffer[]): void {
    const data = stream.data!;
    while (stream.offset < data.length) {
      const size = Math.min(data.length - stream.offset, this.peerMaxFrameSize, stream.sendWindow, this.sendWindow);
      if (size <= 0) {
        this.blocked.add(stream);
        return;
      }
      out.push(frameHeader(size, DATA, 0, stream.id), data.subarray(stream.offset, stream.offset + size));
      stream.offset += size;
      stream.sendWindow -= size;
      this.sendWindow -= size;
    }
    if (stream.trailers) out.push(...headerFrames(stream.id, stream.trailers, END_STREAM, this.peerMaxFrameSize));
    else out.push(frameHeader(0, DATA, END_STREAM, stream.id));
    this.finish(stream);
  }

  private flushBlocked(): void {
    const out: Buffer[] = [];
    for (const stream of [...this.blocked]) this.flush(stream, out);
    this.write(out);
  }

  private finish(stream: Stream): void {
    this.streams.delete(stream.id);
    this.blocked.delete(stream);
  }

  /** Writes frames; once the client has said GOAWAY and the last stream is answered, also ends the connection. */
  private write(buffers: Buffer[]): void {
    if (buffers.length > 0 && !this.closed && this.socket.writable) {
      this.socket.write(buffers.length === 1 ? buffers[0]! : Buffer.concat(buffers));
    }
    if (this.goingAway && this.streams.size === 0) this.socket.end();
  }

  private onData(chunk: Buffer): void {
    if (this.closed) return;
    const buffer = this.pending.length > 0 ? Buffer.concat([this.pending, chunk]) : chunk;
    let at = 0;
    if (!this.prefaceSeen) {
      if (buffer.length < PREFACE.length) {
        this.pending = buffer;
        return;
      }
      if (!buffer.subarray(0, PREFACE.length).equals(PREFACE)) return this.fail(PROTOCOL_ERROR, "not an HTTP/2 client preface");
      this.prefaceSeen = true;
      at = PREFACE.length;
    }
    while (buffer.length - at >= 9) {
      const length = buffer.readUIntBE(at, 3);
      if (length > MAX_FRAME_SIZE) return this.fail(FRAME_SIZE_ERROR, `a frame of ${length} bytes`);
      if (buffer.length - at - 9 < length) break;
      const type = buffer[at + 3]!;
      const flags = buffer[at + 4]!;
      const streamId = buffer.readUInt32BE(at + 5) & 0x7fff_ffff;
      const payload = buffer.subarray(at + 9, at + 9 + length);
      at += 9 + length;
      this.onFrame(type, flags, streamId, payload);
      if (this.closed) return;
    }
    this.pending = at === buffer.length ? Buffer.alloc(0) : buffer.subarray(at);
  }

  private onFrame(type: number, flags: number, streamId: number, payload: Buffer): void {
    if (this.headerBlock && (type !== CONTINUATION || streamId !== this.headerBlock.id)) {
      return this.fail(PROTOCOL_ERROR, "a header block was interrupted");
    }
    switch (type) {
      case DATA:
        return this.onDataFrame(flags, streamId, payload);
      case HEADERS: {
        if (streamId === 0 || streamId % 2 === 0) return this.fail(PROTOCOL_ERROR, `HEADERS on stream ${streamId}`);
        let fragment = unpad(flags, payload);
        if (!fragment) return this.fail(PROTOCOL_ERROR, "bad padding");
        if (flags & PRIORITY) fragment = fragment.subarray(5);
        this.headerBlock = { id: streamId, endStream: (flags & END_STREAM) !== 0, fragments: [fragment], size: fragment.length };
        if (flags & END_HEADERS) this.onHeaderBlock();
        return;
      }
      case CONTINUATION: {
        const block = this.headerBlock;
        if (!block) return this.fail(PROTOCOL_ERROR, "CONTINUATION without HEADERS");
        block.fragments.push(payload);
        block.size += payload.length;
        if (block.size > MAX_HEADER_BLOCK) return this.fail(PROTOCOL_ERROR, "header block too large");
        if (flags & END_HEADERS) this.onHeaderBlock();
        return;
      }
      case RST_STREAM: {
        const stream = this.streams.get(streamId);
        if (stream) {
          this.streams.delete(streamId);
          this.blocked.delete(stream);
        }
        return;
      }
      case SETTINGS:
        if (flags & ACK) return;
        if (streamId !== 0 || payload.length % 6 !== 0) return this.fail(FRAME_SIZE_ERROR, "malformed SETTINGS");
        for (let at = 0; at < payload.length; at += 6) {
          const id = payload.readUInt16BE(at);
          const value = payload.readUInt32BE(at + 2);
          if (id === SETTINGS_INITIAL_WINDOW_SIZE) {
            if (value > MAX_WINDOW) return this.fail(FLOW_CONTROL_ERROR, "initial window too large");
            for (const stream of this.streams.values()) stream.sendWindow += value - this.peerInitialWindow;
            this.peerInitialWindow = value;
          } else if (id === SETTINGS_MAX_FRAME_SIZE) {
            if (value < MAX_FRAME_SIZE || value > 2 ** 24 - 1) return this.fail(PROTOCOL_ERROR, "bad max frame size");
            this.peerMaxFrameSize = value;
          }
        }
        this.write([frame(SETTINGS, ACK, 0, Buffer.alloc(0))]);
        return this.flushBlocked();
      case PUSH_PROMISE:
        return this.fail(PROTOCOL_ERROR, "PUSH_PROMISE from a client");
      case PING:
        if (payload.length !== 8) return this.fail(FRAME_SIZE_ERROR, "PING of the wrong size");
        if (!(flags & ACK)) this.write([frame(PING, ACK, 0, payload)]);
        return;
      case GOAWAY:
        this.goingAway = true;
        return this.write([]);
      case WINDOW_UPDATE: {
        if (payload.length !== 4) return this.fail(FRAME_SIZE_ERROR, "WINDOW_UPDATE of the wrong size");
        const increment = payload.readUInt32BE(0) & 0x7fff_ffff;
        if (streamId === 0) {
          this.sendWindow += increment;
          return this.flushBlocked();
        }
        const stream = this.streams.get(streamId);
        if (!stream) return;
        stream.sendWindow += increment;
        if (this.blocked.has(stream)) {
          const out: Buffer[] = [];
          this.flush(stream, out);
          this.write(out);
        }
        return;
      }
      default:
        return; // PRIORITY and unknown frame types are ignored, as RFC 9113 requires
    }
  }

  private onDataFrame(flags: number, streamId: number, payload: Buffer): void {
    if (streamId === 0) return this.fail(PROTOCOL_ERROR, "DATA on stream 0");
    // Flow control counts the whole frame, padding included.
    this.received += payload.length;
    if (this.received >= MAX_WINDOW / 2) {
      this.write([windowUpdate(0, this.received)]);
      this.received = 0;
    }
    const stream = this.streams.get(streamId);
    if (!stream || stream.data) return; // reset, answered, or closed: the data is dropped
    const data = unpad(flags, payload);
    if (!data) return this.fail(PROTOCOL_ERROR, "bad padding");
    stream.size += data.length;
    if (stream.size <= this.options.maxBodyBytes) stream.chunks.push(data);
    if (flags & END_STREAM) this.complete(stream);
  }

  private onHeaderBlock(): void {
    const block = this.headerBlock!;
    this.headerBlock = undefined;
    let headers: HeaderField[];
    try {
      headers = this.decoder.decode(block.fragments.length === 1 ? block.fragments[0]! : Buffer.concat(block.fragments));
    } catch (error) {
      if (error instanceof HpackError) return this.fail(COMPRESSION_ERROR, error.message);
      throw error;
    }
    const existing = this.streams.get(block.id);
    if (existing) {
      // Trailers from the client: nothing in them matters to a unary server, but they may end the request.
      if (block.endStream) this.complete(existing);
      return;
    }
    if (block.id <= this.lastStreamId) return; // a stream that is already over
    this.lastStreamId = block.id;
    const stream: Stream = { id: block.id, headers, chunks: [], size: 0, sendWindow: this.peerInitialWindow, offset: 0 };
    this.streams.set(stream.id, stream);
    if (block.endStream) this.complete(stream);
  }

  private complete(stream: Stream): void {
    const body = stream.chunks.length === 1 ? stream.chunks[0]! : Buffer.concat(stream.chunks);
    stream.chunks = [];
    try {
      this.options.onRequest({ streamId: stream.id, headers: stream.headers, body, bodySize: stream.size });
    } catch (error) {
      // A bug in the caller must not take the connection (and every other call on it) down.
      this.options.log(`HTTP/2 request handler failed: ${error instanceof Error ? error.stack : String(error)}`);
      this.streams.delete(stream.id);
      const code = Buffer.alloc(4);
      code.writeUInt32BE(INTERNAL_ERROR, 0);
      this.write([frame(RST_STREAM, 0, stream.id, code)]);
    }
  }

  private fail(code: number, message: string): void {
    this.options.log(`HTTP/2 protocol error: ${message}`);
    const payload = Buffer.alloc(8);
    payload.writeUInt32BE(this.lastStreamId, 0);
    payload.writeUInt32BE(code, 4);
    this.write([frame(GOAWAY, 0, 0, payload)]);
    this.closed = true;
    this.socket.end();
  }
}

function frameHeader(length: number, type: number, flags: number, streamId: number): Buffer {
  const header = Buffer.allocUnsafe(9);
  header.writeUIntBE(length, 0, 3);
  header[3] = type;
  header[4] = flags;
  header.writeUInt32BE(streamId, 5);
  return header;
}

function frame(type: number, flags: number, streamId: number, payload: Buffer): Buffer {
  return Buffer.concat([frameHeader(payload.length, type, flags, streamId), payload]);
}

function windowUpdate(streamId: number, increment: number): Buffer {
  const payload = Buffer.allocUnsafe(4);
  payload.writeUInt32BE(increment, 0);
  return frame(WINDOW_UPDATE, 0, streamId, payload);
}

/** A header block as HEADERS plus CONTINUATION frames of at most `maxFrame` bytes each. */
function headerFrames(streamId: number, block: Buffer, flags: number, maxFrame: number): Buffer[] {
  if (block.length <= maxFrame) return [frameHeader(block.length, HEADERS, flags | END_HEADERS, streamId), block];
  const out: Buffer[] = [];
  for (let at = 0; at < block.length; at += maxFrame) {
    const piece = block.subarray(at, at + maxFrame);
    const last = at + maxFrame >= block.length;
    const type = at === 0 ? HEADERS : CONTINUATION;
    out.push(frameHeader(piece.length, type, (at === 0 ? flags : 0) | (last ? END_HEADERS : 0), streamId), piece);
  }
  return out;
}

/** The payload without its padding (PADDED flag), or undefined when the padding does not fit. */
function unpad(flags: number, payload: Buffer): Buffer | undefined {
  if (!(flags & PADDED)) return payload;
  if (payload.length < 1) return undefined;
  const padding = payload[0]!;
  if (padding >= payload.length) return undefined;
  return payload.subarray(1, payload.length - padding);
}
