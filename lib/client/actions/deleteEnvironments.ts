import { MAX_BATCH_DELETE_IDS } from "../../domain/constants";
import type { BaseClient } from "../client";
import { ApiError, type RequestErrorType } from "../errors";
import { environmentsPath, type ProjectScope } from "../utils/scope";
import { deleteEnvironment } from "./deleteEnvironment";

/** Parameters of {@link deleteEnvironments}. */
export interface DeleteEnvironmentsParameters extends ProjectScope {
  /** Ids to delete; any number (sent in chunks of 100), duplicates ignored. */
  environmentIds: readonly string[];
}
/** Counts of a batch delete. `deleted + alreadyMissing === requested`. */
export interface DeleteEnvironmentsReturnType {
  /** Distinct ids asked for. */
  requested: number;
  /** Ids this call removed. */
  deleted: number;
  /**
   * Ids gone without this call confirming it deleted them: already missing, or (when the service's 404 does not
   * list the missing ids) possibly deleted by the batch itself. Either way they no longer exist.
   */
  alreadyMissing: number;
  /** Batch requests sent (one per chunk of 100). */
  batches: number;
}
/** Errors {@link deleteEnvironments} can throw. */
export type DeleteEnvironmentsErrorType = RequestErrorType;

/**
 * Deletes many environments with the batch endpoint (`DELETE .../environments`, body `{ environment_ids }`),
 * 100 ids per call. The service deletes the ids that exist and answers 404 for the rest; those count as already
 * deleted, since the end state, "none of these exist", is what was asked for. The local service names them in
 * `error.data.missing_ids`; the hosted service documents no such field, so a 404 without it is resolved by deleting
 * that chunk's ids one by one (a 404 there means already gone). A chunk retried after an ambiguous failure may
 * report ids its first attempt deleted as missing.
 *
 * @example
 * const ids = []
 * for await (const env of iterateEnvironments(client)) ids.push(env.id)
 * const { deleted, alreadyMissing } = await deleteEnvironments(client, { environmentIds: ids })
 */
export async function deleteEnvironments(client: BaseClient, params: DeleteEnvironmentsParameters): Promise<DeleteEnvironmentsReturnType> {
  const ids = [...new Set(params.environmentIds)];
  const result: DeleteEnvironmentsReturnType = { requested: ids.length, deleted: 0, alreadyMissing: 0, batches: 0 };
  for (let start = 0; start < ids.length; start += MAX_BATCH_DELETE_IDS) {
    const chunk = ids.slice(start, start + MAX_BATCH_DELETE_IDS);
    const missing = await deleteChunk(client, params, chunk);
    result.batches++;
    result.deleted += chunk.length - missing;
    result.alreadyMissing += missing;
  }
  return result;
}

/** Sends one batch; returns how many of its ids were already missing. */
async function deleteChunk(client: BaseClient, scope: ProjectScope, chunk: string[]): Promise<number> {
  try {
    await client.request({ method: "DELETE", path: environmentsPath(client, scope), body: { environment_ids: chunk } });
    return 0;
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 404)) throw error;
    const missingIds = error.data?.["missing_ids"];
    if (Array.isArray(missingIds)) {
      const inChunk = new Set(chunk);
      return new Set(missingIds.filter((id) => typeof id === "string" && inChunk.has(id))).size;
    }
    // No list of the missing ids: find out one by one, which also deletes any the batch left behind.
    let missing = 0;
    for (const environmentId of chunk) {
      const { deleted } = await deleteEnvironment(client, { ...scope, environmentId, ensureDeleted: true });
      if (!deleted) missing++;
    }
    return missing;
  }
}
