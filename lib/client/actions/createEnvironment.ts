import type { CreateEnvironmentRequest, Environment } from "../../api";
import type { BaseClient } from "../client";
import { ApiError, ConnectionError, TimeoutError, type RequestErrorType } from "../errors";
import { fullJitterDelay, sleep } from "../transport/backoff";
import { diffEnvironment } from "../utils/environmentDiff";
import { environmentsPath, withoutScope, type ProjectScope } from "../utils/scope";
import { blockNumberHex, parseBlockNumber } from "../../domain/chain";
import { slugify } from "../../domain/slug";
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
 * derives it from `display_name` exactly as the service would (the service's own `slugify`, e.g. "CI run 42" →
 * `ci-run-42`), so the result is the same as letting the service pick it. After an ambiguous failure (timeout,
 * connection broken after sending, 5xx) it looks that slug up and returns the environment if the failed attempt
 * created it; otherwise it posts again, and the service's slug uniqueness turns a late duplicate into a conflict,
 * which is again resolved by the lookup (any 400/409/422 then triggers it: the hosted service documents no conflict
 * body). A found environment counts as ours only if it matches the request as far as the documented response
 * shows (`diffEnvironment` is empty: display name, slug, networks and fork blocks), so a different environment that
 * already had the slug is never returned: the caller gets the service's error, as without any fault.
 *
 * @example
 * const env = await createEnvironment(client, {
 *   display_name: "CI run 42",
 *   network_configs: [{ network_id: "1" }, { network_id: "8453" }],
 *   bridge_config: { enabled: true },
 * })
 * console.log(env.slug, env.active_instance.vnets.length) // "ci-run-42" 2
 */
export async function createEnvironment(client: BaseClient, params: CreateEnvironmentParameters): Promise<CreateEnvironmentReturnType> {
  const scope: ProjectScope = { accountSlug: params.accountSlug, projectSlug: params.projectSlug };
  const body: CreateEnvironmentRequest = withHexBlockNumbers({
    ...withoutScope(params),
    slug: params.slug ?? slugify(params.display_name),
  });
  const path = environmentsPath(client, scope);
  const { maxRetries, maxRetryTimeMs, retryBaseDelayMs, retryMaxDelayMs } = client.transport.settings;
  const deadline = Date.now() + maxRetryTimeMs;

  /** The environment an earlier attempt of this call created, if any: one with our slug that matches the request. */
  const findCreated = async (): Promise<Environment | null> => {
    const existing = await getEnvironmentBySlug(client, { ...scope, slug: body.slug! });
    return existing && diffEnvironment(body, existing).length === 0 ? existing : null;
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
      if (mayExist && error instanceof ApiError && [400, 409, 422].includes(error.status)) {
        const existing = await findCreated();
        if (existing) return existing;
      }
      if (!isAmbiguous(error) || retry >= maxRetries || Date.now() >= deadline) throw error;
      mayExist = true;
      await sleep(fullJitterDelay(retry, retryBaseDelayMs, retryMaxDelayMs));
    }
  }
}

/**
 * The request with every decimal `block_number` in hex, the only spelling the API takes (docs/api.md "Block
 * numbers"): the client, as the provider and the constructs, accepts both. One it cannot read is sent as written, for
 * the service's 400 naming the field.
 */
export function withHexBlockNumbers(request: CreateEnvironmentRequest): CreateEnvironmentRequest {
  return {
    ...request,
    network_configs: request.network_configs.map((network) => {
      if (network.block_number === undefined) return network;
      const parsed = parseBlockNumber(network.block_number);
      return "blockNumber" in parsed ? { ...network, block_number: blockNumberHex(parsed.blockNumber) } : network;
    }),
  };
}

/** A failure after which the service may or may not have created the environment. */
function isAmbiguous(error: unknown): boolean {
  return (
    error instanceof TimeoutError || (error instanceof ConnectionError && error.sent) || (error instanceof ApiError && error.status >= 500)
  );
}

/**
 * After a failed create with an explicit slug: the environment that holds that slug, if the failure may be a slug
 * conflict (any 400, 409 or 422: whatever the body says) and the lookup finds one; otherwise null.
 */
export async function slugTakenBy(client: BaseClient, scope: ProjectScope, slug: string, error: unknown): Promise<Environment | null> {
  if (!(error instanceof ApiError) || ![400, 409, 422].includes(error.status)) return null;
  return getEnvironmentBySlug(client, { ...scope, slug });
}
