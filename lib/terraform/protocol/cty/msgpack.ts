/**
 * cty values to and from msgpack, the encoding of DynamicValue.msgpack. Mirrors go-cty's cty/msgpack: decoding is
 * always against a type, objects carry every attribute, unknowns are msgpack extensions, and dynamically-typed
 * values travel as `[typeJSON, value]`.
 */
import { decode, encode, ExtData } from "@msgpack/msgpack";
import { CtyPathError, type PathStep, type ValuePath } from "./path";
import { decodeRefinement, encodeRefinement } from "./refinement";
import { typeFromJson, typeToJson, type CtyType } from "./type";
import { isUnknown, Unknown, UnknownValue } from "./unknown";
import { describeType, impliedType, setOwn, TypedValue, type CtyValue } from "./value";

const REFINED_UNKNOWN_EXT = 12;
// go-cty's "totally unknown": fixext1, type 0, one zero byte (the shortest extension msgpack can express).
const PLAIN_UNKNOWN = new ExtData(0, Uint8Array.of(0));
const utf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * Decodes msgpack bytes against a type.
 * @example
 * const state = decodeMsgpack(request.prior_state.msgpack, schemaType);
 */
export function decodeMsgpack(bytes: Uint8Array, type: CtyType): CtyValue {
  return fromWire(decode(bytes), type, []);
}

/**
 * Encodes a value of a type to msgpack; throws {@link CtyPathError} when the value does not conform (a provider bug).
 * `undefined` is accepted as null so that models may leave optional attributes out.
 */
export function encodeMsgpack(value: CtyValue | undefined, type: CtyType): Uint8Array {
  return encode(toWire(value, type, []));
}

function fromWire(raw: unknown, type: CtyType, path: ValuePath): CtyValue {
  // As in go-cty, every extension is an unknown, and an unknown needs no dynamic wrapper.
  if (raw instanceof ExtData) {
    const payload = raw.data as Uint8Array; // decoded extensions always carry bytes (functions are encoder-only)
    return raw.type === REFINED_UNKNOWN_EXT && payload.length > 1 ? new UnknownValue(decodeRefinement(payload)) : Unknown;
  }
  if (raw === null) return null;
  switch (type.kind) {
    case "dynamic": {
      if (!Array.isArray(raw) || raw.length !== 2) throw new CtyPathError("dynamic value must be [type, value]", path);
      const typeBytes = raw[0] as unknown;
      const typeText = typeof typeBytes === "string" ? typeBytes : utf8.decode(asBytes(typeBytes, path));
      const actual = typeFromJson(JSON.parse(typeText));
      return new TypedValue(actual, fromWire(raw[1], actual, path));
    }
    case "string":
      if (typeof raw !== "string") throw mismatch(raw, type, path);
      return raw;
    case "number":
      return decodeNumber(raw, path);
    case "bool":
      if (typeof raw !== "boolean") throw mismatch(raw, type, path);
      return raw;
    case "list":
    case "set":
      if (!Array.isArray(raw)) throw mismatch(raw, type, path);
      return raw.map((element, index) => fromWire(element, type.element, [...path, { index }]));
    case "tuple":
      if (!Array.isArray(raw) || (raw.length !== type.elements.length && raw.length !== 0)) {
        throw mismatch(raw, type, path);
      }
      return raw.map((element, index) => fromWire(element, type.elements[index]!, [...path, { index }]));
    case "map": {
      const out: Record<string, CtyValue> = {};
      for (const [key, element] of entriesOf(raw, type, path)) {
        setOwn(out, key, fromWire(element, type.element, [...path, { key }]));
      }
      return out;
    }
    case "object": {
      const given = new Map(entriesOf(raw, type, path));
      const out: Record<string, CtyValue> = {};
      for (const [name, attributeType] of Object.entries(type.attributes)) {
        const step: PathStep = { attribute: name };
        setOwn(out, name, given.has(name) ? fromWire(given.get(name), attributeType, [...path, step]) : null);
        given.delete(name);
      }
      const extra = given.keys().next();
      if (!extra.done) throw new CtyPathError(`unsupported attribute "${extra.value}"`, path);
      return out;
    }
  }
}

