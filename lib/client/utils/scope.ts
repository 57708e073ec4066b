import type { BaseClient } from "../client";
import { ClientConfigError } from "../errors/transport";
import { segment } from "../transport/url";

/** Per-call override of the client's account. */
export interface AccountScope {
  /** Defaults to the client's `accountSlug`. */
  accountSlug?: string | undefined;
}

/** Per-call override of the client's account and project. */
export interface ProjectScope extends AccountScope {
  /** Defaults to the client's `projectSlug`. */
  projectSlug?: string | undefined;
}

function pick(name: "accountSlug" | "projectSlug", given: string | undefined, client: BaseClient): string {
  const value = given ?? client[name];
  if (!value) {
    throw new ClientConfigError(
      `No \`${name}\`: pass it to createClient or to the call.`,
      "CHAINFORM_ACCOUNT and CHAINFORM_PROJECT set them for clientFromEnv.",
    );
  }
  return segment(name, value);
}

/** `/v1/account/{accountSlug}`. */
export function accountPath(client: BaseClient, scope: AccountScope): string {
  return `/v1/account/${pick("accountSlug", scope.accountSlug, client)}`;
}

/** `/v1/account/{accountSlug}/project/{projectSlug}`. */
export function projectPath(client: BaseClient, scope: ProjectScope): string {
  return `${accountPath(client, scope)}/project/${pick("projectSlug", scope.projectSlug, client)}`;
}

/** `/public/v1/account/{accountSlug}/project/{projectSlug}/environments`. */
export function environmentsPath(client: BaseClient, scope: ProjectScope): string {
  return `/public${projectPath(client, scope)}/environments`;
}

/** `.../environments/{environmentId}/instance/{instanceId}`. */
export function instancePath(client: BaseClient, params: ProjectScope & { environmentId: string; instanceId: string }): string {
  return `${environmentsPath(client, params)}/${segment("environmentId", params.environmentId)}/instance/${segment("instanceId", params.instanceId)}`;
}

/** Removes the scope from call parameters, leaving the request body. */
export function withoutScope<T extends ProjectScope>(params: T): Omit<T, keyof ProjectScope> {
  const { accountSlug: _account, projectSlug: _project, ...rest } = params;
  return rest;
}
