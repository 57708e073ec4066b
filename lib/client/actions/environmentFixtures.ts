/**
 * Environments as fixtures (docs/fixtures.md), local extras of the chainform service: export an environment as one
 * file, import a file as a new environment, clone an environment in place. The hosted service has no such endpoints.
 */
import type { Environment } from "../../api";
import type { BaseClient } from "../client";
import { segment } from "../transport/url";
import { environmentsPath, type ProjectScope } from "../utils/scope";
import { parseEnvironment } from "./getEnvironment";

/** Parameters of {@link exportEnvironment}. */
export interface ExportEnvironmentParameters extends ProjectScope {
  /** The environment's id (uuid). */
  environmentId: string;
}

/**
 * The fixture file of an environment: `GET .../environments/{id}/export`, its chains' state, records, verified
 * contracts and fork recordings, and no secret.
 *
 * @example
 * writeFileSync("ci.chainform", await exportEnvironment(client, { environmentId }))
 */
export async function exportEnvironment(client: BaseClient, params: ExportEnvironmentParameters): Promise<Buffer> {
  return client.request<Buffer>({
    method: "GET",
    path: `${environmentsPath(client, params)}/${segment("environmentId", params.environmentId)}/export`,
    bytesAnswer: true,
  });
}

/** Parameters of {@link importEnvironment}. */
export interface ImportEnvironmentParameters extends ProjectScope {
  /** The fixture file's bytes. */
  file: Buffer;
  /** The new environment's slug; the fixture's when left out (a taken slug is an ApiError 400 naming `/slug`). */
  slug?: string;
  /** The new environment's name; the fixture's when left out. */
  displayName?: string;
}

/**
 * A new environment made from a fixture file: `POST .../environments/import`, new ids and RPC URLs, the same chains.
 * Not retried once sent (a retry could import twice; the slug makes a second import a 400).
 *
 * @example
 * const env = await importEnvironment(client, { file: readFileSync("ci.chainform") })
 */
export async function importEnvironment(client: BaseClient, params: ImportEnvironmentParameters): Promise<Environment> {
  return client.request({
    method: "POST",
    path: `${environmentsPath(client, params)}/import`,
    query: { slug: params.slug, display_name: params.displayName },
    bytes: params.file,
    parse: parseEnvironment,
  });
}

/** Parameters of {@link cloneEnvironment}. */
export interface CloneEnvironmentParameters extends ProjectScope {
  /** The environment to clone (uuid). */
  environmentId: string;
  /** The clone's name. */
  display_name: string;
  /** The clone's slug; made from the name when left out, as a create's. */
  slug?: string;
}

/**
 * A new environment whose chains start from another's current state and then live on their own:
 * `POST .../environments/{id}/clone`.
 *
 * @example
 * const copy = await cloneEnvironment(client, { environmentId, display_name: "bug 123" })
 */
export async function cloneEnvironment(client: BaseClient, params: CloneEnvironmentParameters): Promise<Environment> {
  return client.request({
    method: "POST",
    path: `${environmentsPath(client, params)}/${segment("environmentId", params.environmentId)}/clone`,
    body: { display_name: params.display_name, ...(params.slug !== undefined && { slug: params.slug }) },
    parse: parseEnvironment,
  });
}
