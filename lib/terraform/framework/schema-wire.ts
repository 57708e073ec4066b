/** A framework schema in the two forms the wire needs: its cty type (to decode values) and its protocol schema. */
import type { CtyType } from "../protocol/cty/type";
import { typeToJson } from "../protocol/cty/type";
import type * as wire from "../protocol/messages";
import type { ProviderFunction } from "./function";
import type { AttributeOptions, BlockSpec, NestedBlock, Schema } from "./schema";
import { isComputed } from "./schema";

/** The cty object type of values of a block (attributes and nested blocks). */
export function blockType(spec: BlockSpec): CtyType {
  const attributes: Record<string, CtyType> = {};
  for (const [name, attribute] of Object.entries(spec.attributes)) attributes[name] = attribute.type;
  for (const [name, nested] of Object.entries(spec.blocks ?? {})) attributes[name] = nestedBlockType(nested);
  return { kind: "object", attributes };
}

function nestedBlockType(nested: NestedBlock<any, any>): CtyType {
  const element = blockType(nested);
  return nested.nesting === "single" ? element : { kind: nested.nesting, element };
}

const NESTING = { list: "LIST", set: "SET", single: "SINGLE" } as const;

/** The protocol form of a schema, as GetProviderSchema returns it. */
export function toWireSchema(schema: Schema<any>): wire.Schema {
  return { version: schema.version, block: toWireBlock(schema, schema.description) };
}

function toWireBlock(spec: BlockSpec, description: string): wire.SchemaBlock {
  return {
    description,
    description_kind: "MARKDOWN",
    attributes: toWireAttributes(spec.attributes),
    block_types: Object.entries(spec.blocks ?? {}).map(([name, nested]) => ({
      type_name: name,
      nesting: NESTING[nested.nesting as keyof typeof NESTING],
      block: toWireBlock(nested, nested.description),
      min_items: nested.minItems ?? 0,
      max_items: nested.maxItems ?? 0,
    })),
  };
}

function toWireAttributes(attributes: BlockSpec["attributes"]): wire.SchemaAttribute[] {
  return Object.entries(attributes).map(([name, attribute]) => {
    const o = attribute.options as AttributeOptions<unknown>;
    return {
      name,
      // Nested attributes describe their type by their fields (nested_type) instead of a cty type.
      ...(attribute.nested
        ? { type: new Uint8Array(0), nested_type: { attributes: toWireAttributes(attribute.nested.attributes), nesting: "LIST" as const } }
        : { type: Buffer.from(JSON.stringify(typeToJson(attribute.type))) }),
      description: o.description,
      description_kind: "MARKDOWN",
      required: o.required === true,
      optional: o.optional === true,
      // An attribute with a default is computed as far as Terraform knows: the provider fills it in.
      computed: isComputed(attribute),
      sensitive: o.sensitive === true,
      deprecated: o.deprecated === true,
    };
  });
}

/** The protocol form of a function's signature, as GetProviderSchema and GetFunctions return it. */
export function toWireFunction(fn: ProviderFunction): wire.FunctionDefinition {
  return {
    summary: fn.summary,
    description: fn.description,
    description_kind: "MARKDOWN",
    parameters: fn.parameters.map((parameter) => ({
      name: parameter.name,
      type: Buffer.from(JSON.stringify(typeToJson(parameter.type))),
      description: parameter.description,
      description_kind: "MARKDOWN",
      allow_null_value: parameter.allowNull === true,
      allow_unknown_values: false,
    })),
    return: { type: Buffer.from(JSON.stringify(typeToJson(fn.returns))) },
  };
}
