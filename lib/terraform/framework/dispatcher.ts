/**
 * The dispatcher: implements the protocol's ProviderServer on top of a framework Provider. Every handler runs the
 * same way: decode against the schema, return early on diagnostics, call the resource, normalize and encode. What it
 * does around the handlers is ./dispatch-support.ts.
 */
import type { CtyValue } from "../protocol/cty/value";
import type { ValuePath } from "../protocol/cty/path";
import { decodeDynamicValue, encodeDynamicValue } from "../protocol/dynamic-value";
import type { ProviderServer, RequestContext } from "../protocol/provider-server";
import { FunctionError } from "./function";
import { Diagnostics, toWirePath } from "./diagnostics";
import { planResourceChange } from "./plan";
import type { Provider } from "./provider";
import type { Schema } from "./schema";
import { toWireSchema } from "./schema-wire";
import { validateConfig } from "./validate";
import {
  bugDetail,
  capabilities,
  changedAttributes,
  clientCapabilities,
  decodePrivate,
  done,
  index,
  timestamp,
  toState,
  validate,
  wireFunctions,
  type Loaded,
  type Typed,
} from "./dispatch-support";

/** A provider, or a function loading it (so that a provider binary can answer the handshake before loading it). */
export type ProviderSource = Provider<any, any> | (() => Provider<any, any> | Promise<Provider<any, any>>);

/**
 * Creates the protocol server for a provider.
 * @example
 * servePlugin(createProviderServer(() => import("./provider").then((m) => m.provider)));
 */
