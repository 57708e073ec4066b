import type { Environment } from "../../api";
import type { BaseClient } from "../client";
import type { RequestErrorType } from "../errors";
import { environmentsPath, type ProjectScope } from "../utils/scope";
import { parseEnvironment } from "./getEnvironment";

/** Parameters of {@link importEnvironment}. */
export interface ImportEnvironmentParameters extends ProjectScope {
  /** The fixture file's bytes. */
  file: Buffer;
  /** The new environment's slug; the fixture's when left out. */
  slug?: string;
  /** The new environment's name; the fixture's when left out. */
  displayName?: string;
}
/** The new environment, with new ids and RPC URLs. */
export type ImportEnvironmentReturnType = Environment;
/** Errors {@link importEnvironment} can throw; a bad file or a taken slug (`data.field` `/slug`) is an ApiError 400. */
export type ImportEnvironmentErrorType = RequestErrorType;

/**
 * A new environment made from a fixture file (docs/fixtures.md): `POST .../environments/import`, the same chains
 * under new ids and RPC URLs. Not retried once sent (the slug makes a second import a 400). A local extra of
 * chainform's service.
 *
 * @example
 * const env = await importEnvironment(client, { file: readFileSync("ci.chainform") })
 */
export async function importEnvironment(client: BaseClient, params: ImportEnvironmentParameters): Promise<ImportEnvironmentReturnType> {
  return client.request({
    method: "POST",
    path: `${environmentsPath(client, params)}/import`,
    query: { slug: params.slug, display_name: params.displayName },
    bytes: params.file,
    parse: parseEnvironment,
  });
}
