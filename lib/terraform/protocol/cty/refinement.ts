/**
 * The payload of msgpack extension 12 (a refined unknown), as go-cty writes it: a msgpack map from small integer keys
 * to compact values. Decoding keeps what we understand and skips the rest, as go-cty does, so that a future
 * Terraform adding refinements does not break us.
 *
 * The bytes are msgpack.ts's business: it writes each value against its type, and reads the payload without a type
 * (an unknown key's value has none), handing over a Map.
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

/**
 * The refinements of a payload, as msgpack.ts read it (a Map from integer keys); undefined for anything else or when
 * none is understood (then it is a plain unknown).
 */
export function decodeRefinement(raw: unknown): Refinement | undefined {
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
