/**
 * cty values to and from msgpack, the encoding of DynamicValue.msgpack. Mirrors go-cty's cty/msgpack: decoding is
 * always against a type, objects carry every attribute, unknowns are msgpack extensions, and dynamically-typed
 * values travel as `[typeJSON, value]`.
 *
 * The codec reads and writes msgpack itself, in one pass guided by the type: no intermediate tree of plain values,
 * and a path is built only for an error message. A provider process lives for one Terraform command, so this code
 * runs almost only in V8's interpreter, where a general msgpack library and a second pass over its result cost
 * several times more (see docs/performance.md). `msgpack.test.ts` checks the bytes against `@msgpack/msgpack`.
 * The reader is ./msgpack-reader.ts, the writer ./msgpack-writer.ts, what they share ./msgpack-format.ts.
 */
import { CtyPathError } from "./path";
import type { CtyType } from "./type";
import type { CtyValue } from "./value";
import { Reader } from "./msgpack-reader";
import { Writer } from "./msgpack-writer";

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
