/**
 * cty values to and from msgpack, the encoding of DynamicValue.msgpack. Mirrors go-cty's cty/msgpack: decoding is
 * always against a type, objects carry every attribute, unknowns are msgpack extensions, and dynamically-typed
 * values travel as `[typeJSON, value]`.
 *
 * The codec reads and writes msgpack itself, in one pass guided by the type: no intermediate tree of plain values,
 * and a path is built only for an error message. A provider process lives for one Terraform command, so this code
 * runs almost only in V8's interpreter, where a general msgpack library and a second pass over its result cost
 * several times more (see docs/performance.md). `msgpack.test.ts` checks the bytes against `@msgpack/msgpack`.
 */
import { CtyPathError, type PathStep, type ValuePath } from "./path";
import { decodeRefinement, encodeRefinement } from "./refinement";
import { cty, typeFromJson, typeToJson, type CtyType, type ObjectType } from "./type";
import { isUnknown, Unknown, UnknownValue } from "./unknown";
import { describeType, impliedType, setOwn, TypedValue, type CtyValue } from "./value";

const REFINED_UNKNOWN_EXT = 12;
const utf8 = new TextDecoder("utf-8", { fatal: true });
// Strings shorter than this (in UTF-16 units) are tried as ASCII first: see Writer.stringOrBinary.
const SHORT_STRING = 64;

/**
 * Decodes msgpack bytes against a type.
 * @example
 * const state = decodeMsgpack(request.prior_state.msgpack, schemaType);
 */
export function decodeMsgpack(bytes: Uint8Array, type: CtyType): CtyValue {
  const reader = new Reader(bytes);
  const value = reader.value(type);
  if (reader.offset !== bytes.length) {
    throw new CtyPathError(`${bytes.length - reader.offset} byte(s) left over after the msgpack value`, []);
  }
  return value;
}

/**
 * Encodes a value of a type to msgpack; throws {@link CtyPathError} when the value does not conform (a provider bug).
 * `undefined` is accepted as null so that models may leave optional attributes out.
 */
export function encodeMsgpack(value: CtyValue | undefined, type: CtyType): Uint8Array {
  const writer = new Writer();
  writer.value(value, type);
  return writer.finish();
}

// The path to the value being read or written, kept as a stack of plain keys (string: attribute or map key, number:
// index) and turned into PathSteps only when an error is thrown.
const ATTRIBUTE = 0;
const KEY = 1;
const INDEX = 2;
// It runs for every attribute of every value, so push and pop only move a depth: the slots above it are stale.
class PathStack {
  private readonly keys: (string | number)[] = [];
  private readonly kinds: number[] = [];
  private depth = 0;

  push(kind: number, key: string | number): void {
    this.keys[this.depth] = key;
    this.kinds[this.depth++] = kind;
  }

  pop(): void {
    this.depth--;
  }

  error(message: string): CtyPathError {
    const path: PathStep[] = [];
    for (let i = 0; i < this.depth; i++) {
      const key = this.keys[i]!;
      const kind = this.kinds[i];
      path.push(kind === ATTRIBUTE ? { attribute: key as string } : kind === KEY ? { key: key as string } : { index: key as number });
    }
    return new CtyPathError(message, path satisfies ValuePath);
  }
}

// Object types are fixed for a provider's life: their attribute names, in declaration order (for decoding, as
// the decoded object's key order) and sorted (go-cty writes attributes sorted), are worked out once.
const attributeNames = new WeakMap<ObjectType, { declared: string[]; sorted: string[] }>();
function namesOf(type: ObjectType): { declared: string[]; sorted: string[] } {
  let names = attributeNames.get(type);
  if (!names) {
    const declared = Object.keys(type.attributes);
    names = { declared, sorted: [...declared].sort() };
    attributeNames.set(type, names);
  }
  return names;
}

const hasOwn = (target: object, key: string): boolean => Object.prototype.hasOwnProperty.call(target, key);

class Reader {
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

/** The header codes of a container: its fix form (the low 4 bits hold up to 15 entries), then 16- and 32-bit forms. */
interface ContainerForm {
  readonly fix: number;
  readonly wide: number;
}
const ARRAY: ContainerForm = { fix: 0x90, wide: 0xdc };
const MAP: ContainerForm = { fix: 0x80, wide: 0xde };

const isString = (head: number): boolean => (head >= 0xa0 && head <= 0xbf) || (head >= 0xd9 && head <= 0xdb);
const isArray = (head: number): boolean => (head >= 0x90 && head <= 0x9f) || head === 0xdc || head === 0xdd;
const isMap = (head: number): boolean => (head >= 0x80 && head <= 0x8f) || head === 0xde || head === 0xdf;

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
const isExtension = (head: number): boolean => (head >= 0xd4 && head <= 0xd8) || (head >= 0xc7 && head <= 0xc9);

/** What a msgpack value is, in the words JavaScript would use for it once decoded (`typeof`). */
function describeHead(head: number): string {
  if (head === 0xc0) return "null";
  if (head === 0xc2 || head === 0xc3) return "boolean";
  if (isString(head)) return "string";
  if (isArray(head)) return "array";
  if ((head >= 0x80 && head <= 0x8f) || head === 0xde || head === 0xdf) return "object";
  if (head >= 0xc4 && head <= 0xc6) return "object"; // bytes
  if (head === 0xc1) return "an invalid msgpack byte";
  return "number";
}

class Writer {
  private buffer = Buffer.allocUnsafe(1024);
  private offset = 0;
  private readonly path = new PathStack();

