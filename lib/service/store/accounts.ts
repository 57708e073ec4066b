/**
 * Principals (users and organizations), organization membership and access keys. They are written by the seed
 * only, so lookups are cached for the life of the process (the hot path of every authenticated request).
 */
import type { SqlDatabase } from "../sqlite";

/** A user or an organization; `slug` is the username or organization slug (the `accountSlug` of paths). */
export interface Principal {
  readonly id: string;
  readonly slug: string;
  readonly type: "user" | "organization";
  readonly first_name: string;
  readonly last_name: string;
  readonly email: string;
}

/** A user's membership in an organization. */
export interface OrgMembership {
  readonly role: "owner" | "member";
  readonly accepted: boolean;
}

/** The user an access key belongs to. */
export interface KeyOwner {
  readonly user: Principal;
  readonly readOnly: boolean;
}

/** Reads principals, memberships and keys. */
export class Accounts {
  private readonly bySlugCache = new Map<string, Principal | undefined>();
  private readonly byIdCache = new Map<string, Principal | undefined>();
  private readonly keyCache = new Map<string, KeyOwner | undefined>();
  private readonly membershipCache = new Map<string, OrgMembership | undefined>();
  private readonly statements;

  constructor(private readonly db: SqlDatabase) {
    this.statements = {
      bySlug: db.prepare("SELECT id, slug, type, first_name, last_name, email FROM principals WHERE slug = ?"),
      byId: db.prepare("SELECT id, slug, type, first_name, last_name, email FROM principals WHERE id = ?"),
      key: db.prepare("SELECT user_id, read_only FROM access_keys WHERE key = ?"),
      membership: db.prepare("SELECT role, accepted FROM org_members WHERE org_id = ? AND user_id = ?"),
      orgsOf: db.prepare("SELECT org_id FROM org_members WHERE user_id = ? AND accepted = 1"),
      hasWritableKey: db.prepare("SELECT 1 FROM access_keys WHERE user_id = ? AND read_only = 0 LIMIT 1"),
      usersWithKeys: db.prepare(
        `SELECT p.slug, MIN(k.key) AS key FROM principals p JOIN access_keys k ON k.user_id = p.id
         WHERE p.type = 'user' GROUP BY p.id ORDER BY p.position`,
      ),
      firstUser: db.prepare("SELECT id FROM principals WHERE type = 'user' ORDER BY position LIMIT 1"),
      replaceKeys: db.prepare("DELETE FROM access_keys WHERE user_id = ?"),
      insertKey: db.prepare("INSERT INTO access_keys (key, user_id, read_only) VALUES (?, ?, ?)"),
    };
  }

  /** The principal of an account slug. */
  bySlug(slug: string): Principal | undefined {
    if (!this.bySlugCache.has(slug)) this.bySlugCache.set(slug, this.statements.bySlug.get(slug) as Principal | undefined);
    return this.bySlugCache.get(slug);
  }

  /** The principal of an id. */
  byId(id: string): Principal | undefined {
    if (!this.byIdCache.has(id)) this.byIdCache.set(id, this.statements.byId.get(id) as Principal | undefined);
    return this.byIdCache.get(id);
  }

  /** The owner of an access key, or undefined for an unknown key. */
  keyOwner(key: string): KeyOwner | undefined {
    if (this.keyCache.has(key)) return this.keyCache.get(key);
    const row = this.statements.key.get(key) as { user_id: string; read_only: number } | undefined;
    const owner = row && { user: this.byId(row.user_id)!, readOnly: row.read_only === 1 };
    // Unknown keys are not cached: a flood of guesses must not grow memory.
    if (owner) this.keyCache.set(key, owner);
    return owner;
  }

  /** Whether a user holds only read-only keys (bearer tokens then act read-only too). */
  isReadOnlyUser(userId: string): boolean {
    return this.statements.hasWritableKey.get(userId) === undefined;
  }

  /** A user's membership of an organization. */
  membership(orgId: string, userId: string): OrgMembership | undefined {
    const cacheKey = `${orgId}/${userId}`;
    if (!this.membershipCache.has(cacheKey)) {
      const row = this.statements.membership.get(orgId, userId) as { role: OrgMembership["role"]; accepted: number } | undefined;
      this.membershipCache.set(cacheKey, row && { role: row.role, accepted: row.accepted === 1 });
    }
    return this.membershipCache.get(cacheKey);
  }

  /** Ids of the organizations a user is an accepted member of. */
  organizationsOf(userId: string): string[] {
    return (this.statements.orgsOf.all(userId) as { org_id: string }[]).map((r) => r.org_id);
  }

  /** One access key per user that has one, by username, in seed order. */
  keysByUsername(): Record<string, string> {
    const rows = this.statements.usersWithKeys.all() as { slug: string; key: string }[];
    return Object.fromEntries(rows.map((r) => [r.slug, r.key]));
  }

  /** The first user of the seed (the one whose key the ready line prints). */
  firstUserId(): string | undefined {
    return (this.statements.firstUser.get() as { id: string } | undefined)?.id;
  }

  /** Replaces every key of a user with one key (`CHAINFORM_ACCESS_KEY`). */
  setOnlyKey(userId: string, key: string, readOnly: boolean): void {
    this.db
      .transaction(() => {
        this.statements.replaceKeys.run(userId);
        this.statements.insertKey.run(key, userId, readOnly ? 1 : 0);
      })
      .immediate();
    this.keyCache.clear();
  }
}
