/**
 * Ephemeral resources as their authors write them: a schema and `open` (with optional `renew` and `close`).
 * Terraform opens one at plan and again at apply, whenever a configuration refers to it, and never writes its
 * result to a plan file or to state: the place for credentials that must be used but never kept.
 */
import type { Model } from "./model";
import type { HandlerContext, ValidateRequest } from "./resource";
import type { Schema } from "./schema";

/** Optional protocol features Terraform said it supports, in the request that carries them. */
export interface ClientCapabilities {
  /** Terraform can handle a deferred answer (only with `terraform plan -allow-deferral`, an experiment in 1.11). */
  readonly deferralAllowed: boolean;
  /** Terraform understands write-only attributes (1.11 and later). */
  readonly writeOnlyAttributesAllowed: boolean;
}

/** Input of an ephemeral resource's `open`. */
export interface EphemeralOpenRequest<S extends Schema<any>, D> extends HandlerContext<D> {
  /** The configuration: wholly known (Terraform does not open a resource whose configuration is still unknown). */
  readonly config: Model<S>;
  /** What the Terraform that sent the request supports. */
  readonly clientCapabilities: ClientCapabilities;
}

/** What `open` returns: the result, and what Terraform hands back to `renew` and `close`. */
export interface EphemeralOpenResult<S extends Schema<any>> {
  /** The configuration with every computed attribute filled in. */
  readonly result: Model<S>;
  /** Kept by Terraform in memory only and handed to `renew` and `close` (e.g. a lease id); JSON. */
  readonly private?: Record<string, unknown>;
  /** When Terraform should call `renew` (e.g. before a lease expires); never when left out. */
  readonly renewAt?: Date;
}

/** Input of `renew` and `close`. */
export interface EphemeralLeaseRequest<D> extends HandlerContext<D> {
  /** What `open` (or the last `renew`) returned as private, or null. */
  readonly private: Record<string, unknown> | null;
}

/** An ephemeral resource. `S` is its schema, `D` what the provider's `configure` returns. */
export interface EphemeralResource<S extends Schema<any> = Schema<any>, D = unknown> {
  /** The full type name, e.g. `chainform_admin_rpc`. */
  readonly typeName: string;
  /** The schema: arguments are required/optional, results computed (and usually sensitive). */
  readonly schema: S;
  /** Checks beyond per-attribute validators. */
  validate?(request: ValidateRequest<S, D>): void | Promise<void>;
  /** Produces the value; undefined after adding an error. */
  open(request: EphemeralOpenRequest<S, D>): Promise<EphemeralOpenResult<S> | undefined>;
  /** Extends what `open` obtained; returns when to renew next (undefined: never). */
  renew?(request: EphemeralLeaseRequest<D>): Promise<{ renewAt?: Date; private?: Record<string, unknown> } | undefined>;
  /** Releases what `open` obtained, when Terraform no longer needs it. */
  close?(request: EphemeralLeaseRequest<D>): Promise<void>;
}

/**
 * Defines an ephemeral resource.
 * @example
 * export const token = defineEphemeralResource<typeof schema, Client>({
 *   typeName: "echo_token",
 *   schema,
 *   async open({ config, providerData: client }) { return { result: { ...config, token: await client.token() } }; },
 * });
 */
export function defineEphemeralResource<S extends Schema<any>, D = unknown>(resource: EphemeralResource<S, D>): EphemeralResource<S, D> {
  return resource;
}
