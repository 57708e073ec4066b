/**
 * Look-ups that every `chainform_environment` makes while Terraform plans it, shared by all resources of one
 * provider process: Terraform plans up to 10 resources at once, and without sharing a plan of 50 environments
 * asks the service 50 times for the same network list and walks the environment listing 50 times.
 */
import { ApiError, type Client } from "../../client";
import type { Environment, SupportedNetwork } from "../../api";

/** How long one walk of the environment listing answers slug look-ups (they only give plan-time advice). */
const SLUG_INDEX_TTL_MS = 2_000;

/** Shared look-ups of one configured provider. */
export interface PlanLookups {
  /** The service's supported networks, asked once per provider process (a failed answer is asked again). */
  supportedNetworks(): Promise<readonly SupportedNetwork[]>;
  /** The environment with this slug, or null; one listing walk serves every look-up for two seconds. */
  environmentBySlug(slug: string): Promise<Environment | null>;
  /**
   * Whether the service accepts the credentials for the configured project, asked once per provider process with
   * one cheap authenticated call (the first page of one environment). A rejection (401, 403, 404) is handed to
   * `report` of the first caller only, so that a plan of 50 environments shows it once; other failures (the
   * service unreachable) count as accepted here, since the calls that need the service report them.
   * @returns false when the service rejected the credentials
   */
  credentialsAccepted(report: (error: ApiError) => void): Promise<boolean>;
}

/**
 * Creates the shared look-ups for a client.
 * @example
 * const lookups = planLookups(client);
 * const taken = await lookups.environmentBySlug("ci-main");
 */
export function planLookups(client: Client): PlanLookups {
  let networks: Promise<readonly SupportedNetwork[]> | undefined;
  let index: { readonly slugs: Promise<Map<string, Environment>>; expires: number } | undefined;
  const fresh = () => index !== undefined && performance.now() < index.expires;
  let credentials: Promise<ApiError | undefined> | undefined;
  let reported = false;
  return {
    supportedNetworks() {
      networks ??= client.listSupportedNetworks().catch((error: unknown) => {
        networks = undefined;
        throw error;
      });
      return networks;
    },
    async environmentBySlug(slug) {
      if (!fresh()) {
        const entry = { slugs: listSlugs(client), expires: Number.POSITIVE_INFINITY };
        index = entry;
        entry.slugs.then(
          () => (entry.expires = performance.now() + SLUG_INDEX_TTL_MS),
          () => (entry.expires = 0),
        );
      }
      return (await index!.slugs).get(slug) ?? null;
    },
    async credentialsAccepted(report) {
      credentials ??= client.listEnvironments({ perPage: 1 }).then(
        () => undefined,
        (error: unknown) => (error instanceof ApiError && [401, 403, 404].includes(error.status) ? error : undefined),
      );
      const rejected = await credentials;
      if (rejected === undefined) return true;
      if (!reported) {
        reported = true;
        report(rejected);
      }
      return false;
    },
  };
}

async function listSlugs(client: Client): Promise<Map<string, Environment>> {
  const slugs = new Map<string, Environment>();
  for await (const environment of client.iterateEnvironments()) if (!slugs.has(environment.slug)) slugs.set(environment.slug, environment);
  return slugs;
}
