/**
 * What the msgpack reader (./msgpack-reader.ts) and writer (./msgpack-writer.ts) share: the extension code of refined
 * unknowns, the path stack for error messages, object attribute names worked out once per type, and the header codes
 * of msgpack's containers and strings.
 */
import { CtyPathError, type PathStep, type ValuePath } from "./path";
import type { ObjectType } from "./type";

/** The msgpack extension code of a refined unknown (go-cty's; a plain unknown is extension 0). */
export const REFINED_UNKNOWN_EXT = 12;
/** Decodes UTF-8 strictly: bytes that are not UTF-8 are an error, not replacement characters. */
export const utf8 = new TextDecoder("utf-8", { fatal: true });
// Strings shorter than this (in UTF-16 units) are tried as ASCII first: see Writer.stringOrBinary.
/** Strings shorter than this (UTF-16 units) are tried as ASCII first. */
export const SHORT_STRING = 64;

// The path to the value being read or written, kept as a stack of plain keys (string: attribute or map key, number:
// index) and turned into PathSteps only when an error is thrown.
/** The kinds of a path step on the {@link PathStack}: an attribute, a map key, a list/set/tuple index. */
export const ATTRIBUTE = 0;
/** See {@link ATTRIBUTE}. */
export const KEY = 1;
/** See {@link ATTRIBUTE}. */
export const INDEX = 2;
// It runs for every attribute of every value, so push and pop only move a depth: the slots above it are stale.
/** The path to the value being read or written, turned into PathSteps only for an error. */
export class PathStack {
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
/** An object type's attribute names, declared and sorted, worked out once per type. */
export function namesOf(type: ObjectType): { declared: string[]; sorted: string[] } {
  let names = attributeNames.get(type);
  if (!names) {
    const declared = Object.keys(type.attributes);
    names = { declared, sorted: [...declared].sort() };
    attributeNames.set(type, names);
  }
  return names;
}

/** Whether `target` has `key` of its own (not from its prototype). */
export const hasOwn = (target: object, key: string): boolean => Object.prototype.hasOwnProperty.call(target, key);

/** The header codes of a container: its fix form (the low 4 bits hold up to 15 entries), then 16- and 32-bit forms. */
export interface ContainerForm {
  readonly fix: number;
  readonly wide: number;
}
/** The header codes of arrays and maps. */
export const ARRAY: ContainerForm = { fix: 0x90, wide: 0xdc };
/** See {@link ARRAY}. */
export const MAP: ContainerForm = { fix: 0x80, wide: 0xde };

/** Whether a header byte starts a string, an array, a map, an extension. */
export const isString = (head: number): boolean => (head >= 0xa0 && head <= 0xbf) || (head >= 0xd9 && head <= 0xdb);
/** See {@link isString}. */
export const isArray = (head: number): boolean => (head >= 0x90 && head <= 0x9f) || head === 0xdc || head === 0xdd;
/** See {@link isString}. */
export const isMap = (head: number): boolean => (head >= 0x80 && head <= 0x8f) || head === 0xde || head === 0xdf;

/** See {@link isString}. */
export const isExtension = (head: number): boolean => (head >= 0xd4 && head <= 0xd8) || (head >= 0xc7 && head <= 0xc9);

/** What a msgpack value is, in the words JavaScript would use for it once decoded (`typeof`). */
export function describeHead(head: number): string {
  if (head === 0xc0) return "null";
  if (head === 0xc2 || head === 0xc3) return "boolean";
  if (isString(head)) return "string";
  if (isArray(head)) return "array";
  if ((head >= 0x80 && head <= 0x8f) || head === 0xde || head === 0xdf) return "object";
  if (head >= 0xc4 && head <= 0xc6) return "object"; // bytes
  if (head === 0xc1) return "an invalid msgpack byte";
  return "number";
}
