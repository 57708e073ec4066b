/** Data sources as their authors write them: a schema and `read`. */
import type { Config, Model } from "./model";
import type { HandlerContext, ValidateRequest } from "./resource";
import type { Schema } from "./schema";

/** Input of a data source's `read`. */
export interface DataSourceReadRequest<S extends Schema<any>, D> extends HandlerContext<D> {
  /** The configuration (known: Terraform defers reading until it is). */
  readonly config: Model<S>;
}

/** A data source. `S` is its schema, `D` what the provider's `configure` returns. */
export interface DataSource<S extends Schema<any> = Schema<any>, D = unknown> {
  /** The full type name, e.g. `chainform_networks`. */
  readonly typeName: string;
  /** The schema: arguments are required/optional, results computed. */
  readonly schema: S;
  /** Checks beyond per-attribute validators. */
  validate?(request: ValidateRequest<S, D>): void | Promise<void>;
  /** Reads the data: the configuration with every computed attribute filled in. */
  read(request: DataSourceReadRequest<S, D>): Promise<Model<S> | undefined>;
}

/**
 * Defines a data source.
 * @example
 * export const things = defineDataSource<typeof schema, EchoStore>({
 *   typeName: "echo_things",
 *   schema,
 *   async read({ config, providerData: store }) { return { ...config, ids: await store.ids() }; },
 * });
 */
export function defineDataSource<S extends Schema<any>, D = unknown>(dataSource: DataSource<S, D>): DataSource<S, D> {
  return dataSource;
}

/** Re-exported so data sources can type their validate hooks. */
export type { Config };
