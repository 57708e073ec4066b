import type { CreateEnvironmentRequest, Environment } from "../../api";
import type { BaseClient } from "../client";
import type { RequestErrorType } from "../errors";
import { diffEnvironment, type EnvironmentDifference } from "../utils/environmentDiff";
import type { ProjectScope } from "../utils/scope";
import { slugify } from "../../domain/slug";
import { createEnvironment, slugTakenBy } from "./createEnvironment";
import { getEnvironmentBySlug } from "./getEnvironmentBySlug";

/** Parameters of {@link ensureEnvironment}: the wanted environment. Its slug defaults to `slugify(display_name)`. */
export type EnsureEnvironmentParameters = CreateEnvironmentRequest & ProjectScope;
/** The environment, whether this call created it, and how an existing one differs from the spec. */
export interface EnsureEnvironmentReturnType {
  environment: Environment;
  /** true when this call created it. */
  created: boolean;
  /** Fields where an existing environment differs from the spec ([] when it matches or was just created). */
  differences: EnvironmentDifference[];
}
/** Errors {@link ensureEnvironment} can throw. */
export type EnsureEnvironmentErrorType = RequestErrorType;

/**
 * Create-or-get by slug: returns the project's environment with the spec's slug (default
 * `slugify(display_name)`, deterministic so repeated runs find the same one), creating it when there is none.
 * An existing environment is returned as it is, never modified; `differences` says where it departs from the
 * spec so the caller can decide to recreate it. Only what the documented Environment shows is compared (display
 * name, slug, networks and fork blocks); accounts, chain-id overrides, explorer and bridge settings are not in the
 * response and cannot be checked.
 *
 * @example
 * const { environment, created, differences } = await ensureEnvironment(client, {
 *   display_name: "Staging fork",
 *   network_configs: [{ network_id: "1" }],
 * })
 * if (differences.length) console.warn("staging-fork drifted:", differences)
 */
export async function ensureEnvironment(client: BaseClient, params: EnsureEnvironmentParameters): Promise<EnsureEnvironmentReturnType> {
  const spec = { ...params, slug: params.slug ?? slugify(params.display_name) };
  const found = (environment: Environment) => ({ environment, created: false, differences: diffEnvironment(spec, environment) });
  const existing = await getEnvironmentBySlug(client, spec);
  if (existing) return found(existing);
  try {
    return { environment: await createEnvironment(client, spec), created: true, differences: [] };
  } catch (error) {
    // Someone else created it between our lookup and our POST.
    const raced = await slugTakenBy(client, spec, spec.slug, error);
    if (raced) return found(raced);
    throw error;
  }
}
