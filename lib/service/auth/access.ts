/**
 * Who may see what (docs/api.md "Endpoints", docs/service.md "Access"). An organization's accepted members see its
 * open projects and the restricted ones they are explicit members of; a personal account is its user's alone.
 * Non-members get 404, as if nothing were there (no existence leak); pending invitees, who know of the
 * account, get 403.
 */
import type { ProjectPermissions } from "../../api";
import { PROJECT_PERMISSION_NAMES } from "../../api";
import type { Requester } from "./index";
import { forbidden, notFound } from "../errors";
import type { Principal, ProjectRow, Store } from "../store";

/** The requester's standing in an account. */
export interface AccountAccess {
  readonly account: Principal;
  /** `owner`: the personal account's user or an organization owner; `member`: an accepted organization member. */
  readonly role: "owner" | "member";
}

/** The requester's standing in a project. */
export interface ProjectAccess extends AccountAccess {
  readonly project: ProjectRow;
  /** An explicit accepted member (or the personal account's user): sees `owner` and `permissions`. */
  readonly isMember: boolean;
}

/** Resolves an account the requester may read; throws 404 (`rid:account`) or 403 for a pending invitee. */
export function accountAccess(store: Store, requester: Requester, accountSlug: string): AccountAccess {
  const account = store.accounts.bySlug(accountSlug);
  const missing = () => notFound("rid:account", `account ${accountSlug} not found`);
  if (!account) throw missing();
  if (account.type === "user") {
    if (account.id !== requester.user.id) throw missing();
    return { account, role: "owner" };
  }
  const membership = store.accounts.membership(account.id, requester.user.id);
  if (!membership) throw missing();
  if (!membership.accepted) throw forbidden(`your invitation to ${accountSlug} is not accepted yet`);
  return { account, role: membership.role };
}

/** Whether the requester may see a project of an account they can read. */
export function canSeeProject(store: Store, access: AccountAccess, project: ProjectRow, userId: string): boolean {
  if (access.account.type === "user") return true;
  return project.restricted === 0 || store.projects.membership(project.id, userId) === "accepted";
}

/**
 * Resolves a project the requester may see; throws 404 (`rid:account` / `rid:project`) or 403. A project of another
 * user's personal account that is shared with the requester (an accepted explicit member; it is in their
 * projects listing) is reached under its owner's path, `/account/{owner}/project/{slug}` (docs/service.md).
 */
export function projectAccess(store: Store, requester: Requester, accountSlug: string, projectSlug: string): ProjectAccess {
  const shared = sharedProjectAccess(store, requester, accountSlug, projectSlug);
  if (shared) return shared;
  const access = accountAccess(store, requester, accountSlug);
  const project = store.projects.bySlug(access.account.id, projectSlug);
  if (!project || !canSeeProject(store, access, project, requester.user.id)) {
    throw notFound("rid:project", `project ${accountSlug}/${projectSlug} not found`);
  }
  return { ...access, project, isMember: isProjectMember(store, access, project, requester.user.id) };
}

/** A project of another user's personal account where the requester is an accepted member; undefined otherwise. */
function sharedProjectAccess(store: Store, requester: Requester, accountSlug: string, projectSlug: string): ProjectAccess | undefined {
  const account = store.accounts.bySlug(accountSlug);
  if (!account || account.type !== "user" || account.id === requester.user.id) return undefined;
  const project = store.projects.bySlug(account.id, projectSlug);
  if (!project || store.projects.membership(project.id, requester.user.id) !== "accepted") return undefined;
  return { account, role: "member", project, isMember: true };
}

/** Explicit accepted members are project members; on a personal account, so is its user. */
export function isProjectMember(store: Store, access: AccountAccess, project: ProjectRow, userId: string): boolean {
  return access.account.id === userId || store.projects.membership(project.id, userId) === "accepted";
}

/** The requester's effective permissions: owners all, members all but managing collaborators, read-only none. */
export function permissionsOf(role: AccountAccess["role"], readOnly: boolean): ProjectPermissions {
  return Object.fromEntries(
    PROJECT_PERMISSION_NAMES.map((name) => [name, !readOnly && (role === "owner" || name !== "manage_collaborators")]),
  ) as ProjectPermissions;
}
