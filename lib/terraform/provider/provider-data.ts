/**
 * What the configured provider hands to every resource and data source, in a file of its own so that resources
 * import it without importing `provider.ts` (which imports them).
 */
import type { Client } from "../../client";
import type { Diagnostics } from "../framework";
import type { PlanLookups } from "./plan-lookups";

/** What every resource and data source receives: the client and what it was configured with. */
export interface ChainformProviderData {
  /** The API client. */
  readonly client: Client;
  /** The service's base URL (never contains credentials). */
  readonly baseUrl: string;
  /** Which credential is used, for diagnostics; null when none is configured. */
  readonly credential: "access key" | "bearer token" | null;
  /** Where that credential came from ("the provider's access_key", "CHAINFORM_ACCESS_KEY"). */
  readonly credentialSource: string;
  /** The account of project-scoped calls. */
  readonly accountSlug: string | undefined;
  /** The project of project-scoped calls. */
  readonly projectSlug: string | undefined;
  /**
   * The provider's `adopt_existing`: a create whose slug is taken adopts the existing environment when it matches
   * the configuration as far as the service's answer shows. Default false (a taken slug is an error).
   */
  readonly adoptExisting: boolean;
  /**
   * The provider's `admin_rpc_urls_in_state` (or CHAINFORM_ADMIN_RPC_URLS_IN_STATE): false leaves Admin RPC URLs out
   * of chainform_environment's state (docs/secrets.md). Default true.
   */
  readonly adminRpcUrlsInState: boolean;
  /** The provider's `ca_file` (or CHAINFORM_CA_FILE): trusted besides the system's roots, by the client and by RPC calls. */
  readonly caFile?: string | undefined;
  /** Look-ups shared by the resources planned in this provider process (supported networks, slugs, credentials). */
  readonly lookups: PlanLookups;
  /**
   * Whether a connection setting of the provider block (base_url, a credential, account or project) was unknown
   * when it was configured (it depends on a resource not created yet): the credential check at plan is skipped,
   * since the settings apply will use are not known.
   */
  readonly configUnknown?: boolean;
}

/**
 * The account and project of project-scoped calls, or a diagnostic saying what to set.
 * @returns false (after adding the error) when either is missing
 */
export function requireProject(data: ChainformProviderData, diagnostics: Diagnostics, action: string): boolean {
  const missing = [
    data.accountSlug ? undefined : "account_slug (or CHAINFORM_ACCOUNT)",
    data.projectSlug ? undefined : "project_slug (or CHAINFORM_PROJECT)",
  ].filter(Boolean);
  if (missing.length === 0) return true;
  diagnostics.error(`Could not ${action}: no project selected`, `Set ${missing.join(" and ")} in the provider block or the environment.`);
  return false;
}
