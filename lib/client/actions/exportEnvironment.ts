import type { BaseClient } from "../client";
import type { RequestErrorType } from "../errors";
import { segment } from "../transport/url";
import { environmentsPath, type ProjectScope } from "../utils/scope";

/** Parameters of {@link exportEnvironment}. */
export interface ExportEnvironmentParameters extends ProjectScope {
  /** The environment's id (uuid). */
  environmentId: string;
}
/** The fixture file's bytes. */
export type ExportEnvironmentReturnType = Buffer;
/** Errors {@link exportEnvironment} can throw; an unknown id is an ApiError 404. */
export type ExportEnvironmentErrorType = RequestErrorType;

/**
 * The fixture file of an environment (docs/fixtures.md): `GET .../environments/{id}/export`, its chains' state,
 * records, verified contracts and fork recordings, and no secret. A local extra of chainform's service.
 *
 * @example
 * writeFileSync("ci.chainform", await exportEnvironment(client, { environmentId }))
 */
export async function exportEnvironment(client: BaseClient, params: ExportEnvironmentParameters): Promise<ExportEnvironmentReturnType> {
  return client.request<Buffer>({
    method: "GET",
    path: `${environmentsPath(client, params)}/${segment("environmentId", params.environmentId)}/export`,
    bytesAnswer: true,
  });
}
