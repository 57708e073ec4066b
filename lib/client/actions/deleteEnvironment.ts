import type { BaseClient } from "../client";
import { ApiError, type RequestErrorType } from "../errors";
import { segment } from "../transport/url";
import { environmentsPath, type ProjectScope } from "../utils/scope";

/** Parameters of {@link deleteEnvironment}. */
export interface DeleteEnvironmentParameters extends ProjectScope {
  /** The environment's id (uuid). */
  environmentId: string;
  /**
   * Treat "not found" as success: the caller wants the environment gone, not to be the one who deleted it.
   * Use it for teardown, where a retried DELETE may find its own earlier attempt already succeeded.
   * @default false
   */
  ensureDeleted?: boolean;
}
/** `deleted`: this call removed it; false when `ensureDeleted` found it already gone. */
export type DeleteEnvironmentReturnType = { deleted: boolean };
/** Errors {@link deleteEnvironment} can throw (404 only without `ensureDeleted`). */
export type DeleteEnvironmentErrorType = RequestErrorType;

/**
 * Deletes one environment permanently: `DELETE .../environments/{environmentId}` (204).
 *
 * @example
 * await deleteEnvironment(client, { environmentId, ensureDeleted: true })
 */
export async function deleteEnvironment(client: BaseClient, params: DeleteEnvironmentParameters): Promise<DeleteEnvironmentReturnType> {
  try {
    await client.request({
      method: "DELETE",
      path: `${environmentsPath(client, params)}/${segment("environmentId", params.environmentId)}`,
    });
    return { deleted: true };
  } catch (error) {
    if (params.ensureDeleted && error instanceof ApiError && error.status === 404) return { deleted: false };
    throw error;
  }
}
