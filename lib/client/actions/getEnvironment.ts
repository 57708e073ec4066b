import type { Environment } from "../../api";
import type { BaseClient } from "../client";
import type { RequestErrorType } from "../errors";
import { segment } from "../transport/url";
import { environmentsPath, type ProjectScope } from "../utils/scope";
import { single } from "../utils/shape";

/** Parameters of {@link getEnvironment}. */
export interface GetEnvironmentParameters extends ProjectScope {
  /** The environment's id (uuid). */
  environmentId: string;
}
/** The environment with its active instance and RPC endpoints. */
export type GetEnvironmentReturnType = Environment;
/** Errors {@link getEnvironment} can throw; an unknown id is an ApiError 404. */
export type GetEnvironmentErrorType = RequestErrorType;

/** Parses an Environment, bare or wrapped in `{ environment }` (docs/service.md). */
export const parseEnvironment = single<Environment>("environment", ["id", "slug", "active_instance"]);

/**
 * Reads one environment: `GET .../environments/{environmentId}`. Its `active_instance.vnets[].rpcs` include the
 * Admin RPC URL, which is a secret: do not log it.
 *
 * @example
 * const env = await getEnvironment(client, { environmentId })
 * const publicRpc = env.active_instance.vnets[0]?.rpcs.find((r) => r.name === "Public RPC")?.url
 */
export async function getEnvironment(client: BaseClient, params: GetEnvironmentParameters): Promise<GetEnvironmentReturnType> {
  return client.request({
    method: "GET",
    path: `${environmentsPath(client, params)}/${segment("environmentId", params.environmentId)}`,
    parse: parseEnvironment,
  });
}
