/**
 * The cty type system as plain data. Terraform describes every value it sends by a cty type, and the provider must
 * decode against that type (msgpack carries no type information of its own), so these types drive the codec.
 */

/** A cty primitive type. */
export interface PrimitiveType<K extends "string" | "number" | "bool" = "string" | "number" | "bool"> {
  readonly kind: K;
}
/** The cty dynamic pseudo-type: the value carries its own type on the wire. */
export interface DynamicType {
  readonly kind: "dynamic";
}
/** A cty list, set or map of one element type. */
export interface CollectionType<K extends "list" | "set" | "map" = "list" | "set" | "map", E extends CtyType = CtyType> {
  readonly kind: K;
  readonly element: E;
}
/** A cty object: a fixed set of named attributes, each of its own type. */
export interface ObjectType<A extends Readonly<Record<string, CtyType>> = Readonly<Record<string, CtyType>>> {
  readonly kind: "object";
  readonly attributes: A;
}
/** A cty tuple: a fixed-length sequence of elements of their own types. */
export interface TupleType<E extends readonly CtyType[] = readonly CtyType[]> {
  readonly kind: "tuple";
  readonly elements: E;
}

/** Any cty type. */
export type CtyType = PrimitiveType | DynamicType | CollectionType | ObjectType | TupleType;

/**
 * Constructors of cty types.
 * @example
 * const rule = cty.object({ name: cty.string, ports: cty.list(cty.number) });
 */
export const cty = {
  string: { kind: "string" } as PrimitiveType<"string">,
  number: { kind: "number" } as PrimitiveType<"number">,
  bool: { kind: "bool" } as PrimitiveType<"bool">,
  dynamic: { kind: "dynamic" } as DynamicType,
  list: <E extends CtyType>(element: E): CollectionType<"list", E> => ({ kind: "list", element }),
  set: <E extends CtyType>(element: E): CollectionType<"set", E> => ({ kind: "set", element }),
  map: <E extends CtyType>(element: E): CollectionType<"map", E> => ({ kind: "map", element }),
  object: <A extends Record<string, CtyType>>(attributes: A): ObjectType<A> => ({ kind: "object", attributes }),
  tuple: <E extends readonly CtyType[]>(...elements: E): TupleType<E> => ({ kind: "tuple", elements }),
} as const;

/** The JSON form of a cty type, as used in schemas and inside dynamic values: `"string"`, `["list","string"]`. */
export type CtyTypeJson =
  | "string"
  | "number"
  | "bool"
  | "dynamic"
  | ["list" | "set" | "map", CtyTypeJson]
  | ["object", Record<string, CtyTypeJson>]
  | ["tuple", CtyTypeJson[]];

/** Converts a type to its JSON form (what go-cty's `Type.MarshalJSON` produces). */
export function typeToJson(type: CtyType): CtyTypeJson {
  switch (type.kind) {
    case "string":
    case "number":
    case "bool":
    case "dynamic":
      return type.kind;
    case "list":
    case "set":
    case "map":
      return [type.kind, typeToJson(type.element)];
    case "object":
      return ["object", Object.fromEntries(Object.entries(type.attributes).map(([k, t]) => [k, typeToJson(t)]))];
    case "tuple":
      return ["tuple", type.elements.map(typeToJson)];
  }
}

/** Parses the JSON form of a type; throws on anything that is not one (a bug in whoever produced it). */
export function typeFromJson(json: unknown): CtyType {
  if (json === "string" || json === "number" || json === "bool" || json === "dynamic") return { kind: json };
  if (Array.isArray(json) && json.length === 2) {
    const [kind, arg] = json as [unknown, unknown];
    if (kind === "list" || kind === "set" || kind === "map") return { kind, element: typeFromJson(arg) };
    if (kind === "object" && arg !== null && typeof arg === "object" && !Array.isArray(arg)) {
      return { kind, attributes: Object.fromEntries(Object.entries(arg).map(([k, t]) => [k, typeFromJson(t)])) };
    }
    if (kind === "tuple" && Array.isArray(arg)) return { kind, elements: arg.map(typeFromJson) };
  }
  throw new TypeError(`not a cty type: ${JSON.stringify(json)}`);
}

/** Whether two types are the same type. */
export function typeEquals(a: CtyType, b: CtyType): boolean {
  return JSON.stringify(typeToJson(a)) === JSON.stringify(typeToJson(b));
}
