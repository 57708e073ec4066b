/** DynamicValue (the protocol's envelope for cty values) to and from decoded values. */
import { decodeJson, type DecodeJsonOptions } from "./cty/json";
import { decodeMsgpack, encodeMsgpack } from "./cty/msgpack";
import type { CtyType } from "./cty/type";
import type { CtyValue } from "./cty/value";
import type { DynamicValue } from "./messages";

/**
 * Decodes a DynamicValue against a type: msgpack when present, else JSON; an absent or empty one is null.
 * @example
 * const config = decodeDynamicValue(request.config, schemaType);
 */
export function decodeDynamicValue(value: DynamicValue | null | undefined, type: CtyType, jsonOptions?: DecodeJsonOptions): CtyValue {
  if (value?.msgpack && value.msgpack.length > 0) return decodeMsgpack(value.msgpack, type);
  if (value?.json && value.json.length > 0) return decodeJson(value.json, type, jsonOptions);
  return null;
}

/**
 * Encodes a value of a type as a msgpack DynamicValue (what Terraform expects in every response).
 * @example
 * return { new_state: encodeDynamicValue(state, schemaType) };
 */
export function encodeDynamicValue(value: CtyValue | undefined, type: CtyType): DynamicValue {
  return { msgpack: encodeMsgpack(value, type) };
}
