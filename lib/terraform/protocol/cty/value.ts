/** The JavaScript representation of cty values, shared by the codec and the framework. */
import { typeToJson, type CtyType } from "./type";
import { isUnknown, type UnknownValue } from "./unknown";

/**
 * A value of a dynamically-typed attribute (`cty.DynamicPseudoType`): the value together with the type it was sent
 * with, so that it can be sent back exactly. Plain JS values are accepted too when encoding; their type is implied.
 */
export class TypedValue {
  constructor(
    /** The concrete type of `value`. */
    readonly type: CtyType,
    /** The value, decoded against `type`. */
    readonly value: CtyValue,
  ) {}
}

/**
 * A decoded cty value: `null` for null, {@link UnknownValue} for unknown, strings, numbers (float64: cty's big numbers
 * beyond 2^53 lose precision, so amounts like wei belong in string attributes), booleans, arrays for list/set/tuple,
 * plain objects for map/object, and {@link TypedValue} for dynamic values.
 */
export type CtyValue = null | UnknownValue | string | number | boolean | TypedValue | CtyValue[] | { [key: string]: CtyValue };

/**
 * Whether a value is known all the way down (no unknown anywhere inside it). Null is known.
 * @example
 * if (!isKnownDeep(config.rules)) return; // validate the rules once they are all known
 */
export function isKnownDeep(value: unknown): boolean {
  if (isUnknown(value)) return false;
  if (value instanceof TypedValue) return isKnownDeep(value.value);
  if (Array.isArray(value)) return value.every(isKnownDeep);
  if (value !== null && typeof value === "object") return Object.values(value).every(isKnownDeep);
  return true;
}

/**
 * The type a plain JS value implies when it goes into a dynamic attribute: arrays become tuples and objects become
 * objects, as Terraform itself does for literal values.
 */
export function impliedType(value: CtyValue): CtyType {
  if (value instanceof TypedValue) return value.type;
  if (value === null || isUnknown(value)) return { kind: "dynamic" };
  switch (typeof value) {
    case "string":
      return { kind: "string" };
    case "number":
      return { kind: "number" };
    case "boolean":
      return { kind: "bool" };
  }
  if (Array.isArray(value)) return { kind: "tuple", elements: value.map(impliedType) };
  const attributes: Record<string, CtyType> = {};
  for (const [key, element] of Object.entries(value)) attributes[key] = impliedType(element);
  return { kind: "object", attributes };
}

/** Sets `key` on a fresh plain object safely, even when the key is `__proto__` (map keys come from users). */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__") Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

/** A short description of a type for error messages. */
export function describeType(type: CtyType): string {
  return JSON.stringify(typeToJson(type));
}
