/**
 * Schemas as data: attributes and nested blocks with their descriptions, flags, defaults, validators and plan
 * modifiers. The same object gives Terraform its schema, drives planning and validation, and gives resources their
 * model types (see `Model`).
 */
import { cty, type CtyType, type CollectionType, type ObjectType, type PrimitiveType } from "../protocol/cty/type";
import type { CtyValue } from "../protocol/cty/value";
import type { PlanModifier } from "./plan-modifiers";
import type { Validator } from "./validators";

/** Options shared by every attribute. Exactly one of required / optional / computed-only must describe it. */
export interface AttributeOptions<T> {
  /** What the attribute is, for docs and `terraform providers schema`. Required: every attribute says what it is. */
  readonly description: string;
  /** The configuration must set it. */
  readonly required?: boolean;
  /** The configuration may set it. */
  readonly optional?: boolean;
  /** The provider sets it (alone: read-only; with optional: the provider fills it when the configuration does not). */
  readonly computed?: boolean;
  /** Terraform hides the value in plans and output. */
  readonly sensitive?: boolean;
  /** Terraform warns when the configuration sets it. */
  readonly deprecated?: boolean;
  /** The value planned when the configuration leaves the attribute out (makes the attribute optional+computed). */
  readonly default?: T;
  /** Checks of the configured value, run during validation on known values only. */
  readonly validators?: readonly Validator<T>[];
  /** Adjust the planned value (`useStateForUnknown()`) or force replacement (`requiresReplace()`). */
  readonly planModifiers?: readonly PlanModifier<T>[];
}

/** An attribute of a schema block. `T` is the model type of its known, non-null value. */
export interface Attribute<T = unknown, O extends AttributeOptions<T> = AttributeOptions<T>> {
  readonly kind: "attribute";
  /** The cty type of the value. */
  readonly type: CtyType;
  /** The options given to the builder. */
  readonly options: O;
  /**
   * For nested attributes (protocol 6 `nested_type`): the attributes of each element. Unlike an object-typed
   * attribute, each nested attribute keeps its own flags, so one of them can be sensitive on its own.
   */
  readonly nested?: { readonly nesting: "list"; readonly attributes: Readonly<Record<string, Attribute<any, any>>> };
  /** Type-level only: the model type of the value. */
  readonly __value?: T;
}

/** The contents of a block: attributes and nested blocks, by name. */
export interface BlockSpec {
  /** Attributes by name (snake_case, as in HCL). */
  readonly attributes: Readonly<Record<string, Attribute<any, any>>>;
  /** Nested blocks by name. */
  readonly blocks?: Readonly<Record<string, NestedBlock<any>>>;
}

/** How a nested block repeats: `list` and `set` model as arrays, `single` as an object or null. */
export type Nesting = "list" | "set" | "single";

/** A nested block of a schema block. */
export interface NestedBlock<S extends BlockSpec = BlockSpec, N extends Nesting = Nesting> extends BlockSpec {
  readonly kind: "block";
  readonly nesting: N;
  /** What the block is for. */
  readonly description: string;
  /** Fewest blocks allowed (Terraform enforces it). */
  readonly minItems?: number;
  /** Most blocks allowed (Terraform enforces it). */
  readonly maxItems?: number;
  readonly attributes: S["attributes"];
  readonly blocks: S["blocks"] extends object ? S["blocks"] : {};
}

/** The top-level schema of a provider, resource or data source. */
export interface Schema<S extends BlockSpec = BlockSpec> extends BlockSpec {
  /** What the provider / resource / data source does (shown in docs). */
  readonly description: string;
  /** The state format version; bump it when stored state needs an upgrade (see `Resource.upgradeState`). */
  readonly version: number;
  readonly attributes: S["attributes"];
  readonly blocks: S["blocks"] extends object ? S["blocks"] : {};
}

/** Input of {@link defineSchema}. */
export interface SchemaInput<A, B> {
  readonly description: string;
  readonly version?: number;
  readonly attributes: A;
  readonly blocks?: B;
}

/**
 * Defines a schema. Group attributes Required / Optional / Computed, as the style guide asks.
 * @example
 * const schema = defineSchema({
 *   description: "A virtual environment.",
 *   attributes: {
 *     name: attr.string({ description: "Display name.", required: true }),
 *     id: attr.string({ description: "Identifier.", computed: true, planModifiers: [useStateForUnknown()] }),
 *   },
 * });
 */
export function defineSchema<
  const A extends Record<string, Attribute<any, any>>,
  const B extends Record<string, NestedBlock<any, any>> = {},
>(input: SchemaInput<A, B>): Schema<{ attributes: A; blocks: B }> {
  const schema = {
    description: input.description,
    version: input.version ?? 0,
    attributes: input.attributes,
    blocks: (input.blocks ?? {}) as B,
  };
  checkBlock(schema, "");
  return schema;
}

function attribute<T>(type: CtyType) {
  return <const O extends AttributeOptions<T>>(options: O): Attribute<T, O> => ({ kind: "attribute", type, options });
}

/** The model type of a cty type's known, non-null value. */
export type ValueOf<T> =
  T extends PrimitiveType<"string">
    ? string
    : T extends PrimitiveType<"number">
      ? number
      : T extends PrimitiveType<"bool">
        ? boolean
        : T extends CollectionType<"list" | "set", infer E>
          ? ValueOf<E>[]
          : T extends CollectionType<"map", infer E>
            ? Record<string, ValueOf<E>>
            : T extends ObjectType<infer A>
              ? { [K in keyof A]: ValueOf<A[K]> | null }
              : CtyValue;

