/**
 * How the pass-through path's sockets (./socket-pool.ts) frame calls and find answers: HTTP/1.1 POSTs with the answer
 * read by its Content-Length, or anvil's IPC socket, where each answer is one line.
 */

/** A node's answer: its HTTP status and body. */
export interface RawAnswer {
  readonly status: number;
  readonly body: Buffer;
}

/** Where a node is: `{ http: "http://127.0.0.1:8545" }` or `{ ipc: "/tmp/anvil.ipc" }`. */
export type ChainAddress = { readonly http: string } | { readonly ipc: string };

/** How calls are written to a socket and answers found in what it sends back. */
export interface Framing {
  encode(body: Buffer): Buffer;
  /** Whether an answer may end in this chunk (else it is kept, unread, until one that may: a large answer is joined once). */
  mayEnd(chunk: Buffer): boolean;
  /** The answer at the start of `data` once it is whole; null while it is not; throws when it is not one. */
  decode(data: Buffer): { answer: RawAnswer; end: number; close: boolean } | null;
}

const HEADER_END = Buffer.from("\r\n\r\n");
/** The byte that ends an IPC answer. */
export const NEWLINE = 0x0a;
const CONTENT_LENGTH = /\r\ncontent-length:[ \t]*(\d+)/i;
const CONNECTION_CLOSE = /\r\nconnection:[ \t]*close/i;
/** HTTP/1.1 POSTs to `url`, each answer read by its Content-Length. */
export function httpFraming(url: URL): Framing {
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
export const IPC_FRAMING: Framing = {
  encode: (body) => body,
  mayEnd: (chunk) => chunk.includes(NEWLINE),
  decode(data) {
    const newline = data.indexOf(NEWLINE);
    if (newline < 0) return null;
    return { answer: { status: 200, body: data.subarray(0, newline) }, end: newline + 1, close: false };
  },
};