  finish(): Uint8Array {
    return this.buffer.subarray(0, this.offset);
  }

  value(value: CtyValue | undefined, type: CtyType): void {
    if (value === undefined || value === null) return this.byte(0xc0);
    if (isUnknown(value)) {
      const payload = value.refinement && encodeRefinement(value.refinement, type, encodeMsgpack);
      // go-cty's "totally unknown": fixext1, type 0, one zero byte (the shortest extension msgpack can express).
      if (!payload) return this.bytes3(0xd4, 0, 0);
      return this.extension(REFINED_UNKNOWN_EXT, payload);
    }
    if (type.kind === "dynamic") {
      const typed = value instanceof TypedValue ? value : new TypedValue(impliedType(value), value);
      this.byte(0x92);
      this.stringOrBinary(JSON.stringify(typeToJson(typed.type)), false);
      return this.value(typed.value, typed.type);
    }
    if (value instanceof TypedValue) return this.value(value.value, type);
    switch (type.kind) {
      case "string":
        if (typeof value !== "string") throw this.mismatch(value, type);
        return this.stringOrBinary(value, true);
      case "number":
        if (typeof value !== "number" || Number.isNaN(value)) throw this.mismatch(value, type);
        return this.number(value);
      case "bool":
        if (typeof value !== "boolean") throw this.mismatch(value, type);
        return this.byte(value ? 0xc3 : 0xc2);
      case "list":
      case "set":
      case "tuple": {
        if (!Array.isArray(value) || (type.kind === "tuple" && value.length !== type.elements.length)) {
          throw this.mismatch(value, type);
        }
        this.header(value.length, ARRAY);
        for (let index = 0; index < value.length; index++) {
          this.path.push(INDEX, index);
          this.value(value[index], type.kind === "tuple" ? type.elements[index]! : type.element);
          this.path.pop();
        }
        return;
      }
      case "map": {
        if (Array.isArray(value) || typeof value !== "object") throw this.mismatch(value, type);
        const keys = Object.keys(value);
        this.header(keys.length, MAP);
        for (const key of keys) {
          this.stringOrBinary(key, true);
          this.path.push(KEY, key);
          this.value(value[key], type.element);
          this.path.pop();
        }
        return;
      }
      case "object": {
        if (Array.isArray(value) || typeof value !== "object") throw this.mismatch(value, type);
        for (const key in value) {
          if (!hasOwn(type.attributes, key)) throw this.path.error(`unsupported attribute "${key}"`);
        }
        // go-cty rejects objects that do not carry every attribute, so absent ones are sent as nil.
        const names = namesOf(type).sorted;
        this.header(names.length, MAP);
        for (const name of names) {
          this.stringOrBinary(name, true);
          this.path.push(ATTRIBUTE, name);
          this.value(hasOwn(value, name) ? value[name] : undefined, type.attributes[name]!);
          this.path.pop();
        }
        return;
      }
    }
  }

  private reserve(size: number): void {
    if (this.offset + size <= this.buffer.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.offset + size));
    this.buffer.copy(grown, 0, 0, this.offset);
    this.buffer = grown;
  }

  private byte(value: number): void {
    this.reserve(1);
    this.buffer[this.offset++] = value;
  }

  private bytes3(a: number, b: number, c: number): void {
    this.reserve(3);
    this.buffer[this.offset++] = a;
    this.buffer[this.offset++] = b;
    this.buffer[this.offset++] = c;
  }

  /** An array or map header: the fix form below 16 entries, else the 16- or 32-bit form. */
  private header(length: number, form: ContainerForm): void {
    this.reserve(5);
    if (length <= 0x0f) {
      this.buffer[this.offset++] = form.fix | length;
    } else if (length < 0x10000) {
      this.buffer[this.offset++] = form.wide;
      this.offset = this.buffer.writeUInt16BE(length, this.offset);
    } else {
      this.buffer[this.offset++] = form.wide + 1;
      this.offset = this.buffer.writeUInt32BE(length, this.offset);
    }
  }

