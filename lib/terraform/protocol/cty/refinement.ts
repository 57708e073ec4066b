/**
 * The payload of msgpack extension 12 (a refined unknown), as go-cty writes it: a msgpack map from small integer keys
 * to compact values. Decoding keeps what we understand and skips the rest, as go-cty does, so that a future
 * Terraform adding refinements does not break us.
 *
 * The values are written with the cty codec (msgpack.ts) against their types; the payload is read with the small
 * schemaless reader below, since an unknown key's value has no type we could read it against.
 */
import { cty, type CtyType } from "./type";
import type { Refinement } from "./unknown";
import type { CtyValue } from "./value";

const NULLNESS = 1;
const STRING_PREFIX = 2;
const NUMBER_MIN = 3;
const NUMBER_MAX = 4;
const LENGTH_MIN = 5;
const LENGTH_MAX = 6;

const BOUND = cty.tuple(cty.number, cty.bool);

/** Decodes a refinement payload; returns undefined for an empty or unreadable one (then it is a plain unknown). */
export function decodeRefinement(payload: Uint8Array): Refinement | undefined {
  let raw: unknown;
  try {
    const reader = new PlainReader(payload);
    raw = reader.value();
    if (!reader.done()) return undefined;
  } catch {
    return undefined;
  }
  if (!(raw instanceof Map)) return undefined;
  const refinement: { -readonly [K in keyof Refinement]: Refinement[K] } = {};
  if (raw.get(NULLNESS) === false) refinement.notNull = true;
  const prefix = raw.get(STRING_PREFIX);
  if (typeof prefix === "string") refinement.stringPrefix = prefix;
  const min = decodeBound(raw.get(NUMBER_MIN));
  if (min) refinement.numberMin = min;
  const max = decodeBound(raw.get(NUMBER_MAX));
  if (max) refinement.numberMax = max;
  const lengthMin = raw.get(LENGTH_MIN);
  if (typeof lengthMin === "number") refinement.lengthMin = lengthMin;
  const lengthMax = raw.get(LENGTH_MAX);
  if (typeof lengthMax === "number") refinement.lengthMax = lengthMax;
  return Object.keys(refinement).length > 0 ? refinement : undefined;
}

function decodeBound(raw: unknown): readonly [number, boolean] | undefined {
  if (!Array.isArray(raw) || raw.length !== 2 || typeof raw[1] !== "boolean") return undefined;
  const bound = typeof raw[0] === "string" ? Number(raw[0]) : raw[0];
  return typeof bound === "number" && !Number.isNaN(bound) ? [bound, raw[1]] : undefined;
}

/**
 * Encodes the refinements that apply to `type` (go-cty rejects, say, a string prefix on a number), or returns
 * undefined when none apply and the compact plain-unknown encoding should be used. `encodeValue` is the cty codec's
 * encoder (passed in: msgpack.ts imports this module).
 */
export function encodeRefinement(
  refinement: Refinement,
  type: CtyType,
  encodeValue: (value: CtyValue, type: CtyType) => Uint8Array,
): Uint8Array | undefined {
  const entries: [number, Uint8Array][] = [];
  if (type.kind === "dynamic") return undefined; // go-cty: dynamic unknowns can never be refined
  if (refinement.notNull) entries.push([NULLNESS, encodeValue(false, cty.bool)]);
  if (type.kind === "string" && refinement.stringPrefix) entries.push([STRING_PREFIX, encodeValue(refinement.stringPrefix, cty.string)]);
  if (type.kind === "number" && refinement.numberMin) entries.push([NUMBER_MIN, encodeValue([...refinement.numberMin], BOUND)]);
  if (type.kind === "number" && refinement.numberMax) entries.push([NUMBER_MAX, encodeValue([...refinement.numberMax], BOUND)]);
  const collection = type.kind === "list" || type.kind === "set" || type.kind === "map";
  if (collection && refinement.lengthMin) entries.push([LENGTH_MIN, encodeValue(refinement.lengthMin, cty.number)]);
  if (collection && refinement.lengthMax !== undefined) entries.push([LENGTH_MAX, encodeValue(refinement.lengthMax, cty.number)]);
  if (entries.length === 0) return undefined;
  // A fixmap of at most 6 entries, each key a positive fixint.
  const parts: Uint8Array[] = [Uint8Array.of(0x80 | entries.length)];
  for (const [key, value] of entries) parts.push(Uint8Array.of(key), value);
  return Buffer.concat(parts);
}