/**
 * Attribute builders, one per value type.
 * @example
 * attr.string({ description: "Region.", optional: true, default: "eu", validators: [oneOf(["eu", "us"])] })
 * attr.map(cty.string, { description: "Labels.", optional: true })
 */
export const attr = {
  /** A string attribute. */
  string: attribute<string>(cty.string),
  /** A number attribute (float64; use strings for integers beyond 2^53 such as wei amounts). */
  number: attribute<number>(cty.number),
  /** A bool attribute. */
  bool: attribute<boolean>(cty.bool),
  /** A list attribute of an element type. */
  list: <E extends CtyType, const O extends AttributeOptions<ValueOf<E>[]>>(element: E, options: O) =>
    attribute<ValueOf<E>[]>(cty.list(element))(options),
  /** A set attribute of an element type (modelled as an array; order is not meaningful). */
  set: <E extends CtyType, const O extends AttributeOptions<ValueOf<E>[]>>(element: E, options: O) =>
    attribute<ValueOf<E>[]>(cty.set(element))(options),
  /** A map attribute from string keys to an element type. */
  map: <E extends CtyType, const O extends AttributeOptions<Record<string, ValueOf<E>>>>(element: E, options: O) =>
    attribute<Record<string, ValueOf<E>>>(cty.map(element))(options),
  /**
   * A list of objects whose fields are attributes with their own descriptions and flags (protocol 6 nested
   * attributes): use it for computed lists where one field is sensitive and the others are not.
   * @example
   * attr.nestedList({ url: attr.string({ description: "URL.", computed: true, sensitive: true }) },
   *   { description: "Endpoints.", computed: true })
   */
  nestedList: <
    const F extends Record<string, Attribute<any, any>>,
    const O extends AttributeOptions<{ [K in keyof F]: (F[K] extends Attribute<infer T, any> ? T : never) | null }[]>,
  >(
    fields: F,
    options: O,
  ): Attribute<{ [K in keyof F]: (F[K] extends Attribute<infer T, any> ? T : never) | null }[], O> => ({
    kind: "attribute",
    type: cty.list(cty.object(Object.fromEntries(Object.entries(fields).map(([name, field]) => [name, field.type])))),
    options,
    nested: { nesting: "list", attributes: fields },
  }),
  /** An object attribute with a fixed set of typed fields. */
  object: <A extends Record<string, CtyType>, const O extends AttributeOptions<ValueOf<ObjectType<A>>>>(fields: A, options: O) =>
    attribute<ValueOf<ObjectType<A>>>(cty.object(fields))(options),
};

/** Input of the nested block builders. */
export interface NestedBlockInput<A, B> {
  readonly description: string;
  readonly attributes: A;
  readonly blocks?: B;
  readonly minItems?: number;
  readonly maxItems?: number;
}

function nestedBlock<N extends Nesting>(nesting: N) {
  return <const A extends Record<string, Attribute<any, any>>, const B extends Record<string, NestedBlock<any, any>> = {}>(
    input: NestedBlockInput<A, B>,
  ): NestedBlock<{ attributes: A; blocks: B }, N> => ({
    kind: "block",
    nesting,
    description: input.description,
    attributes: input.attributes,
    blocks: (input.blocks ?? {}) as B,
    ...(input.minItems !== undefined ? { minItems: input.minItems } : {}),
    ...(input.maxItems !== undefined ? { maxItems: input.maxItems } : {}),
  });
}

/**
 * Nested block builders: `rule { ... }` in HCL.
 * @example
 * blocks: { rule: block.list({ description: "A firewall rule.", maxItems: 10, attributes: { port: attr.number({...}) } }) }
 */
export const block = {
  /** Repeated blocks, in order (model: array). */
  list: nestedBlock("list"),
  /** Repeated blocks, unordered (model: array). */
  set: nestedBlock("set"),
  /** At most one block (model: object or null). */
  single: nestedBlock("single"),
};

/** Whether an attribute is filled in by the provider when the configuration leaves it out. */
export function isComputed(attribute: Attribute<any, any>): boolean {
  return attribute.options.computed === true || attribute.options.default !== undefined;
}

// Schema mistakes are bugs in the provider: fail at definition time, with the attribute's name.
function checkBlock(spec: BlockSpec, prefix: string): void {
  for (const [name, attribute] of Object.entries(spec.attributes)) {
    const where = `${prefix}${name}`;
    const o = attribute.options as AttributeOptions<unknown>;
    if (!o.description) throw new Error(`schema: attribute "${where}" needs a description`);
    if (o.required && (o.optional || o.computed))
      throw new Error(`schema: attribute "${where}" is required, so it cannot be optional or computed`);
    if (!o.required && !o.optional && !o.computed) throw new Error(`schema: attribute "${where}" must be required, optional or computed`);
    if (o.default !== undefined && !o.optional) throw new Error(`schema: attribute "${where}" has a default, so it must be optional`);
    if (attribute.nested) checkBlock({ attributes: attribute.nested.attributes }, `${where}.`);
  }
  for (const [name, nested] of Object.entries(spec.blocks ?? {})) {
    if (!nested.description) throw new Error(`schema: block "${prefix}${name}" needs a description`);
    checkBlock(nested, `${prefix}${name}.`);
  }
}
