/**
 * Managed resources as their authors write them: a schema and five handlers. The framework turns Terraform's RPCs
 * into these calls; resources never see protobuf, msgpack or RPC names.
 */
import type { Diagnostics } from "./diagnostics";
import type { Config, Model, Plan } from "./model";
import type { Schema } from "./schema";
import type { ValuePath } from "../protocol/cty/path";

/** What every handler gets: the provider's data (its API client), a place for diagnostics, and cancellation. */
export interface HandlerContext<D> {
  /** What the provider's `configure` returned (typically the API client). */
  readonly providerData: D;
  /** Add errors and warnings here; an error fails the operation. */
  readonly diagnostics: Diagnostics;
  /** Aborted when the user interrupts Terraform (Ctrl-C): stop waiting and return. */
  readonly signal: AbortSignal;
}

/** Input of `create`. */
export interface CreateRequest<S extends Schema<any>, D> extends HandlerContext<D> {
  /** The planned state: configuration plus defaults; computed attributes may be unknown. */
  readonly plan: Plan<S>;
  /** The configuration. */
  readonly config: Plan<S>;
}

/** Input of `read`. */
export interface ReadRequest<S extends Schema<any>, D> extends HandlerContext<D> {
  /** The state Terraform holds. */
  readonly state: Model<S>;
}

/** Input of `update`. */
export interface UpdateRequest<S extends Schema<any>, D> extends HandlerContext<D> {
  /** The planned state. */
  readonly plan: Plan<S>;
  /** The prior state. */
  readonly state: Model<S>;
  /** The configuration. */
  readonly config: Plan<S>;
}

/** Input of `delete`. */
export interface DeleteRequest<S extends Schema<any>, D> extends HandlerContext<D> {
  /** The state of the object to delete. */
  readonly state: Model<S>;
}

/** Input of `importState`. */
export interface ImportRequest<D> extends HandlerContext<D> {
  /** What the user passed to `terraform import` or an `import` block. */
  readonly id: string;
  /** Sets the private data stored with the imported state (e.g. to remember what import could not recover). */
  setPrivate(value: Record<string, unknown> | null): void;
}

/** Input of `validate`. */
export interface ValidateRequest<S extends Schema<any>, D = unknown> {
  /** The configuration; any value may still be unknown. */
  readonly config: Config<S>;
  /** Add errors (with their path) here. */
  readonly diagnostics: Diagnostics;
  /** Type-level only. */
  readonly __providerData?: D;
}

/** Input of `modifyPlan`. */
export interface ModifyPlanRequest<S extends Schema<any>, D> extends HandlerContext<D | undefined> {
  /** The planned state so far (after defaults and plan modifiers); modify it in place. */
  readonly plan: Config<S>;
  /** The prior state; null when creating. */
  readonly state: Model<S> | null;
  /** The configuration. */
  readonly config: Config<S>;
  /** Marks an attribute whose change forces replacement. */
  requiresReplace(path: ValuePath): void;
  /**
   * Withdraws the replacement that attributes at or under `path` asked for (their plan modifiers ran first): the
   * change becomes an in-place update. For values the prior state could not know (e.g. after an import).
   */
  keepInPlace(path: ValuePath): void;
  /**
   * The resource's private data from the prior plan or state (JSON the provider wrote with `setPrivate`); Terraform
   * passes a replacement's first plan's private data to its second, null-prior plan, which is how that plan can
   * tell a replacement from a plain create.
   */
  readonly private: Record<string, unknown> | null;
  /** Sets the private data carried with this plan (and, after apply, with the state). */
  setPrivate(value: Record<string, unknown> | null): void;
}

/** Input of `upgradeState`. */
export interface UpgradeStateRequest {
  /** The schema version the state was written with (lower than the current one). */
  readonly version: number;
  /** The stored state, as parsed JSON. */
  readonly state: Record<string, unknown>;
}

/**
 * A managed resource. `S` is its schema, `D` what the provider's `configure` returns.
 * Handlers return the new state (create, update, read), null from `read` when the object is gone, or nothing
 * after adding an error to `diagnostics`.
 */
export interface Resource<S extends Schema<any> = Schema<any>, D = unknown> {
  /** The full type name, e.g. `chainform_environment`. */
  readonly typeName: string;
  /** The schema. */
  readonly schema: S;
  /** Called once the provider is configured, for resources that keep the provider data themselves. */
  configure?(providerData: D): void;
  /** Checks beyond per-attribute validators (e.g. attributes that exclude each other). */
  validate?(request: ValidateRequest<S, D>): void | Promise<void>;
  /** Adjusts the plan, or fails it with a diagnostic (e.g. a value the service will reject). */
  modifyPlan?(request: ModifyPlanRequest<S, D>): void | Promise<void>;
  /** Creates the object and returns its state. */
  create(request: CreateRequest<S, D>): Promise<Model<S> | undefined>;
  /** Reads the object: its state, or null when it no longer exists (Terraform then plans to create it again). */
  read(request: ReadRequest<S, D>): Promise<Model<S> | null | undefined>;
  /**
   * Updates the object in place and returns its state. Without it, every change replaces the resource (the
   * framework marks changed attributes as forcing replacement).
   */
  update?(request: UpdateRequest<S, D>): Promise<Model<S> | undefined>;
  /** Deletes the object; an object already gone is not an error. */
  delete(request: DeleteRequest<S, D>): Promise<void>;
  /**
   * Turns an import id into a (partial) state; Terraform then calls `read` with it. Without it, import is
   * refused with a diagnostic.
   */
  importState?(request: ImportRequest<D>): Promise<Partial<Model<S>> | undefined>;
  /** Upgrades state written with an older schema version to the current one. */
  upgradeState?(request: UpgradeStateRequest): Record<string, unknown> | Promise<Record<string, unknown>>;
}

/**
 * Defines a resource, checking the handlers against the schema's model types.
 * @example
 * export const thing = defineResource<typeof thingSchema, EchoStore>({
 *   typeName: "echo_thing",
 *   schema: thingSchema,
 *   async create({ plan, providerData: store }) { return toState(await store.create(plan)); },
 *   async read({ state, providerData: store }) { const t = await store.get(state.id); return t ? toState(t) : null; },
 *   async update({ plan, state, providerData: store }) { return toState(await store.update(state.id, plan)); },
 *   async delete({ state, providerData: store }) { await store.remove(state.id); },
 *   async importState({ id }) { return { id }; },
 * });
 */
export function defineResource<S extends Schema<any>, D = unknown>(resource: Resource<S, D>): Resource<S, D> {
  return resource;
}
