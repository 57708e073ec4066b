import { ShapeMismatch } from "../transport/transport";

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Returns a parser for a single object the service may send bare or wrapped under `key` (docs/service.md "Shapes": the
 * Environment comes bare, `{ environment }` is tolerated). The object must carry every field of `required`.
 */
export function single<T>(key: string, required: readonly string[] = []): (body: unknown) => T {
  return (body) => {
    const value = isObject(body) && isObject(body[key]) ? body[key] : body;
    if (!isObject(value)) throw new ShapeMismatch(`Expected an object or { ${key}: object }.`);
    const missing = required.filter((field) => !(field in value));
    if (missing.length) throw new ShapeMismatch(`The ${key} lacks ${missing.join(", ")}.`);
    return value as T;
  };
}

/** Returns a parser for a collection the service may send as `{ [key]: [...] }` or as a bare array. */
export function list<T>(key: string): (body: unknown) => T[] {
  return (body) => {
    if (Array.isArray(body)) return body as T[];
    if (isObject(body) && Array.isArray(body[key])) return body[key] as T[];
    throw new ShapeMismatch(`Expected { ${key}: [...] } or an array.`);
  };
}
