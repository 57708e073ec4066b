/**
 * HPACK (RFC 7541), the header compression of HTTP/2, for the provider's gRPC server (h2-connection.ts): a full
 * decoder (static and dynamic table, Huffman-coded strings), since Terraform's gRPC client uses all of it, and an
 * encoder of literal fields, which is all a server that sends a few fixed headers needs.
 */

/** One header field, name lower-case as HTTP/2 requires. */
export type HeaderField = readonly [name: string, value: string];

/** A malformed header block: the connection must end with COMPRESSION_ERROR (RFC 7540 §4.3). */
export class HpackError extends Error {
  constructor(message: string) {
    super(`HPACK: ${message}`);
    this.name = "HpackError";
  }
}

// RFC 7541 Appendix A.
const STATIC_TABLE: readonly HeaderField[] = [
  [":authority", ""],
  [":method", "GET"],
  [":method", "POST"],
  [":path", "/"],
  [":path", "/index.html"],
  [":scheme", "http"],
  [":scheme", "https"],
  [":status", "200"],
  [":status", "204"],
  [":status", "206"],
  [":status", "304"],
  [":status", "400"],
  [":status", "404"],
  [":status", "500"],
  ["accept-charset", ""],
  ["accept-encoding", "gzip, deflate"],
  ["accept-language", ""],
  ["accept-ranges", ""],
  ["accept", ""],
  ["access-control-allow-origin", ""],
  ["age", ""],
  ["allow", ""],
  ["authorization", ""],
  ["cache-control", ""],
  ["content-disposition", ""],
  ["content-encoding", ""],
  ["content-language", ""],
  ["content-length", ""],
  ["content-location", ""],
  ["content-range", ""],
  ["content-type", ""],
  ["cookie", ""],
  ["date", ""],
  ["etag", ""],
  ["expect", ""],
  ["expires", ""],
  ["from", ""],
  ["host", ""],
  ["if-match", ""],
  ["if-modified-since", ""],
  ["if-none-match", ""],
  ["if-range", ""],
  ["if-unmodified-since", ""],
  ["last-modified", ""],
  ["link", ""],
  ["location", ""],
  ["max-forwards", ""],
  ["proxy-authenticate", ""],
  ["proxy-authorization", ""],
  ["range", ""],
  ["referer", ""],
  ["refresh", ""],
  ["retry-after", ""],
  ["server", ""],
  ["set-cookie", ""],
  ["strict-transport-security", ""],
  ["transfer-encoding", ""],
  ["user-agent", ""],
  ["vary", ""],
  ["via", ""],
  ["www-authenticate", ""],
];

// RFC 7541 Appendix B: the bit length of each symbol's code (0-255, then 256 = EOS). The code is canonical (codes of
// one length are consecutive, shorter lengths first, by symbol within a length), so the lengths define it.
const HUFFMAN_CODE_LENGTHS = [
  13, 23, 28, 28, 28, 28, 28, 28, 28, 24, 30, 28, 28, 30, 28, 28, 28, 28, 28, 28, 28, 28, 30, 28, 28, 28, 28, 28, 28, 28, 28, 28, 6, 10, 10,
  12, 13, 6, 8, 11, 10, 10, 8, 11, 8, 6, 6, 6, 5, 5, 5, 6, 6, 6, 6, 6, 6, 6, 7, 8, 15, 6, 12, 10, 13, 6, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7,
  7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 8, 7, 8, 13, 19, 13, 14, 6, 15, 5, 6, 5, 6, 5, 6, 6, 6, 5, 7, 7, 6, 6, 6, 5, 6, 7, 6, 5, 5, 6, 7, 7, 7, 7,
  7, 15, 11, 14, 13, 28, 20, 22, 20, 20, 22, 22, 22, 23, 22, 23, 23, 23, 23, 23, 24, 23, 24, 24, 22, 23, 24, 23, 23, 23, 23, 21, 22, 23, 22,
  23, 23, 24, 22, 21, 20, 22, 22, 23, 23, 21, 23, 22, 22, 24, 21, 22, 23, 23, 21, 21, 22, 21, 23, 22, 23, 23, 20, 22, 22, 22, 23, 22, 22,
  23, 26, 26, 20, 19, 22, 23, 22, 25, 26, 26, 26, 27, 27, 26, 24, 25, 19, 21, 26, 27, 27, 26, 27, 24, 21, 21, 26, 26, 28, 27, 27, 27, 20,
  24, 20, 21, 22, 21, 21, 23, 22, 22, 25, 25, 24, 24, 26, 23, 26, 27, 26, 26, 27, 27, 27, 27, 27, 28, 27, 27, 27, 27, 27, 26, 30,
];
const EOS = 256;

