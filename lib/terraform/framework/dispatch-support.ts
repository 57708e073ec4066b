/**
 * What the dispatcher (./dispatcher.ts) does around every handler: index a provider's definitions with their types,
 * validate a configuration, turn a handler's model into state (a malformed one is a provider bug), read private
 * data, and find the attributes whose change replaces a resource without update.
 */
import type { CtyType } from "../protocol/cty/type";
import { isUnknown } from "../protocol/cty/unknown";
import { isKnownDeep, type CtyValue } from "../protocol/cty/value";
import { CtyPathError, formatPath, type ValuePath } from "../protocol/cty/path";
import type * as wire from "../protocol/messages";
import type { DataSource } from "./data-source";
import type { ClientCapabilities, EphemeralResource } from "./ephemeral-resource";
import type { ProviderFunction } from "./function";
import { Diagnostics, toWireDiagnostic } from "./diagnostics";
import { normalizeBlock } from "./normalize";
import type { Provider } from "./provider";
import type { Resource } from "./resource";
import type { Schema } from "./schema";
import { blockType, toWireFunction } from "./schema-wire";
import { validateConfig } from "./validate";
import { valuesEqual } from "./values";

/** A definition with the cty type of its schema. */
export interface Typed<T> {
  readonly definition: T;
  readonly type: CtyType;
}

/** A provider indexed for dispatch. */
export interface Loaded {
  readonly provider: Provider<any, any>;
  readonly providerType: CtyType;
  readonly resources: Map<string, Typed<Resource<any, any>>>;
  readonly dataSources: Map<string, Typed<DataSource<any, any>>>;
  readonly ephemeralResources: Map<string, Typed<EphemeralResource<any, any>>>;
  readonly functions: Map<string, ProviderFunction>;
}

/** A decoded object value. */
export type Obj = Record<string, CtyValue>;

/** The provider's functions as the protocol lists them. */
export function wireFunctions(functions: Map<string, ProviderFunction>): Record<string, wire.FunctionDefinition> {
  return Object.fromEntries([...functions].map(([name, fn]) => [name, toWireFunction(fn)]));
}

/** What the Terraform client says it supports, in the framework's words. */
export function clientCapabilities(wireCapabilities: wire.ClientCapabilities | null): ClientCapabilities {
  return {
    deferralAllowed: wireCapabilities?.deferral_allowed === true,
    writeOnlyAttributesAllowed: wireCapabilities?.write_only_attributes_allowed === true,
  };
}

/** A date as a protobuf Timestamp. */
export function timestamp(date: Date): wire.Timestamp {
  const ms = date.getTime();
  return { seconds: Math.floor(ms / 1000), nanos: (ms % 1000) * 1_000_000 };
}

/** The server's capabilities: the schema is the same for every process of a command, so Terraform may ask once. */
export const capabilities: wire.ServerCapabilities = { get_provider_schema_optional: true, plan_destroy: false };

/** The detail of a diagnostic that reports a provider bug. */
export const bugDetail = "This is a bug in the provider; please report it.";

/** A provider's resources, data sources, ephemeral resources and functions by name, with their cty types. */
export function index(provider: Provider<any, any>): Loaded {
  const typed = <T extends { typeName: string; schema: Schema<any> }>(list: readonly T[] = []) =>
    new Map(list.map((definition) => [definition.typeName, { definition, type: blockType(definition.schema) }]));
  return {
    provider,
    providerType: blockType(provider.schema),
    resources: typed(provider.resources),
    dataSources: typed(provider.dataSources),
    ephemeralResources: typed(provider.ephemeralResources),
    functions: new Map((provider.functions ?? []).map((fn) => [fn.name, fn])),
  };
}

/** The schema's checks of a configuration, then the definition's own `validate`. */
export async function validate(
  definition: Resource<any, any> | DataSource<any, any> | EphemeralResource<any, any>,
  config: CtyValue,
): Promise<Diagnostics> {
  const diagnostics = new Diagnostics();
  diagnostics.add(...validateConfig(definition.schema, config));
  await definition.validate?.({ config: config as never, diagnostics });
  return diagnostics;
}

/** A response holding only diagnostics. */
export function done(diagnostics: Diagnostics): { diagnostics: wire.Diagnostic[] } {
  return { diagnostics: diagnostics.all.map(toWireDiagnostic) };
}

/**
 * Normalizes what a handler returned into state for its schema. A malformed model, or (after apply) one still
 * holding unknown values, is a provider bug: reported as an error diagnostic naming the attribute.
 */
export function toState(
  definition: { typeName: string; schema: Schema<any> },
  model: unknown,
  diagnostics: Diagnostics,
  mustBeKnown = false,
): Obj | null {
  try {
    const state = normalizeBlock(definition.schema, model);
    if (mustBeKnown) {
      const unknown = Object.keys(state).find((name) => !isKnownDeep(state[name]));
      if (unknown) throw new CtyPathError("still unknown after apply: set it from the service's response", [{ attribute: unknown }]);
    }
    return state;
  } catch (error) {
    if (!(error instanceof CtyPathError)) throw error;
    diagnostics.error(
      `${definition.typeName}: invalid state for ${formatPath(error.path)}`,
      `${error.message}\n\n${bugDetail}`,
      error.path,
    );
    return null;
  }
}

/** Private data as JSON written by `setPrivate`; anything else (or nothing) reads as null. */
export function decodePrivate(bytes: Uint8Array | undefined): Record<string, unknown> | null {
  if (!bytes || bytes.length === 0) return null;
  try {
    const value: unknown = JSON.parse(Buffer.from(bytes).toString("utf8"));
    return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** Top-level attributes and blocks that change, for resources without update (each change replaces them). */
export function changedAttributes(definition: Resource<any, any>, planned: CtyValue, prior: CtyValue, already: ValuePath[]): ValuePath[] {
  const plannedObj = planned as Obj;
  const priorObj = prior as Obj;
  const names = [...Object.keys(definition.schema.attributes), ...Object.keys(definition.schema.blocks ?? {})];
  return (
    names
      // Unknown values are computed ones the change itself makes unknown: they follow the replacement, not cause it.
      .filter((name) => !isUnknown(plannedObj[name]) && !valuesEqual(plannedObj[name], priorObj[name]))
      .filter((name) => !already.some((path) => path.length > 0 && "attribute" in path[0]! && path[0].attribute === name))
      .map((name) => [{ attribute: name }])
  );
}
