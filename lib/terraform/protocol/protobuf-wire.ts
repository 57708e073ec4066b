/**
 * Protobuf's wire format (varints, fixed-width numbers, length-delimited fields) for ./protobuf.ts, which drives it
 * from the message descriptors.
 */

/** Reads protobuf wire format from a buffer region. */
export class Reader {
  constructor(
    private readonly buffer: Buffer,
    public position: number,
    readonly end: number,
  ) {}

  /** A varint that fits in 2^53 (tags, lengths, bools). */
  varint(): number {
    let result = 0;
    let shift = 1;
    for (;;) {
      const byte = this.byte();
      result += (byte & 0x7f) * shift;
      if (byte < 0x80) return result;
      shift *= 128;
    }
  }

  /** A full 64-bit varint. */
  varint64(): bigint {
    let result = 0n;
    let shift = 0n;
    for (;;) {
      const byte = this.byte();
      result |= BigInt(byte & 0x7f) << shift;
      if (byte < 0x80) return result;
      shift += 7n;
    }
  }

  bytes(): Buffer {
    const length = this.varint();
    if (this.position + length > this.end) throw new RangeError("protobuf: length beyond the end of the message");
    const slice = this.buffer.subarray(this.position, this.position + length);
    this.position += length;
    return slice;
  }

  string(): string {
    return this.bytes().toString("utf8");
  }

  sub(): Reader {
    const slice = this.bytes();
    return new Reader(this.buffer, slice.byteOffset - this.buffer.byteOffset, slice.byteOffset - this.buffer.byteOffset + slice.length);
  }

  skip(wireType: number): void {
    if (wireType === 0) this.varint64();
    else if (wireType === 1) this.position += 8;
    else if (wireType === 2) this.bytes();
    else if (wireType === 5) this.position += 4;
    else throw new RangeError(`protobuf: unsupported wire type ${wireType}`);
  }

  private byte(): number {
    if (this.position >= this.end) throw new RangeError("protobuf: truncated message");
    return this.buffer[this.position++]!;
  }
}

/** Writes protobuf wire format into chunks. */
export class Writer {
  private readonly chunks: Buffer[] = [];
  private pending: number[] = [];

  tag(id: number, wireType: number): void {
    this.varint(BigInt(id * 8 + wireType));
  }

  varint(value: bigint): void {
    let rest = BigInt.asUintN(64, value);
    while (rest >= 0x80n) {
      this.pending.push(Number(rest & 0x7fn) | 0x80);
      rest >>= 7n;
    }
    this.pending.push(Number(rest));
  }

  bytes(value: Uint8Array): void {
    this.varint(BigInt(value.length));
    this.flush();
    this.chunks.push(Buffer.from(value.buffer, value.byteOffset, value.byteLength));
  }

  nested(write: (inner: Writer) => void): void {
    const inner = new Writer();
    write(inner);
    this.bytes(inner.finish());
  }

  finish(): Buffer {
    this.flush();
    return Buffer.concat(this.chunks);
  }

  private flush(): void {
    if (this.pending.length > 0) this.chunks.push(Buffer.from(this.pending));
    this.pending = [];
  }
}