/** Canonical decoding tables: per length, the first code, how many codes, and where its symbols start in `symbols`. */
interface HuffmanTables {
  readonly firstCode: number[];
  readonly count: number[];
  readonly offset: number[];
  readonly symbols: number[];
}
let huffman: HuffmanTables | undefined;
function huffmanTables(): HuffmanTables {
  if (huffman) return huffman;
  const symbols = HUFFMAN_CODE_LENGTHS.map((_, symbol) => symbol).sort(
    (a, b) => HUFFMAN_CODE_LENGTHS[a]! - HUFFMAN_CODE_LENGTHS[b]! || a - b,
  );
  const firstCode: number[] = [];
  const count: number[] = [];
  const offset: number[] = [];
  let code = 0;
  let index = 0;
  for (let length = 1; length <= 30; length++) {
    firstCode[length] = code;
    offset[length] = index;
    let n = 0;
    while (index < symbols.length && HUFFMAN_CODE_LENGTHS[symbols[index]!] === length) {
      index++;
      n++;
    }
    count[length] = n;
    code = (code + n) * 2;
  }
  return (huffman = { firstCode, count, offset, symbols });
}

/** Decodes a Huffman-coded string (RFC 7541 §5.2): at most 7 bits of padding, all ones; EOS never appears. */
export function huffmanDecode(bytes: Uint8Array): string {
  const { firstCode, count, offset, symbols } = huffmanTables();
  let out = "";
  let code = 0;
  let length = 0;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i]!;
    for (let bit = 7; bit >= 0; bit--) {
      code = code * 2 + ((byte >> bit) & 1);
      length++;
      const rank = code - firstCode[length]!;
      if (rank >= 0 && rank < count[length]!) {
        const symbol = symbols[offset[length]! + rank]!;
        if (symbol === EOS) throw new HpackError("EOS inside a Huffman-coded string");
        out += String.fromCharCode(symbol);
        code = 0;
        length = 0;
      } else if (length > 30) {
        throw new HpackError("invalid Huffman code");
      }
    }
  }
  if (length > 7 || code !== 2 ** length - 1) throw new HpackError("invalid Huffman padding");
  return out;
}

/** The decoding side of one HTTP/2 connection: its dynamic table lives as long as the connection. */
export class HpackDecoder {
  private readonly dynamic: HeaderField[] = []; // newest first
  private size = 0;
  private maxSize: number;

  /** @param maxTableSize our SETTINGS_HEADER_TABLE_SIZE (4096 unless advertised otherwise) */
  constructor(private readonly maxTableSize = 4096) {
    this.maxSize = maxTableSize;
  }

  /** Decodes a complete header block (HEADERS plus any CONTINUATION fragments). */
  decode(block: Uint8Array): HeaderField[] {
    const fields: HeaderField[] = [];
    const cursor = { block, at: 0 };
    while (cursor.at < block.length) {
      const byte = block[cursor.at]!;
      if (byte & 0x80) {
        // Indexed field.
        fields.push(this.entry(readInteger(cursor, 7)));
      } else if (byte & 0x40) {
        // Literal with incremental indexing.
        const field = this.literal(cursor, 6);
        fields.push(field);
        this.add(field);
      } else if (byte & 0x20) {
        // Dynamic table size update.
        const size = readInteger(cursor, 5);
        if (size > this.maxTableSize) throw new HpackError(`table size ${size} above the ${this.maxTableSize} allowed`);
        this.maxSize = size;
        this.evict();
      } else {
        // Literal without indexing (0000) or never indexed (0001).
        fields.push(this.literal(cursor, 4));
      }
    }
    return fields;
  }

