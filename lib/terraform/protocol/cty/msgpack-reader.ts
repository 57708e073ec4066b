/**
 * The msgpack reader of ./msgpack.ts: one pass over the bytes guided by the type, building cty values directly.
 */
import { CtyPathError } from "./path";
import { decodeRefinement } from "./refinement";
import { cty, typeFromJson, type CtyType } from "./type";
import { Unknown, UnknownValue } from "./unknown";
import { describeType, setOwn, TypedValue, type CtyValue } from "./value";
import {
  ARRAY,
  describeHead,
  hasOwn,
  isArray,
  isExtension,
  isMap,
  isString,
  MAP,
  namesOf,
  PathStack,
  REFINED_UNKNOWN_EXT,
  utf8,
  ATTRIBUTE,
  INDEX,
  KEY,
  type ContainerForm,
} from "./msgpack-format";

/** Reads one msgpack value against a type; `offset` is where it stopped. */
export class Reader {
  offset = 0;
  private readonly bytes: Buffer;
  private readonly path = new PathStack();

  constructor(bytes: Uint8Array) {
    this.bytes = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  value(type: CtyType): CtyValue {
    const head = this.peek();
    if (head === 0xc0) {
      this.offset++;
      return null;
    }
    // As in go-cty, every extension is an unknown, and an unknown needs no dynamic wrapper.
    if (isExtension(head)) return this.unknown(head);
    switch (type.kind) {
      case "string":
        if (!isString(head)) throw this.mismatch(head, type);
        return this.string(head);
      case "number":
        return this.number(head);
      case "bool":
        if (head !== 0xc2 && head !== 0xc3) throw this.mismatch(head, type);
        this.offset++;
        return head === 0xc3;
      case "list":
      case "set":
      case "tuple": {
        const length = this.arrayLength(head, type);
        if (type.kind === "tuple" && length !== type.elements.length && length !== 0) {
          throw this.path.error(`expected ${describeType(type)}, got array`);
        }
        const out: CtyValue[] = new Array(length);
        for (let index = 0; index < length; index++) {
          this.path.push(INDEX, index);
          out[index] = this.value(type.kind === "tuple" ? type.elements[index]! : type.element);
          this.path.pop();
        }
        return out;
      }
      case "map": {
        const length = this.mapLength(head, type);
        const out: Record<string, CtyValue> = {};
        for (let i = 0; i < length; i++) {
          const key = this.key();
          this.path.push(KEY, key);
          setOwn(out, key, this.value(type.element));
          this.path.pop();
        }
        return out;
      }
      case "object": {
        const length = this.mapLength(head, type);
        const out: Record<string, CtyValue> = {};
        for (const name of namesOf(type).declared) setOwn(out, name, null);
        for (let i = 0; i < length; i++) {
          const name = this.key();
          if (!hasOwn(type.attributes, name)) throw this.path.error(`unsupported attribute "${name}"`);
          this.path.push(ATTRIBUTE, name);
          setOwn(out, name, this.value(type.attributes[name]!));
          this.path.pop();
        }
        return out;
      }
      case "dynamic": {
        if (!isArray(head) || this.arrayLength(head, type) !== 2) throw this.path.error("dynamic value must be [type, value]");
        const typeHead = this.peek();
        let typeText: string;
        if (isString(typeHead)) typeText = this.string(typeHead);
        else if (typeHead >= 0xc4 && typeHead <= 0xc6) typeText = utf8.decode(this.binary(typeHead));
        else throw this.path.error("dynamic value type must be bytes");
        const actual = typeFromJson(JSON.parse(typeText));
        return new TypedValue(actual, this.value(actual));
      }
    }
  }

  private peek(): number {
    const head = this.bytes[this.offset];
    if (head === undefined) throw this.path.error("the msgpack value ends early");
    return head;
  }

  private take(length: number): number {
    const start = this.offset;
    if (start + length > this.bytes.length) throw this.path.error("the msgpack value ends early");
    this.offset = start + length;
    return start;
  }

  private unknown(head: number): UnknownValue {
    this.offset++;
    let length: number;
    if (head >= 0xd4)
      length = 1 << (head - 0xd4); // fixext 1, 2, 4, 8, 16
    else length = this.uint(1 << (head - 0xc7)); // ext 8, 16, 32
    const extType = this.bytes[this.take(1)];
    const start = this.take(length);
    if (extType === REFINED_UNKNOWN_EXT && length > 1) {
      return new UnknownValue(decodeRefinement(readPlain(this.bytes.subarray(start, start + length))));
    }
    return Unknown;
  }

  /**
   * Any value, without a type: nil, booleans, numbers, strings, binary, arrays, maps (as a Map, whatever their keys)
   * and extensions (skipped, as undefined). For a refinement payload, whose unknown keys' values have no type.
   */
  plain(): unknown {
    const head = this.peek();
    if (head === 0xc0 || head === 0xc2 || head === 0xc3) {
      this.offset++;
      return head === 0xc0 ? null : head === 0xc3;
    }
    if (isString(head)) return this.string(head);
    if (head >= 0xc4 && head <= 0xc6) return this.binary(head);
    if (isExtension(head)) {
      this.unknown(head);
      return undefined;
    }
    if (isArray(head)) {
      const items: unknown[] = new Array(this.containerLength(head, cty.dynamic, ARRAY));
      for (let index = 0; index < items.length; index++) items[index] = this.plain();
      return items;
    }
    if (isMap(head)) {
      const map = new Map<unknown, unknown>();
      for (let size = this.containerLength(head, cty.dynamic, MAP); size > 0; size--) {
        const key = this.plain();
        map.set(key, this.plain());
      }
      return map;
    }
    return this.number(head); // or an error for a byte that is no msgpack value
  }

  private string(head: number): string {
    this.offset++;
    const length = head <= 0xbf ? head & 0x1f : this.uint(1 << (head - 0xd9)); // fixstr, or str 8, 16, 32
    const start = this.take(length);
    return this.bytes.toString("utf8", start, start + length);
  }

  private binary(head: number): Uint8Array {
    this.offset++;
    const length = this.uint(1 << (head - 0xc4)); // bin 8, 16, 32
    const start = this.take(length);
    return this.bytes.subarray(start, start + length);
  }

  private number(head: number): number {
    if (head <= 0x7f) {
      this.offset++;
      return head;
    }
    if (head >= 0xe0) {
      this.offset++;
      return head - 0x100;
    }
    const bytes = this.bytes;
    switch (head) {
      case 0xcc:
      case 0xcd:
      case 0xce:
        this.offset++;
        return this.uint(1 << (head - 0xcc)); // uint 8, 16, 32
      case 0xcf: {
        const at = this.take(9) + 1;
        return bytes.readUInt32BE(at) * 0x1_0000_0000 + bytes.readUInt32BE(at + 4);
      }
      case 0xd0:
        return bytes.readInt8(this.take(2) + 1);
      case 0xd1:
        return bytes.readInt16BE(this.take(3) + 1);
      case 0xd2:
        return bytes.readInt32BE(this.take(5) + 1);
      case 0xd3: {
        const at = this.take(9) + 1;
        return bytes.readInt32BE(at) * 0x1_0000_0000 + bytes.readUInt32BE(at + 4);
      }
      case 0xca:
        return bytes.readFloatBE(this.take(5) + 1);
      case 0xcb:
        return bytes.readDoubleBE(this.take(9) + 1);
    }
    // go-cty falls back to a decimal string for numbers that fit neither int64 nor float64 exactly.
    if (isString(head)) {
      const parsed = Number(this.string(head));
      if (!Number.isNaN(parsed)) return parsed;
      throw this.path.error(`expected ${describeType({ kind: "number" })}, got string`);
    }
    throw this.mismatch(head, { kind: "number" });
  }

  /** Reads a big-endian unsigned integer of 1, 2 or 4 bytes (a length or a uint). */
  private uint(size: number): number {
    const at = this.take(size);
    return size === 1 ? this.bytes[at]! : size === 2 ? this.bytes.readUInt16BE(at) : this.bytes.readUInt32BE(at);
  }

  private arrayLength(head: number, type: CtyType): number {
    return this.containerLength(head, type, ARRAY);
  }

  private mapLength(head: number, type: CtyType): number {
    return this.containerLength(head, type, MAP);
  }

  /** The entry count of an array or map header: fix form (up to 15), or the 16- or 32-bit form. */
  private containerLength(head: number, type: CtyType, form: ContainerForm): number {
    if (head >= form.fix && head <= form.fix + 0x0f) {
      this.offset++;
      return head & 0x0f;
    }
    if (head !== form.wide && head !== form.wide + 1) throw this.mismatch(head, type);
    this.offset++;
    return this.uint(head === form.wide ? 2 : 4);
  }

  private key(): string {
    const head = this.peek();
    if (!isString(head)) throw this.path.error("map keys must be strings");
    return this.string(head);
  }

  private mismatch(head: number, type: CtyType): CtyPathError {
    return this.path.error(`expected ${describeType(type)}, got ${describeHead(head)}`);
  }
}

/** A whole msgpack value read without a type ({@link Reader.plain}), or undefined when the bytes are not one. */
function readPlain(bytes: Uint8Array): unknown {
  try {
    const reader = new Reader(bytes);
    const value = reader.plain();
    return reader.offset === bytes.length ? value : undefined; // as decodeMsgpack, no bytes left over
  } catch {
    return undefined;
  }
}
