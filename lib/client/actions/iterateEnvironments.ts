import type { Environment } from "../../api";
import type { BaseClient } from "../client";
import { paginate } from "../utils/paginate";
import type { ProjectScope } from "../utils/scope";
import { listEnvironments } from "./listEnvironments";

/** Parameters of {@link iterateEnvironments}. */
export interface IterateEnvironmentsParameters extends ProjectScope {
  /** Page size. @default 100 (the largest the service allows) */
  perPage?: number;
}
/** Every environment of the project, newest first, fetched page by page as it is consumed. */
export type IterateEnvironmentsReturnType = AsyncGenerator<Environment, void, undefined>;

/**
 * Iterates over every environment of the project with pages of 100 (3 calls for 250 environments).
 * Environments created or deleted while iterating may be skipped or seen twice, as with any offset pagination.
 *
 * @example
 * for await (const env of iterateEnvironments(client)) console.log(env.slug)
 */
export function iterateEnvironments(client: BaseClient, params: IterateEnvironmentsParameters = {}): IterateEnvironmentsReturnType {
  return paginate((page, perPage) => listEnvironments(client, { ...params, page, perPage }), params.perPage ?? 100);
}