  private literal(cursor: Cursor, prefix: number): HeaderField {
    const index = readInteger(cursor, prefix);
    const name = index === 0 ? readString(cursor) : this.entry(index)[0];
    return [name, readString(cursor)];
  }

  private entry(index: number): HeaderField {
    if (index === 0) throw new HpackError("index 0");
    if (index <= STATIC_TABLE.length) return STATIC_TABLE[index - 1]!;
    const field = this.dynamic[index - STATIC_TABLE.length - 1];
    if (!field) throw new HpackError(`index ${index} beyond the table`);
    return field;
  }

  private add(field: HeaderField): void {
    this.dynamic.unshift(field);
    this.size += entrySize(field);
    this.evict();
  }

  private evict(): void {
    while (this.size > this.maxSize) this.size -= entrySize(this.dynamic.pop()!);
  }
}

interface Cursor {
  readonly block: Uint8Array;
  at: number;
}

// Header names and values are octets; the size counts them plus 32 (RFC 7541 §4.1). Decoded strings hold one octet
// per character (latin1), so length is the octet count.
const entrySize = (field: HeaderField): number => field[0].length + field[1].length + 32;

function readInteger(cursor: Cursor, prefix: number): number {
  const mask = (1 << prefix) - 1;
  let value = cursor.block[cursor.at++]! & mask;
  if (value < mask) return value;
  let factor = 1;
  for (;;) {
    if (cursor.at >= cursor.block.length) throw new HpackError("the header block ends inside an integer");
    const byte = cursor.block[cursor.at++]!;
    value += (byte & 0x7f) * factor;
    factor *= 128;
    if (!(byte & 0x80)) return value;
    if (factor > 2 ** 28) throw new HpackError("integer too large");
  }
}

function readString(cursor: Cursor): string {
  if (cursor.at >= cursor.block.length) throw new HpackError("the header block ends before a string");
  const huffmanCoded = (cursor.block[cursor.at]! & 0x80) !== 0;
  const length = readInteger(cursor, 7);
  const end = cursor.at + length;
  if (end > cursor.block.length) throw new HpackError("the header block ends inside a string");
  const bytes = cursor.block.subarray(cursor.at, end);
  cursor.at = end;
  return huffmanCoded ? huffmanDecode(bytes) : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1");
}

/**
 * Encodes header fields as literals without indexing (RFC 7541 §6.2.2), except those in the static table with
 * their value (`:status: 200`), which are indexed. Needs no state: the peer's table is never touched.
 * @example
 * encodeHeaders([[":status", "200"], ["content-type", "application/grpc"]]);
 */
export function encodeHeaders(fields: readonly HeaderField[]): Buffer {
  const parts: number[] = [];
  for (const [name, value] of fields) {
    const exact = STATIC_TABLE.findIndex(([n, v]) => n === name && v === value);
    if (exact >= 0) {
      writeInteger(parts, exact + 1, 7, 0x80);
      continue;
    }
    const nameIndex = STATIC_TABLE.findIndex(([n]) => n === name);
    writeInteger(parts, nameIndex + 1, 4, 0x00); // 0 (a new name) when not in the table
    if (nameIndex < 0) writeString(parts, name);
    writeString(parts, value);
  }
  return Buffer.from(parts);
}

function writeInteger(out: number[], value: number, prefix: number, flags: number): void {
  const mask = (1 << prefix) - 1;
  if (value < mask) {
    out.push(flags | value);
    return;
  }
  out.push(flags | mask);
  let rest = value - mask;
  while (rest >= 128) {
    out.push((rest % 128) | 0x80);
    rest = Math.floor(rest / 128);
  }
  out.push(rest);
}

function writeString(out: number[], text: string): void {
  const bytes = Buffer.from(text, "latin1");
  writeInteger(out, bytes.length, 7, 0x00);
  for (const byte of bytes) out.push(byte);
}
