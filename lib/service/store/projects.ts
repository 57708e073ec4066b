/** Projects, their explicit members, delivery channels and Web3 Actions. */
import type { SqlDatabase } from "../sqlite";

/** A project row. */
export interface ProjectRow {
  readonly id: string;
  readonly owner_id: string;
  readonly slug: string;
  readonly name: string;
  readonly public: number;
  readonly restricted: number;
  readonly high_volume: number;
  readonly in_transfer: number;
  readonly is_module: number;
  readonly created_at: string;
  readonly last_push_at: string | null;
  readonly options: string | null;
}

/** An explicit project member with the user's names. */
export interface ProjectMemberRow {
  readonly id: string;
  readonly username: string;
  readonly first_name: string;
  readonly last_name: string;
  readonly email: string;
  readonly accepted: number;
  readonly added_at: string;
}

/** A delivery channel row (`information` is JSON). */
export interface DeliveryChannelRow {
  readonly id: string;
  readonly type: string;
  readonly owner_id: string;
  readonly project_id: string | null;
  readonly label: string;
  readonly reference_id: string;
  readonly enabled: number;
  readonly created_at: string;
  readonly information: string;
}

/** A Web3 Action row. */
export interface ActionRow {
  readonly id: string;
  readonly name: string;
  readonly status: "running" | "stopped";
}

const PROJECT_COLUMNS =
  "p.id, p.owner_id, p.slug, p.name, p.public, p.restricted, p.high_volume, p.in_transfer, p.is_module, p.created_at, p.last_push_at, p.options";

/**
 * Reads projects and what hangs off them, and stops Web3 Actions. Projects, members and channels are written by
 * the seed only, so their lookups are cached for the life of the process (they are on the path of every
 * project-scoped request); an endpoint that ever writes them must clear `cache`. Actions are not cached.
 */
export class Projects {
  private readonly statements;
  private readonly cache = new Map<string, unknown>();

  constructor(db: SqlDatabase) {
    this.statements = {
      ofOwner: db.prepare(`SELECT ${PROJECT_COLUMNS} FROM projects p WHERE p.owner_id = ? ORDER BY p.created_at, p.slug`),
      bySlug: db.prepare(`SELECT ${PROJECT_COLUMNS} FROM projects p WHERE p.owner_id = ? AND p.slug = ?`),
      sharedWith: db.prepare(
        `SELECT ${PROJECT_COLUMNS} FROM projects p
         JOIN project_members m ON m.project_id = p.id
         JOIN principals o ON o.id = p.owner_id AND o.type = 'user'
         WHERE m.user_id = ? AND m.accepted = 1 AND p.owner_id <> ? ORDER BY p.created_at, p.slug`,
      ),
      members: db.prepare(
        `SELECT u.id, u.slug AS username, u.first_name, u.last_name, u.email, m.accepted, m.added_at
         FROM project_members m JOIN principals u ON u.id = m.user_id WHERE m.project_id = ? ORDER BY m.added_at, u.position`,
      ),
      membership: db.prepare("SELECT accepted FROM project_members WHERE project_id = ? AND user_id = ?"),
      countMembers: db.prepare("SELECT COUNT(*) AS n FROM project_members WHERE project_id = ?"),
      channels: db.prepare(
        `SELECT id, type, owner_id, project_id, label, reference_id, enabled, created_at, information
         FROM delivery_channels WHERE owner_id = ? ORDER BY created_at, id`,
      ),
      action: db.prepare("SELECT id, name, status FROM actions WHERE project_id = ? AND id = ?"),
      actions: db.prepare("SELECT id, name, status FROM actions WHERE project_id = ? ORDER BY name, id"),
      stopAction: db.prepare("UPDATE actions SET status = 'stopped' WHERE project_id = ? AND id = ?"),
    };
  }

  /** An account's projects, oldest first. */
  ofOwner(ownerId: string): ProjectRow[] {
    return this.cached(`ofOwner/${ownerId}`, () => this.statements.ofOwner.all(ownerId) as ProjectRow[]);
  }

  /** A project by account and slug. */
  bySlug(ownerId: string, slug: string): ProjectRow | undefined {
    return this.cached(`bySlug/${ownerId}/${slug}`, () => this.statements.bySlug.get(ownerId, slug) as ProjectRow | undefined);
  }

  /** Projects of other users' personal accounts where the user is an accepted explicit member. */
  sharedWith(userId: string, exceptOwnerId: string): ProjectRow[] {
    return this.statements.sharedWith.all(userId, exceptOwnerId) as ProjectRow[];
  }

  /** Explicit members, accepted and pending. */
  members(projectId: string): ProjectMemberRow[] {
    return this.cached(`members/${projectId}`, () => this.statements.members.all(projectId) as ProjectMemberRow[]);
  }

  /** Number of explicit members (accepted and pending). */
  memberCount(projectId: string): number {
    return this.cached(`count/${projectId}`, () => (this.statements.countMembers.get(projectId) as { n: number }).n);
  }

  /** A user's explicit membership: accepted, pending, or none. */
  membership(projectId: string, userId: string): "accepted" | "pending" | undefined {
    return this.cached(`membership/${projectId}/${userId}`, () => {
      const row = this.statements.membership.get(projectId, userId) as { accepted: number } | undefined;
      if (!row) return undefined;
      return row.accepted === 1 ? "accepted" : "pending";
    });
  }

  /** An account's delivery channels. */
  deliveryChannels(ownerId: string): DeliveryChannelRow[] {
    return this.statements.channels.all(ownerId) as DeliveryChannelRow[];
  }

  private cached<T>(key: string, load: () => T): T {
    if (!this.cache.has(key)) this.cache.set(key, load());
    return this.cache.get(key) as T;
  }

  /** A project's Web3 Actions, by name. */
  actions(projectId: string): ActionRow[] {
    return this.statements.actions.all(projectId) as ActionRow[];
  }

  /** Stops a Web3 Action of a project (idempotent); undefined when the project has no such action. */
  stopAction(projectId: string, actionId: string): ActionRow | undefined {
    this.statements.stopAction.run(projectId, actionId);
    return this.statements.action.get(projectId, actionId) as ActionRow | undefined;
  }
}
