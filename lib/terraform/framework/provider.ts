/** The provider as its author writes it: a schema, `configure`, and its resources and data sources. */
import type { DataSource } from "./data-source";
import type { Diagnostics } from "./diagnostics";
import type { EphemeralResource } from "./ephemeral-resource";
import type { ProviderFunction } from "./function";
import type { Config } from "./model";
import type { Resource, ValidateRequest } from "./resource";
import type { Schema } from "./schema";

/** Input of the provider's `configure`. */
export interface ConfigureRequest<S extends Schema<any>> {
  /** The provider block's configuration; values may be unknown when they depend on resources not yet created. */
  readonly config: Config<S>;
  /** The Terraform version, e.g. "1.11.4". */
  readonly terraformVersion: string;
  /** Add errors here (say, a missing access key and where to set it). */
  readonly diagnostics: Diagnostics;
}

/** A provider. `D` is what `configure` returns and every resource receives as `providerData`. */
export interface Provider<S extends Schema<any> = Schema<any>, D = unknown> {
  /** The provider's local name, which prefixes its resource types (`chainform`). */
  readonly typeName: string;
  /** The schema of the `provider` block. */
  readonly schema: S;
  /** Checks of the provider configuration beyond per-attribute validators. */
  validate?(request: ValidateRequest<S, D>): void | Promise<void>;
  /** Turns the configuration into the data handed to resources (an API client); may be async. */
  configure(request: ConfigureRequest<S>): D | Promise<D>;
  /** The managed resources. */
  readonly resources: readonly Resource<any, D>[];
  /** The data sources. */
  readonly dataSources?: readonly DataSource<any, D>[];
  /** The ephemeral resources (Terraform 1.10 and later): values used during a run, never stored. */
  readonly ephemeralResources?: readonly EphemeralResource<any, D>[];
  /** The functions (Terraform 1.8 and later), called as `provider::NAME::FUNCTION(...)`. */
  readonly functions?: readonly ProviderFunction[];
}

/**
 * Defines a provider.
 * @example
 * export const provider = defineProvider({
 *   typeName: "echo",
 *   schema: providerSchema,
 *   configure: ({ config }) => new EchoStore(config.path ?? "echo.json"),
 *   resources: [thing],
 *   dataSources: [things],
 * });
 */
export function defineProvider<S extends Schema<any>, D>(provider: Provider<S, D>): Provider<S, D> {
  return provider;
}
