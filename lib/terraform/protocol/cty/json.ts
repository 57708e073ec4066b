/**
 * cty values from JSON, the encoding of DynamicValue.json and of raw resource state (UpgradeResourceState). JSON has
 * no unknowns; dynamically-typed values are `{"value": ..., "type": ...}` as go-cty's cty/json writes them.
 */
import { CtyPathError, type ValuePath } from "./path";
import { typeFromJson, type CtyType } from "./type";
import { describeType, setOwn, TypedValue, type CtyValue } from "./value";

/** Options for {@link decodeJson}. */
export interface DecodeJsonOptions {
  /**
   * Drop object attributes the type does not have instead of failing. Stored state may hold attributes a newer
   * schema removed; the upgrade path uses this so that removing an attribute does not strand existing state.
   */
  readonly ignoreUnknownAttributes?: boolean;
}

/**
 * Decodes JSON text (or its UTF-8 bytes) against a type.
 * @example
 * const state = decodeJson(request.raw_state.json, schemaType, { ignoreUnknownAttributes: true });
 */
export function decodeJson(json: string | Uint8Array, type: CtyType, options: DecodeJsonOptions = {}): CtyValue {
  return fromJson(JSON.parse(typeof json === "string" ? json : utf8Text(json)), type, [], options);
}

/**
 * UTF-8 bytes as text, as TextDecoder reads them (a leading byte order mark dropped, bad bytes as U+FFFD). Through
 * Buffer: on Node 20 a TextDecoder costs ~0.1 ms to make, once per state in an UpgradeResourceState.
 */
function utf8Text(bytes: Uint8Array): string {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8");
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

function fromJson(raw: unknown, type: CtyType, path: ValuePath, options: DecodeJsonOptions): CtyValue {
  if (raw === null || raw === undefined) return null;
  switch (type.kind) {
    case "dynamic": {
      if (typeof raw !== "object" || !("type" in raw) || !("value" in raw)) {
        throw new CtyPathError('dynamic value must be {"value": ..., "type": ...}', path);
      }
      const actual = typeFromJson(raw.type);
      return new TypedValue(actual, fromJson(raw.value, actual, path, options));
    }
    case "string":
      // go-cty's JSON decoder converts JSON numbers and booleans into strings where a string is expected.
      if (typeof raw === "string") return raw;
      if (typeof raw === "number" || typeof raw === "boolean") return String(raw);
      throw mismatch(raw, type, path);
    case "number": {
      const number = typeof raw === "string" ? Number(raw) : raw;
      if (typeof number !== "number" || Number.isNaN(number)) throw mismatch(raw, type, path);
      return number;
    }
    case "bool":
      if (typeof raw === "boolean") return raw;
      if (raw === "true" || raw === "false") return raw === "true";
      throw mismatch(raw, type, path);
    case "list":
    case "set":
      if (!Array.isArray(raw)) throw mismatch(raw, type, path);
      return raw.map((element, index) => fromJson(element, type.element, [...path, { index }], options));
    case "tuple":
      if (!Array.isArray(raw) || raw.length !== type.elements.length) throw mismatch(raw, type, path);
      return raw.map((element, index) => fromJson(element, type.elements[index]!, [...path, { index }], options));
    case "map": {
      const out: Record<string, CtyValue> = {};
      for (const [key, element] of entriesOf(raw, type, path)) {
        setOwn(out, key, fromJson(element, type.element, [...path, { key }], options));
      }
      return out;
    }
    case "object": {
      const given = new Map(entriesOf(raw, type, path));
      const out: Record<string, CtyValue> = {};
      for (const [name, attributeType] of Object.entries(type.attributes)) {
        setOwn(out, name, fromJson(given.get(name), attributeType, [...path, { attribute: name }], options));
        given.delete(name);
      }
      const extra = given.keys().next();
      if (!extra.done && !options.ignoreUnknownAttributes) {
        throw new CtyPathError(`unsupported attribute "${extra.value}"`, path);
      }
      return out;
    }
  }
}

function entriesOf(raw: unknown, type: CtyType, path: ValuePath): [string, unknown][] {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) throw mismatch(raw, type, path);
  return Object.entries(raw);
}

function mismatch(raw: unknown, type: CtyType, path: ValuePath): CtyPathError {
  return new CtyPathError(`expected ${describeType(type)}, got ${Array.isArray(raw) ? "array" : typeof raw}`, path);
}
