import type { Environment } from "../../api";
import type { BaseClient } from "../client";
import type { RequestErrorType } from "../errors";
import { segment } from "../transport/url";
import { environmentsPath, type ProjectScope } from "../utils/scope";
import { parseEnvironment } from "./getEnvironment";

/** Parameters of {@link cloneEnvironment}. */
export interface CloneEnvironmentParameters extends ProjectScope {
  /** The environment to clone (uuid). */
  environmentId: string;
  /** The clone's name. */
  display_name: string;
  /** The clone's slug; made from the name when left out, as a create's. */
  slug?: string;
}
/** The clone, with its own ids and RPC URLs. */
export type CloneEnvironmentReturnType = Environment;
/** Errors {@link cloneEnvironment} can throw; an unknown id is an ApiError 404, a taken slug a 400 naming `/slug`. */
export type CloneEnvironmentErrorType = RequestErrorType;

/**
 * A new environment whose chains start from another's current state and then live on their own (docs/fixtures.md):
 * `POST .../environments/{id}/clone`. A local extra of chainform's service.
 *
 * @example
 * const copy = await cloneEnvironment(client, { environmentId, display_name: "bug 123" })
 */
export async function cloneEnvironment(client: BaseClient, params: CloneEnvironmentParameters): Promise<CloneEnvironmentReturnType> {
  return client.request({
    method: "POST",
    path: `${environmentsPath(client, params)}/${segment("environmentId", params.environmentId)}/clone`,
    body: { display_name: params.display_name, ...(params.slug !== undefined && { slug: params.slug }) },
    parse: parseEnvironment,
  });
}
