/** GET /v1/account/{accountSlug}/projects (docs/api.md "Endpoints"), paginated (docs/api.md "Limits"). */
import type { FastifyInstance } from "fastify";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import { AccountParams, PaginationQuery, ProjectList, type Project, type ProjectOwner } from "../../../api";
import { accountAccess, canSeeProject, isProjectMember, permissionsOf, type AccountAccess } from "../../auth/access";
import type { Requester } from "../../auth";
import type { Principal, ProjectRow, Store } from "../../store";
import { pageOf, pageSlice, replies, requesterOf } from "../common";

/** The projects routes. */
export default async function projectsRoutes(app: FastifyInstance): Promise<void> {
  const { store } = app.service;
  app
    .withTypeProvider<TypeBoxTypeProvider>()
    .get(
      "/v1/account/:accountSlug/projects",
      { schema: { params: AccountParams, querystring: PaginationQuery, response: replies({ 200: ProjectList }) } },
      async (request) => {
        const requester = requesterOf(request);
        const access = accountAccess(store, requester, request.params.accountSlug);
        const own = store.projects
          .ofOwner(access.account.id)
          .filter((project) => canSeeProject(store, access, project, requester.user.id))
          .map((project) => toProject(store, requester, access, project));
        // A personal account's listing also has the projects other users shared with its user.
        const shared =
          access.account.type === "user"
            ? store.projects.sharedWith(requester.user.id, access.account.id).map((project) => {
                const owner = store.accounts.byId(project.owner_id)!;
                return toProject(store, requester, { account: owner, role: "member" }, project);
              })
            : [];
        return { projects: pageSlice([...own, ...shared], pageOf(request.query)) };
      },
    );
}

/**
 * The spec's Project as the requester may see it: `owner` and `permissions` for members only, `number_of_users`
 * 0 for non-members, `members` for restricted projects only.
 */
function toProject(store: Store, requester: Requester, access: AccountAccess, row: ProjectRow): Project {
  const isMember = isProjectMember(store, access, row, requester.user.id);
  const members = row.restricted === 1 ? store.projects.members(row.id) : undefined;
  const project: Project = {
    id: row.id,
    name: row.name,
    slug: row.slug,
    owner_id: row.owner_id,
    public: row.public === 1,
    restricted: row.restricted === 1,
    high_volume: row.high_volume === 1,
    in_transfer: row.in_transfer === 1,
    is_module: row.is_module === 1,
    created_at: row.created_at,
    last_push_at: row.last_push_at,
    number_of_users: isMember ? (members?.length ?? store.projects.memberCount(row.id)) : 0,
    options: row.options === null ? null : JSON.parse(row.options),
  };
  if (isMember) {
    project.owner = ownerOf(access.account, requester);
    project.permissions = permissionsOf(access.role, requester.readOnly);
  }
  if (members) project.members = members.map((m) => ({ ...m, accepted: m.accepted === 1 }));
  return project;
}

function ownerOf(account: Principal, requester: Requester): ProjectOwner {
  return {
    id: account.id,
    username: account.slug,
    first_name: account.first_name,
    last_name: account.last_name,
    email: account.id === requester.user.id ? account.email : "",
    type: account.type,
  };
}
