import type { CreateEnvironmentRequest, Environment } from "../../spec";
import type { BaseClient } from "../client";
import { ApiError, ConnectionError, TimeoutError, type RequestErrorType } from "../errors";
import { fullJitterDelay, sleep } from "../transport/backoff";
import { diffEnvironment } from "../utils/environmentDiff";
import { environmentsPath, withoutScope, type ProjectScope } from "../utils/scope";
import { uniqueSlug } from "../utils/slug";
import { getEnvironmentBySlug } from "./getEnvironmentBySlug";
import { parseEnvironment } from "./getEnvironment";

/** Parameters of {@link createEnvironment}: the create body plus the scope. */
export type CreateEnvironmentParameters = CreateEnvironmentRequest & ProjectScope;
/** The created environment, with one Virtual Environment per network and their RPC URLs. */
export type CreateEnvironmentReturnType = Environment;
/** Errors {@link createEnvironment} can throw; a taken slug is an ApiError 400 naming `/slug`. */
export type CreateEnvironmentErrorType = RequestErrorType;

/**
 * Creates an environment: `POST .../environments`. One `network_configs` entry makes a single-network
 * environment, several a multi-network one.
 *
 * Safe to retry, never duplicating: the client always sends an explicit slug. When the caller gives none it
 * generates one, `slugify(display_name)` plus a random suffix fixed for this call (e.g. `ci-run-k3x9q2`), so
 * the returned `slug` differs from the bare display name. After an ambiguous failure (timeout, connection broken
 * after sending, 5xx) it looks that slug up and returns the environment if the failed attempt did create it;
 * otherwise it posts again, and the service's slug uniqueness turns a late duplicate into a conflict, which is
 * again resolved by the lookup. With a caller-chosen slug, an environment found by the lookup is returned only if
 * it matches the request (so a stranger's environment with that slug is never taken for ours).
 *
 * @example
 * const env = await createEnvironment(client, {
 *   display_name: "CI run 42",
 *   network_configs: [{ network_id: "1" }, { network_id: "8453" }],
 *   bridge_config: { enabled: true },
 * })
 * console.log(env.slug, env.active_instance.vnets.length) // "ci-run-42-k3x9q2" 2
 */
export async function createEnvironment(
  client: BaseClient,
  params: CreateEnvironmentParameters,
): Promise<CreateEnvironmentReturnType> {
  const scope: ProjectScope = { accountSlug: params.accountSlug, projectSlug: params.projectSlug };
  const callerSlug = params.slug !== undefined;
  const body: CreateEnvironmentRequest = { ...withoutScope(params), slug: params.slug ?? uniqueSlug(params.display_name) };
  const path = environmentsPath(client, scope);
  const { maxRetries, maxRetryTimeMs, retryBaseDelayMs, retryMaxDelayMs } = client.transport.settings;
  const deadline = Date.now() + maxRetryTimeMs;

  /** The environment an earlier attempt of this call created, if any. */
  const findCreated = async (): Promise<Environment | null> => {
    const existing = await getEnvironmentBySlug(client, { ...scope, slug: body.slug! });
    if (existing && callerSlug && diffEnvironment(body, existing).length > 0) return null;
    return existing;
  };

  let mayExist = false;
  for (let retry = 0; ; retry++) {
    try {
      if (mayExist) {
        const existing = await findCreated();
        if (existing) return existing;
      }
      return await client.request({ method: "POST", path, body, retry: "unsent", parse: parseEnvironment });
    } catch (error) {
      if (mayExist && isSlugConflict(error)) {
        const existing = await findCreated();
        if (existing) return existing;
      }
      if (!isAmbiguous(error) || retry >= maxRetries || Date.now() >= deadline) throw error;
      mayExist = true;
      await sleep(fullJitterDelay(retry, retryBaseDelayMs, retryMaxDelayMs));
    }
  }
}

/** A failure after which the service may or may not have created the environment. */
function isAmbiguous(error: unknown): boolean {
  return (
    error instanceof TimeoutError ||
    (error instanceof ConnectionError && error.sent) ||
    (error instanceof ApiError && error.status >= 500)
  );
}

/** The service's answer to a slug that is taken (400 naming `/slug`; 409 tolerated). */
export function isSlugConflict(error: unknown): error is ApiError {
  if (!(error instanceof ApiError)) return false;
  if (error.status === 409) return true;
  const field = error.data?.["field"];
  return error.status === 400 && (field === "/slug" || field === "slug");
}