export function createProviderServer(source: ProviderSource): ProviderServer {
  let loading: Promise<Loaded> | undefined;
  let providerData: unknown;
  const load = () => (loading ??= Promise.resolve(typeof source === "function" ? source() : source).then(index));

  const resource = async (typeName: string) => {
    const entry = (await load()).resources.get(typeName);
    if (!entry) throw new Error(`this provider has no resource type "${typeName}"`);
    return entry;
  };
  const dataSource = async (typeName: string) => {
    const entry = (await load()).dataSources.get(typeName);
    if (!entry) throw new Error(`this provider has no data source "${typeName}"`);
    return entry;
  };
  const ephemeral = async (typeName: string) => {
    const entry = (await load()).ephemeralResources.get(typeName);
    if (!entry) throw new Error(`this provider has no ephemeral resource "${typeName}"`);
    return entry;
  };
  const context = (diagnostics: Diagnostics, request: RequestContext) => ({
    providerData,
    diagnostics,
    signal: request.signal,
  });

  return {
    async getMetadata() {
      const { resources, dataSources, ephemeralResources, functions } = await load();
      return {
        server_capabilities: capabilities,
        resources: [...resources.keys()].map((type_name) => ({ type_name })),
        data_sources: [...dataSources.keys()].map((type_name) => ({ type_name })),
        ephemeral_resources: [...ephemeralResources.keys()].map((type_name) => ({ type_name })),
        functions: [...functions.keys()].map((name) => ({ name })),
      };
    },

    async getProviderSchema() {
      const { provider, resources, dataSources, ephemeralResources, functions } = await load();
      const schemas = <T extends { schema: Schema<any> }>(map: Map<string, Typed<T>>) =>
        Object.fromEntries([...map].map(([name, { definition }]) => [name, toWireSchema(definition.schema)]));
      return {
        provider: toWireSchema(provider.schema),
        resource_schemas: schemas(resources),
        data_source_schemas: schemas(dataSources),
        ephemeral_resource_schemas: schemas(ephemeralResources),
        functions: wireFunctions(functions),
        server_capabilities: capabilities,
      };
    },

    async validateProviderConfig(request) {
      const { provider, providerType } = await load();
      const diagnostics = new Diagnostics();
      const config = decodeDynamicValue(request.config, providerType);
      diagnostics.add(...validateConfig(provider.schema, config));
      await provider.validate?.({ config: config as never, diagnostics });
      return done(diagnostics);
    },

    async configureProvider(request) {
      const { provider, providerType, resources } = await load();
      const diagnostics = new Diagnostics();
      const config = decodeDynamicValue(request.config, providerType);
      providerData = await provider.configure({ config: config as never, terraformVersion: request.terraform_version, diagnostics });
      if (!diagnostics.hasErrors) for (const { definition } of resources.values()) definition.configure?.(providerData);
      return done(diagnostics);
    },

    async validateResourceConfig(request) {
      const { definition, type } = await resource(request.type_name);
      return done(await validate(definition, decodeDynamicValue(request.config, type)));
    },

    async validateDataResourceConfig(request) {
      const { definition, type } = await dataSource(request.type_name);
      return done(await validate(definition, decodeDynamicValue(request.config, type)));
    },

    async upgradeResourceState(request) {
      const { definition, type } = await resource(request.type_name);
      const diagnostics = new Diagnostics();
      const json = request.raw_state?.json;
      if (!json || json.length === 0) {
        diagnostics.error(
          "Unsupported state format",
          `The stored state of ${request.type_name} is not JSON (legacy flatmap state is not supported).`,
        );
        return done(diagnostics);
      }
      const version = definition.schema.version as number;
      let text = Buffer.from(json).toString("utf8");
      if (request.version > version) {
        diagnostics.error(
          "State written by a newer provider",
          `The state of ${request.type_name} has schema version ${request.version}; this provider knows up to ${version}. Upgrade the provider.`,
        );
        return done(diagnostics);
      }
      if (request.version < version) {
        if (!definition.upgradeState) {
          diagnostics.error(
            "Cannot upgrade state",
            `${request.type_name} has no upgrade from schema version ${request.version} to ${version}.`,
          );
          return done(diagnostics);
        }
        text = JSON.stringify(await definition.upgradeState({ version: request.version, state: JSON.parse(text) }));
      }
      // Decoded leniently and re-encoded: attributes dropped from the schema since are dropped from state, and new
      // ones start null, instead of Terraform failing to decode the state.
      const decoded = decodeDynamicValue({ json: Buffer.from(text) }, type, { ignoreUnknownAttributes: true });
      const state = decoded === null ? null : toState(definition, decoded, diagnostics);
      return { upgraded_state: encodeDynamicValue(state, type), ...done(diagnostics) };
    },

    async readResource(request, rpc) {
      const { definition, type } = await resource(request.type_name);
      const diagnostics = new Diagnostics();
      const current = decodeDynamicValue(request.current_state, type);
      if (current === null) return { new_state: encodeDynamicValue(null, type) };
      const result = await definition.read({ state: current as never, ...context(diagnostics, rpc) });
      // null: the object is gone and Terraform drops it from state; nothing (after an error): keep what we had.
      const state = result === null ? null : result === undefined ? current : (toState(definition, result, diagnostics) ?? current);
      return { new_state: encodeDynamicValue(state, type), private: request.private, ...done(diagnostics) };
    },

    async planResourceChange(request, rpc) {
      const { definition, type } = await resource(request.type_name);
      const diagnostics = new Diagnostics();
      const prior = decodeDynamicValue(request.prior_state, type);
      const proposed = decodeDynamicValue(request.proposed_new_state, type);
      const config = decodeDynamicValue(request.config, type);
      const { planned, requiresReplace } = planResourceChange(definition.schema, { prior, proposed, config });
      if (planned !== null && prior !== null && !definition.update)
        requiresReplace.push(...changedAttributes(definition, planned, prior, requiresReplace));
      let plannedPrivate = request.prior_private;
      if (planned !== null && definition.modifyPlan) {
        await definition.modifyPlan({
          plan: planned as never,
          state: prior as never,
          config: config as never,
          requiresReplace: (path: ValuePath) => requiresReplace.push(path),
          keepInPlace: (prefix: ValuePath) => {
            const under = (path: ValuePath) =>
              prefix.length <= path.length && prefix.every((step, i) => JSON.stringify(step) === JSON.stringify(path[i]));
            for (let i = requiresReplace.length - 1; i >= 0; i--) if (under(requiresReplace[i]!)) requiresReplace.splice(i, 1);
          },
          private: decodePrivate(request.prior_private),
          setPrivate: (value) => {
            plannedPrivate = value === null ? new Uint8Array(0) : Buffer.from(JSON.stringify(value));
          },
          ...context(diagnostics, rpc),
        });
      }
      return {
        planned_state: encodeDynamicValue(planned, type),
        requires_replace: requiresReplace.map(toWirePath),
        planned_private: plannedPrivate,
        ...done(diagnostics),
      };
    },

    async applyResourceChange(request, rpc) {
      const { definition, type } = await resource(request.type_name);
      const diagnostics = new Diagnostics();
      const prior = decodeDynamicValue(request.prior_state, type);
      const planned = decodeDynamicValue(request.planned_state, type);
      const config = decodeDynamicValue(request.config, type);
      const handler = { ...context(diagnostics, rpc) };
      let state: CtyValue;
      if (planned === null) {
        await definition.delete({ state: prior as never, ...handler });
        state = diagnostics.hasErrors ? prior : null;
      } else if (prior === null) {
        const result = await definition.create({ plan: planned as never, config: config as never, ...handler });
        state = result === undefined ? null : toState(definition, result, diagnostics, true);
        if (state === null && !diagnostics.hasErrors) diagnostics.error(`${request.type_name}: create returned no state`, bugDetail);
      } else if (!definition.update) {
        diagnostics.error(`${request.type_name} cannot be updated in place`, bugDetail);
        state = prior;
      } else {
        const result = await definition.update({ plan: planned as never, state: prior as never, config: config as never, ...handler });
        state = result === undefined ? prior : (toState(definition, result, diagnostics, true) ?? prior);
      }
      return { new_state: encodeDynamicValue(state, type), private: request.planned_private, ...done(diagnostics) };
    },

    async importResourceState(request, rpc) {
      const { definition, type } = await resource(request.type_name);
      const diagnostics = new Diagnostics();
      if (!definition.importState) {
        diagnostics.error("Import not supported", `${request.type_name} cannot be imported; declare it in configuration instead.`);
        return done(diagnostics);
      }
      let importedPrivate: Uint8Array | undefined;
      const result = await definition.importState({
        id: request.id,
        setPrivate: (value) => {
          importedPrivate = value === null ? undefined : Buffer.from(JSON.stringify(value));
        },
        ...context(diagnostics, rpc),
      });
      const state = result === undefined ? null : toState(definition, result, diagnostics, true);
      if (state === null) return done(diagnostics);
      return {
        imported_resources: [
          {
            type_name: request.type_name,
            state: encodeDynamicValue(state, type),
            ...(importedPrivate ? { private: importedPrivate } : {}),
          },
        ],
        ...done(diagnostics),
      };
    },

    async readDataSource(request, rpc) {
      const { definition, type } = await dataSource(request.type_name);
      const diagnostics = new Diagnostics();
      const config = decodeDynamicValue(request.config, type);
      const result = await definition.read({ config: config as never, ...context(diagnostics, rpc) });
      const state = result === undefined ? null : toState(definition, result, diagnostics, true);
      if (state === null)
        return done(diagnostics.hasErrors ? diagnostics : diagnostics.error(`${request.type_name}: read returned nothing`, bugDetail));
      return { state: encodeDynamicValue(state, type), ...done(diagnostics) };
    },

    async getFunctions() {
      return { functions: wireFunctions((await load()).functions) };
    },

    // Terraform may call a function on a provider it has not configured: `run` gets only its arguments.
    async callFunction(request) {
      const fn = (await load()).functions.get(request.name);
      if (!fn) return { error: { text: `this provider has no function "${request.name}"` } };
      if (request.arguments.length !== fn.parameters.length) {
        return { error: { text: `${fn.name} takes ${fn.parameters.length} argument(s), got ${request.arguments.length}` } };
      }
      let args: CtyValue[];
      try {
        args = fn.parameters.map((parameter, i) => {
          try {
            return decodeDynamicValue(request.arguments[i]!, parameter.type);
          } catch (error) {
            throw new FunctionError(error instanceof Error ? error.message : String(error), i);
          }
        });
        return { result: encodeDynamicValue(fn.run(args), fn.returns) };
      } catch (error) {
        if (!(error instanceof FunctionError)) throw error;
        return { error: { text: error.message, ...(error.argument !== undefined ? { function_argument: error.argument } : {}) } };
      }
    },

    async validateEphemeralResourceConfig(request) {
      const { definition, type } = await ephemeral(request.type_name);
      return done(await validate(definition, decodeDynamicValue(request.config, type)));
    },

    async openEphemeralResource(request, rpc) {
      const { definition, type } = await ephemeral(request.type_name);
      const diagnostics = new Diagnostics();
      const config = decodeDynamicValue(request.config, type);
      const opened = await definition.open({
        config: config as never,
        clientCapabilities: clientCapabilities(request.client_capabilities),
        ...context(diagnostics, rpc),
      });
      const result = opened === undefined ? null : toState(definition, opened.result, diagnostics, true);
      if (result === null)
        return done(diagnostics.hasErrors ? diagnostics : diagnostics.error(`${request.type_name}: open returned nothing`, bugDetail));
      return {
        result: encodeDynamicValue(result, type),
        ...(opened?.private ? { private: Buffer.from(JSON.stringify(opened.private)) } : {}),
        ...(opened?.renewAt ? { renew_at: timestamp(opened.renewAt) } : {}),
        ...done(diagnostics),
      };
    },

    async renewEphemeralResource(request, rpc) {
      const { definition } = await ephemeral(request.type_name);
      const diagnostics = new Diagnostics();
      if (!definition.renew) return { private: request.private, ...done(diagnostics) };
      const renewed = await definition.renew({ private: decodePrivate(request.private), ...context(diagnostics, rpc) });
      return {
        ...(renewed?.private
          ? { private: Buffer.from(JSON.stringify(renewed.private)) }
          : request.private
            ? { private: request.private }
            : {}),
        ...(renewed?.renewAt ? { renew_at: timestamp(renewed.renewAt) } : {}),
        ...done(diagnostics),
      };
    },

    async closeEphemeralResource(request, rpc) {
      const { definition } = await ephemeral(request.type_name);
      const diagnostics = new Diagnostics();
      await definition.close?.({ private: decodePrivate(request.private), ...context(diagnostics, rpc) });
      return done(diagnostics);
    },
  };
}
