/** The cty type system, value representation and codecs (msgpack and JSON) used on the plugin wire. */
export { cty, typeToJson, typeFromJson, typeEquals } from "./type";
export type { CtyType, CtyTypeJson, PrimitiveType, DynamicType, CollectionType, ObjectType, TupleType } from "./type";
export { Unknown, UnknownValue, isUnknown } from "./unknown";
export type { Refinement } from "./unknown";
export { TypedValue, isKnownDeep, impliedType } from "./value";
export type { CtyValue } from "./value";
export { formatPath, CtyPathError } from "./path";
export type { PathStep, ValuePath } from "./path";
export { decodeMsgpack, encodeMsgpack } from "./msgpack";
export { decodeJson } from "./json";
export type { DecodeJsonOptions } from "./json";
