/**
 * How the account segment of a hosted path resolves (docs/hosted-clients.md "Account segment"), one helper for every
 * route under the hosted base path: the hosted clients send the account as its slug, as `me`, or as a principal id
 * (the id `GET /v1/principal` and `GET /v1/user` answer), in singular (`/account/{a}/project/{p}`) and plural
 * (`/accounts/{a}/projects/{p}`) paths alike. A hook rewrites the `accountSlug` parameter to the slug before the
 * route validates it, so the routes (the spec's own and the hosted ones) resolve projects with `projectOf`, as the
 * spec's routes do: one access rule.
 */
import type { FastifyRequest } from "fastify";
import { isUuid } from "../../../domain/uuid";
import type { Requester } from "../../auth";
import type { Store } from "../../store";

/** The alias of the requester's own account. */
export const ME = "me";

/**
 * The account slug a hosted path's account segment means. `me` is the requester's personal account, unless that
 * account has no project `projectSlug` and exactly one organization the requester belongs to has one (the hosted
 * service's `me` reaches the projects its user works in). A principal id is that principal's slug. Anything else is
 * a slug, left as it is (the access rule answers 404 for what the requester may not see).
 *
 * @example
 * accountSlugOf(store, requester, "me", "demo") // "acme" for alice, whose personal account has no project demo
 */
export function accountSlugOf(store: Store, requester: Requester | null, segment: string, projectSlug?: string): string {
  if (segment === ME && requester) return myAccountSlug(store, requester, projectSlug);
  if (isUuid(segment)) return store.accounts.byId(segment.toLowerCase())?.slug ?? segment;
  return segment;
}

function myAccountSlug(store: Store, requester: Requester, projectSlug: string | undefined): string {
  const user = requester.user;
  if (projectSlug === undefined || store.projects.bySlug(user.id, projectSlug)) return user.slug;
  const holders = store.accounts
    .organizationsOf(user.id)
    .filter((orgId) => store.accounts.membership(orgId, user.id)?.accepted && store.projects.bySlug(orgId, projectSlug));
  return holders.length === 1 ? (store.accounts.byId(holders[0])?.slug ?? user.slug) : user.slug;
}

/** The path parameters a hosted route may carry an account in. */
interface AccountParams {
  accountSlug?: unknown;
  projectSlug?: unknown;
}

/**
 * A preValidation hook for every route under the hosted base path: the `accountSlug` parameter becomes the slug
 * `accountSlugOf` resolves, so that the route's own validation and access checks see a slug.
 */
export async function resolveAccountSegment(request: FastifyRequest): Promise<void> {
  const params = request.params as AccountParams | undefined;
  if (!params || typeof params.accountSlug !== "string") return;
  const projectSlug = typeof params.projectSlug === "string" ? params.projectSlug : undefined;
  params.accountSlug = accountSlugOf(request.server.service.store, request.requester, params.accountSlug, projectSlug);
}
