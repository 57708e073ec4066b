/**
 * Typed models. A resource's values are plain objects keyed by the schema's (snake_case) names: the same shape as
 * the HCL, so nothing is renamed on the way. The types below derive from the schema, so the compiler knows which
 * attributes can be null, which can be unknown and when.
 */
import type { UnknownValue } from "../protocol/cty/unknown";
import type { Attribute, AttributeOptions, BlockSpec, NestedBlock, Schema } from "./schema";

type AttributeValue<A> =
  A extends Attribute<infer T, infer O>
    ? O extends { required: true }
      ? T
      : O extends { default: {} | null }
        ? T
        : O extends { optional: true }
          ? T | null
          : T // computed only: the provider always sets it
    : never;

// Unknown at apply time: computed attributes the provider has yet to fill. One with a default never is: the default
// is planned whenever the configuration leaves the attribute out.
type MayBeUnknownAtApply<A> =
  A extends Attribute<any, infer O> ? (O extends { default: {} | null } ? false : O extends { computed: true } ? true : false) : false;

type BlockValue<B> = B extends NestedBlock<infer S, infer N> ? (N extends "single" ? ModelOf<S> | null : ModelOf<S>[]) : never;

type PlannedBlockValue<B> = B extends NestedBlock<infer S, infer N> ? (N extends "single" ? PlanOf<S> | null : PlanOf<S>[]) : never;

type Blocks<S extends BlockSpec> = S["blocks"] extends object ? S["blocks"] : {};

/** The model of a block spec: what state holds. */
export type ModelOf<S extends BlockSpec> = {
  -readonly [K in keyof S["attributes"]]: AttributeValue<S["attributes"][K]>;
} & { -readonly [K in keyof Blocks<S>]: BlockValue<Blocks<S>[K]> };

/** The plan of a block spec at apply time: computed attributes may still be unknown, nothing else is. */
export type PlanOf<S extends BlockSpec> = {
  -readonly [K in keyof S["attributes"]]: MayBeUnknownAtApply<S["attributes"][K]> extends true
    ? AttributeValue<S["attributes"][K]> | UnknownValue
    : AttributeValue<S["attributes"][K]>;
} & { -readonly [K in keyof Blocks<S>]: PlannedBlockValue<Blocks<S>[K]> };

/** A value that may be unknown at any depth, as in configuration during validation and planning. */
export type MaybeUnknown<T> = T extends readonly (infer E)[]
  ? MaybeUnknown<E>[] | UnknownValue
  : T extends object
    ? { [K in keyof T]: MaybeUnknown<T[K]> } | UnknownValue
    : T | UnknownValue;

/**
 * The state model of a schema: required attributes are `T`, optional ones `T | null`, computed-only ones and ones
 * with a default `T`; list and set blocks are arrays, single blocks an object or null.
 * @example
 * type Thing = Model<typeof thingSchema>;
 */
export type Model<S extends Schema<any>> = ModelOf<S>;

/** The planned state handed to `create` and `update`: only computed attributes may be unknown. */
export type Plan<S extends Schema<any>> = PlanOf<S>;

/** Configuration during validation and planning: anything may still be unknown. */
export type Config<S extends Schema<any>> = { [K in keyof Model<S>]: MaybeUnknown<Model<S>[K]> };

/** Re-exported for model declarations. */
export type { AttributeOptions };
