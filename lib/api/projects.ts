import { Type, type Static } from "@sinclair/typebox";
import { PROJECT_PERMISSION_NAMES } from "../domain/constants";
import { DateTime, Uuid } from "./common";

export { PROJECT_PERMISSION_NAMES };

/** Project Owner (docs/api.md "Resources"). */
export const ProjectOwner = Type.Object({
  id: Uuid,
  username: Type.String(),
  first_name: Type.String({ description: "Empty for organizations" }),
  last_name: Type.String({ description: "Empty for organizations" }),
  email: Type.String({ description: "Empty when not exposed to the requester" }),
  type: Type.Union([Type.Literal("user"), Type.Literal("organization")]),
});
export type ProjectOwner = Static<typeof ProjectOwner>;

/** Project Permissions: the requester's effective permissions. */
export const ProjectPermissions = Type.Object(
  Object.fromEntries(PROJECT_PERMISSION_NAMES.map((n) => [n, Type.Boolean()])) as Record<
    (typeof PROJECT_PERMISSION_NAMES)[number],
    ReturnType<typeof Type.Boolean>
  >,
);
export type ProjectPermissions = Static<typeof ProjectPermissions>;

/** Project Member. */
export const ProjectMember = Type.Object({
  id: Uuid,
  username: Type.String(),
  first_name: Type.String(),
  last_name: Type.String(),
  email: Type.String(),
  accepted: Type.Boolean({ description: "false: pending invitee who cannot reach the project yet" }),
  added_at: DateTime,
});
export type ProjectMember = Static<typeof ProjectMember>;

/** Project (docs/api.md "Resources"). `owner`, `permissions` for members only; `members` per the listing rules. */
export const Project = Type.Object({
  id: Uuid,
  name: Type.String(),
  slug: Type.String({ description: "Derived from the name at creation; permanent" }),
  owner_id: Uuid,
  public: Type.Boolean(),
  restricted: Type.Boolean(),
  high_volume: Type.Boolean(),
  in_transfer: Type.Boolean(),
  is_module: Type.Boolean(),
  created_at: DateTime,
  last_push_at: Type.Union([DateTime, Type.Null()]),
  number_of_users: Type.Integer({ minimum: 0 }),
  options: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]),
  owner: Type.Optional(ProjectOwner),
  permissions: Type.Optional(ProjectPermissions),
  members: Type.Optional(Type.Array(ProjectMember)),
});
export type Project = Static<typeof Project>;

/** GET /v1/account/{accountSlug}/projects answer. */
export const ProjectList = Type.Object({ projects: Type.Array(Project) });
export type ProjectList = Static<typeof ProjectList>;