  /** A string as msgpack str (fixstr, str8, str16, str32), or its UTF-8 bytes as bin (bin8, bin16, bin32). */
  private stringOrBinary(text: string, asString: boolean): void {
    // Most strings of a state (attribute names, ids, URLs) are short and ASCII: copied here a byte per character,
    // they skip two calls into C++ (byteLength, write), which cost more than the copy in a short-lived process.
    if (text.length < SHORT_STRING) {
      const length = text.length;
      this.reserve(length + 2);
      const buffer = this.buffer;
      const start = this.offset + (asString && length < 32 ? 1 : 2);
      let i = 0;
      for (; i < length; i++) {
        const code = text.charCodeAt(i);
        if (code >= 0x80) break;
        buffer[start + i] = code;
      }
      if (i === length) {
        if (start === this.offset + 1) {
          buffer[this.offset] = 0xa0 | length;
        } else {
          buffer[this.offset] = asString ? 0xd9 : 0xc4;
          buffer[this.offset + 1] = length;
        }
        this.offset = start + length;
        return;
      }
    }
    const length = Buffer.byteLength(text);
    this.reserve(length + 5);
    const buffer = this.buffer;
    if (asString && length < 32) {
      buffer[this.offset++] = 0xa0 | length;
    } else if (length < 0x100) {
      buffer[this.offset++] = asString ? 0xd9 : 0xc4;
      buffer[this.offset++] = length;
    } else if (length < 0x10000) {
      buffer[this.offset++] = asString ? 0xda : 0xc5;
      this.offset = buffer.writeUInt16BE(length, this.offset);
    } else {
      buffer[this.offset++] = asString ? 0xdb : 0xc6;
      this.offset = buffer.writeUInt32BE(length, this.offset);
    }
    if (length > 0) this.offset += buffer.write(text, this.offset, length, "utf8");
  }

  /** Integers as the smallest msgpack integer that holds them, everything else as float64 (as @msgpack/msgpack). */
  private number(value: number): void {
    this.reserve(9);
    const buffer = this.buffer;
    if (!Number.isSafeInteger(value)) {
      buffer[this.offset++] = 0xcb;
      this.offset = buffer.writeDoubleBE(value, this.offset);
    } else if (value >= 0) {
      if (value < 0x80) buffer[this.offset++] = value;
      else if (value < 0x100) {
        buffer[this.offset++] = 0xcc;
        buffer[this.offset++] = value;
      } else if (value < 0x10000) {
        buffer[this.offset++] = 0xcd;
        this.offset = buffer.writeUInt16BE(value, this.offset);
      } else if (value < 0x1_0000_0000) {
        buffer[this.offset++] = 0xce;
        this.offset = buffer.writeUInt32BE(value, this.offset);
      } else {
        buffer[this.offset++] = 0xcf;
        this.offset = buffer.writeUInt32BE(Math.floor(value / 0x1_0000_0000), this.offset);
        this.offset = buffer.writeUInt32BE(value >>> 0, this.offset);
      }
    } else if (value >= -0x20) {
      buffer[this.offset++] = value & 0xff;
    } else if (value >= -0x80) {
      buffer[this.offset++] = 0xd0;
      this.offset = buffer.writeInt8(value, this.offset);
    } else if (value >= -0x8000) {
      buffer[this.offset++] = 0xd1;
      this.offset = buffer.writeInt16BE(value, this.offset);
    } else if (value >= -0x8000_0000) {
      buffer[this.offset++] = 0xd2;
      this.offset = buffer.writeInt32BE(value, this.offset);
    } else {
      buffer[this.offset++] = 0xd3;
      this.offset = buffer.writeBigInt64BE(BigInt(value), this.offset);
    }
  }

  private extension(extType: number, payload: Uint8Array): void {
    const length = payload.length;
    this.reserve(length + 6);
    const buffer = this.buffer;
    const fix = [1, 2, 4, 8, 16].indexOf(length);
    if (fix >= 0) {
      buffer[this.offset++] = 0xd4 + fix;
    } else if (length < 0x100) {
      buffer[this.offset++] = 0xc7;
      buffer[this.offset++] = length;
    } else if (length < 0x10000) {
      buffer[this.offset++] = 0xc8;
      this.offset = buffer.writeUInt16BE(length, this.offset);
    } else {
      buffer[this.offset++] = 0xc9;
      this.offset = buffer.writeUInt32BE(length, this.offset);
    }
    buffer[this.offset++] = extType;
    buffer.set(payload, this.offset);
    this.offset += length;
  }

  private mismatch(value: unknown, type: CtyType): CtyPathError {
    const got = Array.isArray(value) ? "array" : typeof value;
    return this.path.error(`expected ${describeType(type)}, got ${got}`);
  }
}
