/**
 * chainform's Terraform provider framework: what a resource author sees. Schemas as data, typed models, validators,
 * plan modifiers, diagnostics, and resources written as create / read / update / delete / importState.
 *
 * @example
 * const schema = defineSchema({
 *   description: "A virtual environment.",
 *   attributes: {
 *     // Required
 *     network_id: attr.number({ description: "Chain id.", required: true, planModifiers: [requiresReplace()] }),
 *     // Optional
 *     name: attr.string({ description: "Display name.", optional: true, validators: [lengthBetween(1, 64)] }),
 *     // Computed
 *     id: attr.string({ description: "Identifier.", computed: true, planModifiers: [useStateForUnknown()] }),
 *   },
 * });
 *
 * // `providerData` is what the provider's `configure` returned: here a store of things with create/get/remove.
 * export const thing = defineResource<typeof schema, ThingStore>({
 *   typeName: "example_thing",
 *   schema,
 *   async create({ plan, providerData: store, diagnostics }) {
 *     try {
 *       return toState(await store.create({ networkId: plan.network_id, name: plan.name }));
 *     } catch (error) {
 *       diagnostics.error("Could not create the thing", (error as Error).message);
 *       return;
 *     }
 *   },
 *   async read({ state, providerData: store }) { const found = await store.get(state.id); return found ? toState(found) : null; },
 *   async delete({ state, providerData: store }) { await store.remove(state.id); },
 *   async importState({ id }) { return { id }; },
 * });
 */
export { defineSchema, attr, block, isComputed } from "./schema";
export type { Schema, Attribute, AttributeOptions, BlockSpec, NestedBlock, Nesting, ValueOf } from "./schema";
export type { Model, Plan, Config, MaybeUnknown } from "./model";
export { diag, at, Diagnostics } from "./diagnostics";
export type { Diagnostic, Severity } from "./diagnostics";
export { validator, oneOf, regex, between, lengthBetween } from "./validators";
export type { Validator } from "./validators";
export { requiresReplace, requiresReplaceIf, useStateForUnknown } from "./plan-modifiers";
export type { PlanModifier, PlanModifierRequest, PlanModifierResult } from "./plan-modifiers";
export { defineResource } from "./resource";
export type * from "./resource";
export { defineDataSource } from "./data-source";
export type { DataSource, DataSourceReadRequest } from "./data-source";
export { defineEphemeralResource } from "./ephemeral-resource";
export type {
  ClientCapabilities,
  EphemeralLeaseRequest,
  EphemeralOpenRequest,
  EphemeralOpenResult,
  EphemeralResource,
} from "./ephemeral-resource";
export { defineFunction, FunctionError } from "./function";
export type { FunctionParameter, ProviderFunction } from "./function";
export { defineProvider } from "./provider";
export type { Provider, ConfigureRequest } from "./provider";
export { createProviderServer } from "./dispatcher";
export type { ProviderSource } from "./dispatcher";
export { serveProvider } from "./serve";
export { planResourceChange } from "./plan";
export { validateConfig } from "./validate";
export { Unknown, isUnknown, isKnownDeep, cty, TypedValue } from "../protocol/cty";
export { isKnown } from "./values";
export type { UnknownValue } from "../protocol/cty/unknown";
export type { PathStep, ValuePath } from "../protocol/cty/path";
