import type { Environment } from "../../api";
import type { BaseClient } from "../client";
import type { RequestErrorType } from "../errors";
import type { ProjectScope } from "../utils/scope";
import { iterateEnvironments } from "./iterateEnvironments";

/** Parameters of {@link getEnvironmentBySlug}. */
export interface GetEnvironmentBySlugParameters extends ProjectScope {
  /** The environment's slug. */
  slug: string;
}
/** The environment, or null when the project has none with that slug. */
export type GetEnvironmentBySlugReturnType = Environment | null;
/** Errors {@link getEnvironmentBySlug} can throw. */
export type GetEnvironmentBySlugErrorType = RequestErrorType;

/**
 * Finds an environment by slug. The service has no lookup by slug, so this walks the listing (pages of 100)
 * and stops at the first match.
 *
 * @example
 * const env = await getEnvironmentBySlug(client, { slug: "ci-main" })
 * if (env === null) console.log("not there")
 */
export async function getEnvironmentBySlug(
  client: BaseClient,
  params: GetEnvironmentBySlugParameters,
): Promise<GetEnvironmentBySlugReturnType> {
  for await (const environment of iterateEnvironments(client, { accountSlug: params.accountSlug, projectSlug: params.projectSlug })) {
    if (environment.slug === params.slug) return environment;
  }
  return null;
}
