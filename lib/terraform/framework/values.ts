/** Comparisons of decoded cty values, as planning needs them. */
import { isUnknown, type UnknownValue } from "../protocol/cty/unknown";
import { TypedValue } from "../protocol/cty/value";

/**
 * Whether a configured value is there and known: neither null (unset), undefined, nor unknown until apply.
 * @example
 * if (isKnown(config.slug) && isKnown(config.slug_prefix)) diagnostics.error(...);
 */
export function isKnown<T>(value: T): value is Exclude<T, null | undefined | UnknownValue> {
  return value !== null && value !== undefined && !isUnknown(value);
}

/**
 * Whether two values are the same value. Unknown equals nothing (not even unknown): a value that is not known yet
 * may turn out different, which is how Terraform itself treats a planned unknown against a prior value.
 */
export function valuesEqual(a: unknown, b: unknown): boolean {
  if (isUnknown(a) || isUnknown(b)) return false;
  if (a === b) return true;
  if (a instanceof TypedValue || b instanceof TypedValue) {
    return a instanceof TypedValue && b instanceof TypedValue && valuesEqual(a.value, b.value);
  }
  if (a === null || b === null || typeof a !== "object" || typeof b !== "object") return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keysA = Object.keys(a);
  const keysB = Object.keys(b);
  if (keysA.length !== keysB.length) return false;
  return keysA.every((key) => valuesEqual((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]));
}
