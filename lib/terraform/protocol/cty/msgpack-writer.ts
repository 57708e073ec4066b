/**
 * The msgpack writer of ./msgpack.ts: one pass over a value guided by its type, writing go-cty's bytes (attributes
 * sorted, unknowns as extensions) into one growing buffer.
 */
import { CtyPathError } from "./path";
import { encodeRefinement } from "./refinement";
import { typeToJson, type CtyType } from "./type";
import { isUnknown } from "./unknown";
import { describeType, impliedType, TypedValue, type CtyValue } from "./value";
import {
  ARRAY,
  hasOwn,
  MAP,
  namesOf,
  PathStack,
  REFINED_UNKNOWN_EXT,
  SHORT_STRING,
  ATTRIBUTE,
  INDEX,
  KEY,
  type ContainerForm,
} from "./msgpack-format";

/** Writes values of a type as msgpack; `finish()` returns the bytes. */
export class Writer {
  private buffer = Buffer.allocUnsafe(1024);
  private offset = 0;
  private readonly path = new PathStack();

  finish(): Uint8Array {
    return this.buffer.subarray(0, this.offset);
  }

  value(value: CtyValue | undefined, type: CtyType): void {
    if (value === undefined || value === null) return this.byte(0xc0);
    if (isUnknown(value)) {
      const payload = value.refinement && encodeRefinement(value.refinement, type, encodeNested);
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

/** A value encoded on its own (a refinement's bounds are msgpack inside the extension). */
function encodeNested(value: CtyValue, type: CtyType): Uint8Array {
  const writer = new Writer();
  writer.value(value, type);
  return writer.finish();
}
