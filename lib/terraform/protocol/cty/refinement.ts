/**
 * The payload of msgpack extension 12 (a refined unknown), as go-cty writes it: a msgpack map from small integer keys
 * to compact values. Decoding keeps what we understand and skips the rest, as go-cty does, so that a future
 * Terraform adding refinements does not break us.
 */
import { decode, encode } from "@msgpack/msgpack";
import type { CtyType } from "./type";
import type { Refinement } from "./unknown";

const NULLNESS = 1;
const STRING_PREFIX = 2;
const NUMBER_MIN = 3;
const NUMBER_MAX = 4;
const LENGTH_MIN = 5;
const LENGTH_MAX = 6;

/** Decodes a refinement payload; returns undefined for an empty or unreadable one (then it is a plain unknown). */
export function decodeRefinement(payload: Uint8Array): Refinement | undefined {
  let raw: unknown;
  try {
    raw = decode(payload);
  } catch {
    return undefined;
  }
  if (raw === null || typeof raw !== "object") return undefined;
  const entries = raw as Record<string, unknown>;
  const refinement: { -readonly [K in keyof Refinement]: Refinement[K] } = {};
  if (entries[NULLNESS] === false) refinement.notNull = true;
  if (typeof entries[STRING_PREFIX] === "string") refinement.stringPrefix = entries[STRING_PREFIX];
  const min = decodeBound(entries[NUMBER_MIN]);
  if (min) refinement.numberMin = min;
  const max = decodeBound(entries[NUMBER_MAX]);
  if (max) refinement.numberMax = max;
  if (typeof entries[LENGTH_MIN] === "number") refinement.lengthMin = entries[LENGTH_MIN];
  if (typeof entries[LENGTH_MAX] === "number") refinement.lengthMax = entries[LENGTH_MAX];
  return Object.keys(refinement).length > 0 ? refinement : undefined;
}

function decodeBound(raw: unknown): readonly [number, boolean] | undefined {
  if (!Array.isArray(raw) || raw.length !== 2 || typeof raw[1] !== "boolean") return undefined;
  const bound = typeof raw[0] === "string" ? Number(raw[0]) : raw[0];
  return typeof bound === "number" && !Number.isNaN(bound) ? [bound, raw[1]] : undefined;
}

/**
 * Encodes the refinements that apply to `type` (go-cty rejects, say, a string prefix on a number), or returns
 * undefined when none apply and the compact plain-unknown encoding should be used.
 */
export function encodeRefinement(refinement: Refinement, type: CtyType): Uint8Array | undefined {
  const entries: [number, unknown][] = [];
  if (type.kind === "dynamic") return undefined; // go-cty: dynamic unknowns can never be refined
  if (refinement.notNull) entries.push([NULLNESS, false]);
  if (type.kind === "string" && refinement.stringPrefix) entries.push([STRING_PREFIX, refinement.stringPrefix]);
  if (type.kind === "number" && refinement.numberMin) entries.push([NUMBER_MIN, [...refinement.numberMin]]);
  if (type.kind === "number" && refinement.numberMax) entries.push([NUMBER_MAX, [...refinement.numberMax]]);
  const collection = type.kind === "list" || type.kind === "set" || type.kind === "map";
  if (collection && refinement.lengthMin) entries.push([LENGTH_MIN, refinement.lengthMin]);
  if (collection && refinement.lengthMax !== undefined) entries.push([LENGTH_MAX, refinement.lengthMax]);
  if (entries.length === 0) return undefined;
  // @msgpack/msgpack only writes string map keys; go-cty wants integer keys, so the map is framed by hand:
  // a fixmap header, then each key as a positive fixint followed by its encoded value.
  const parts: Uint8Array[] = [Uint8Array.of(0x80 | entries.length)];
  for (const [key, value] of entries) parts.push(Uint8Array.of(key), encode(value));
  return Buffer.concat(parts);
}
