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
 * caller takes its general path (`JsonRpcClient.send`, on undici). A call not answered within the deadline
 * (`timeoutMs`, ./chain-timeout.ts) fails with `ChainTimeoutError` and its socket is closed; so does a wait for a
 * free socket that lasts as long.
 */
import { connect, type Socket } from "node:net";
import { ChainTimeoutError, DEFAULT_RPC_TIMEOUT_MS } from "./chain-timeout";
import { PendingBytes } from "./pending-bytes";
import { IPC_FRAMING, httpFraming, type ChainAddress, type Framing, type RawAnswer } from "./socket-framing";

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
    /** The deadline of one call (./chain-timeout.ts). */
    private readonly timeoutMs: number = DEFAULT_RPC_TIMEOUT_MS,
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
    const connection = this.idle.pop() ?? (this.open < this.maxSockets ? this.connect() : await this.waitForSocket());
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

  /** A socket once one is free; rejects at the deadline (every socket is busy with calls that do not end). */
  private waitForSocket(): Promise<RawConnection> {
    return new Promise<RawConnection>((resolve, reject) => {
      const waiter = {
        resolve: (connection: RawConnection) => {
          clearTimeout(timer);
          resolve(connection);
        },
        reject: (error: Error) => {
          clearTimeout(timer);
          reject(error);
        },
      };
      const timer = setTimeout(() => {
        const index = this.queue.indexOf(waiter);
        if (index >= 0) this.queue.splice(index, 1);
        reject(new ChainTimeoutError(this.timeoutMs));
      }, this.timeoutMs);
      this.queue.push(waiter);
    });
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
    const connection: RawConnection = new RawConnection(this.connectTo(), this.framing, this.timeoutMs, () => {
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

/** One socket: one call at a time. */
class RawConnection {
  /** An answer's first parts, while the rest is on its way. */
  private readonly partial = new PendingBytes();
  private pending: ((answer: RawAnswer | Error) => void) | null = null;
  private alive = true;

  constructor(
    private readonly socket: Socket,
    private readonly framing: Framing,
    timeoutMs: number,
    private readonly onClose: () => void,
  ) {
    socket.setKeepAlive(true);
    // Node's socket timeout (re-armed by every read and write, no timer of ours per call): a call in flight with no
    // byte from the chain for this long has missed its deadline. An idle kept-alive socket's timeout means nothing.
    socket.setTimeout(timeoutMs, () => {
      if (this.pending) this.fail(new ChainTimeoutError(timeoutMs));
    });
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