/**
 * Reads any msgpack value without a type: nil, booleans, numbers, strings, binary, arrays, maps (as a Map, whatever
 * their keys) and extensions (skipped, as undefined). Throws on truncated or unknown input.
 */
class PlainReader {
  private offset = 0;
  private readonly view: DataView;

  constructor(private readonly bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  done(): boolean {
    return this.offset === this.bytes.length;
  }

  value(): unknown {
    const head = this.byte();
    if (head <= 0x7f) return head;
    if (head >= 0xe0) return head - 0x100;
    if (head >= 0x80 && head <= 0x8f) return this.map(head & 0x0f);
    if (head >= 0x90 && head <= 0x9f) return this.array(head & 0x0f);
    if (head >= 0xa0 && head <= 0xbf) return this.text(head & 0x1f);
    switch (head) {
      case 0xc0:
        return null;
      case 0xc2:
        return false;
      case 0xc3:
        return true;
      case 0xc4:
      case 0xc5:
      case 0xc6:
        return this.take(this.uint(1 << (head - 0xc4)));
      case 0xc7:
      case 0xc8:
      case 0xc9: {
        const length = this.uint(1 << (head - 0xc7));
        this.take(1 + length); // extension type and data
        return undefined;
      }
      case 0xca:
        return this.view.getFloat32(this.advance(4));
      case 0xcb:
        return this.view.getFloat64(this.advance(8));
      case 0xcc:
      case 0xcd:
      case 0xce:
        return this.uint(1 << (head - 0xcc));
      case 0xcf:
        return Number(this.view.getBigUint64(this.advance(8)));
      case 0xd0:
        return this.view.getInt8(this.advance(1));
      case 0xd1:
        return this.view.getInt16(this.advance(2));
      case 0xd2:
        return this.view.getInt32(this.advance(4));
      case 0xd3:
        return Number(this.view.getBigInt64(this.advance(8)));
      case 0xd4:
      case 0xd5:
      case 0xd6:
      case 0xd7:
      case 0xd8:
        this.take(1 + (1 << (head - 0xd4))); // fixext: type and 1 to 16 bytes
        return undefined;
      case 0xd9:
      case 0xda:
      case 0xdb:
        return this.text(this.uint(1 << (head - 0xd9)));
      case 0xdc:
      case 0xdd:
        return this.array(this.uint(head === 0xdc ? 2 : 4));
      case 0xde:
      case 0xdf:
        return this.map(this.uint(head === 0xde ? 2 : 4));
      default:
        throw new Error(`msgpack: unknown format 0x${head.toString(16)}`);
    }
  }

  private map(size: number): Map<unknown, unknown> {
    const map = new Map<unknown, unknown>();
    for (let i = 0; i < size; i++) {
      const key = this.value();
      map.set(key, this.value());
    }
    return map;
  }

  private array(size: number): unknown[] {
    const items: unknown[] = [];
    for (let i = 0; i < size; i++) items.push(this.value());
    return items;
  }

  private text(length: number): string {
    return Buffer.from(this.take(length)).toString("utf8");
  }

  private byte(): number {
    return this.view.getUint8(this.advance(1));
  }

  private uint(size: number): number {
    const at = this.advance(size);
    return size === 1 ? this.view.getUint8(at) : size === 2 ? this.view.getUint16(at) : this.view.getUint32(at);
  }

  private take(length: number): Uint8Array {
    const at = this.advance(length);
    return this.bytes.subarray(at, at + length);
  }

  private advance(length: number): number {
    const at = this.offset;
    if (at + length > this.bytes.length) throw new Error("msgpack: truncated");
    this.offset = at + length;
    return at;
  }
}