function decodeNumber(raw: unknown, path: ValuePath): number {
  if (typeof raw === "number") return raw;
  if (typeof raw === "bigint") return Number(raw);
  // go-cty falls back to a decimal string for numbers that fit neither int64 nor float64 exactly.
  if (typeof raw === "string") {
    const parsed = Number(raw);
    if (!Number.isNaN(parsed)) return parsed;
  }
  throw mismatch(raw, { kind: "number" }, path);
}

function toWire(value: CtyValue | undefined, type: CtyType, path: ValuePath): unknown {
  if (value === undefined || value === null) return null;
  if (isUnknown(value)) {
    const payload = value.refinement && encodeRefinement(value.refinement, type);
    return payload ? new ExtData(REFINED_UNKNOWN_EXT, payload) : PLAIN_UNKNOWN;
  }
  if (type.kind === "dynamic") {
    const typed = value instanceof TypedValue ? value : new TypedValue(impliedType(value), value);
    const typeJson = new TextEncoder().encode(JSON.stringify(typeToJson(typed.type)));
    return [typeJson, toWire(typed.value, typed.type, path)];
  }
  if (value instanceof TypedValue) return toWire(value.value, type, path);
  switch (type.kind) {
    case "string":
      if (typeof value !== "string") throw mismatch(value, type, path);
      return value;
    case "number":
      if (typeof value !== "number" || Number.isNaN(value)) throw mismatch(value, type, path);
      return value;
    case "bool":
      if (typeof value !== "boolean") throw mismatch(value, type, path);
      return value;
    case "list":
    case "set":
      if (!Array.isArray(value)) throw mismatch(value, type, path);
      return value.map((element, index) => toWire(element, type.element, [...path, { index }]));
    case "tuple":
      if (!Array.isArray(value) || value.length !== type.elements.length) throw mismatch(value, type, path);
      return value.map((element, index) => toWire(element, type.elements[index]!, [...path, { index }]));
    case "map": {
      if (Array.isArray(value) || typeof value !== "object") throw mismatch(value, type, path);
      const out: Record<string, unknown> = {};
      for (const [key, element] of Object.entries(value)) setOwn(out, key, toWire(element, type.element, [...path, { key }]));
      return out;
    }
    case "object": {
      if (Array.isArray(value) || typeof value !== "object") throw mismatch(value, type, path);
      for (const key of Object.keys(value)) {
        if (!(key in type.attributes)) throw new CtyPathError(`unsupported attribute "${key}"`, path);
      }
      // go-cty rejects objects that do not carry every attribute, so absent ones are sent as null.
      const out: Record<string, unknown> = {};
      for (const name of Object.keys(type.attributes).sort()) {
        setOwn(out, name, toWire(value[name], type.attributes[name]!, [...path, { attribute: name }]));
      }
      return out;
    }
  }
}

function entriesOf(raw: unknown, type: CtyType, path: ValuePath): [string, unknown][] {
  if (raw === null || typeof raw !== "object" || Array.isArray(raw) || raw instanceof Uint8Array) {
    throw mismatch(raw, type, path);
  }
  return Object.entries(raw);
}

function asBytes(raw: unknown, path: ValuePath): Uint8Array {
  if (raw instanceof Uint8Array) return raw;
  throw new CtyPathError("dynamic value type must be bytes", path);
}

function mismatch(raw: unknown, type: CtyType, path: ValuePath): CtyPathError {
  const got = raw === null ? "null" : Array.isArray(raw) ? "array" : typeof raw;
  return new CtyPathError(`expected ${describeType(type)}, got ${got}`, path);
}
