/**
 * The seed: the users, organizations, projects, delivery channels, Web3 Actions and supported networks a fresh
 * data dir starts with (docs/service.md "The local service"). `default-seed.json` is the default; `--seed FILE`
 * gives another file of the same shape. Access keys are generated here, once, at first start.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { Type, type Static } from "@sinclair/typebox";
import { TypeCompiler } from "@sinclair/typebox/compiler";
import { Slug, SUPPORTED_FEATURES } from "../../api";
import defaultSeedJson from "./default-seed.json";
import type { Store } from "../store";

const SeedUser = Type.Object({
  username: Slug,
  first_name: Type.String(),
  last_name: Type.String(),
  email: Type.String(),
  read_only: Type.Optional(Type.Boolean()),
});

const SeedMember = Type.Object({ username: Slug, accepted: Type.Boolean() });

/** The shape of a seed file. The first user is the one whose key the ready line prints. */
export const SeedFile = Type.Object({
  default_project: Type.Object({ account: Slug, project: Slug }),
  users: Type.Array(SeedUser, { minItems: 1 }),
  organizations: Type.Array(
    Type.Object({
      slug: Slug,
      members: Type.Array(Type.Composite([SeedMember, Type.Object({ role: Type.Union([Type.Literal("owner"), Type.Literal("member")]) })])),
    }),
  ),
  projects: Type.Array(
    Type.Object({
      account: Slug,
      slug: Slug,
      name: Type.String({ minLength: 1 }),
      restricted: Type.Boolean(),
      members: Type.Array(SeedMember),
    }),
  ),
  delivery_channels: Type.Array(
    Type.Object({
      account: Slug,
      project: Type.Union([Slug, Type.Null()]),
      type: Type.String(),
      label: Type.String(),
      reference_id: Type.String(),
      enabled: Type.Boolean(),
      information: Type.Record(Type.String(), Type.Unknown()),
    }),
  ),
  actions: Type.Array(
    Type.Object({
      account: Slug,
      project: Slug,
      name: Type.String(),
      status: Type.Union([Type.Literal("running"), Type.Literal("stopped")]),
    }),
  ),
  networks: Type.Array(
    Type.Object({
      network_name: Type.String(),
      chain_id: Type.String({ pattern: "^[1-9][0-9]{0,14}$" }),
      slug: Slug,
      latest_block: Type.Integer({ minimum: 0 }),
      features: Type.Optional(Type.Partial(Type.Record(Type.Union(SUPPORTED_FEATURES.map((f) => Type.Literal(f))), Type.Boolean()))),
    }),
  ),
});
/** A seed. */
export type Seed = Static<typeof SeedFile>;

const checkSeed = TypeCompiler.Compile(SeedFile);

/** The default seed (docs/service.md). */
export const DEFAULT_SEED: Seed = parseSeed(defaultSeedJson, "default-seed.json");

/** Reads and checks a seed file; throws an Error naming the file and the first problem. */
export function loadSeedFile(path: string): Seed {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new Error(`cannot read seed file ${path}: ${(error as Error).message}`);
  }
  return parseSeed(json, path);
}

function parseSeed(json: unknown, source: string): Seed {
  if (!checkSeed.Check(json)) {
    const first = checkSeed.Errors(json).First();
    throw new Error(`seed ${source} is invalid at ${first?.path || "/"}: ${first?.message}`);
  }
  return json;
}

/** A fresh access key: `cf_` and 32 random bytes, base64url. */
export function generateAccessKey(): string {
  return `cf_${randomBytes(32).toString("base64url")}`;
}

/**
 * Writes the seed into an empty store, in one transaction. `firstUserKey` fixes the first user's key
 * (`CHAINFORM_ACCESS_KEY`); every other key is generated.
 */
export function applySeed(store: Store, seed: Seed, firstUserKey?: string): void {
  const db = store.db;
  const now = new Date().toISOString();
  const ids = new Map<string, string>();
  const idOf = (slug: string): string => {
    const id = ids.get(slug);
    if (!id) throw new Error(`seed names an unknown account or user: ${slug}`);
    return id;
  };
  const projectIds = new Map<string, string>();
  const projectIdOf = (account: string, project: string): string => {
    const id = projectIds.get(`${account}/${project}`);
    if (!id) throw new Error(`seed names an unknown project: ${account}/${project}`);
    return id;
  };
  db.transaction(() => {
    const insertPrincipal = db.prepare(
      "INSERT INTO principals (id, slug, type, first_name, last_name, email, position) VALUES (?, ?, ?, ?, ?, ?, ?)",
    );
    let position = 0;
    for (const user of seed.users) {
      const id = randomUUID();
      ids.set(user.username, id);
      insertPrincipal.run(id, user.username, "user", user.first_name, user.last_name, user.email, position++);
      const key = position === 1 && firstUserKey ? firstUserKey : generateAccessKey();
      db.prepare("INSERT INTO access_keys (key, user_id, read_only) VALUES (?, ?, ?)").run(key, id, user.read_only ? 1 : 0);
    }
    for (const org of seed.organizations) {
      const id = randomUUID();
      ids.set(org.slug, id);
      insertPrincipal.run(id, org.slug, "organization", "", "", "", position++);
      for (const member of org.members) {
        db.prepare("INSERT INTO org_members (org_id, user_id, role, accepted) VALUES (?, ?, ?, ?)").run(
          id,
          idOf(member.username),
          member.role,
          member.accepted ? 1 : 0,
        );
      }
    }
    for (const project of seed.projects) {
      const id = randomUUID();
      projectIds.set(`${project.account}/${project.slug}`, id);
      const owner = idOf(project.account);
      const restricted = seed.organizations.some((o) => o.slug === project.account) && project.restricted;
      db.prepare(
        `INSERT INTO projects (id, owner_id, slug, name, public, restricted, high_volume, in_transfer, is_module, created_at, last_push_at, options)
         VALUES (?, ?, ?, ?, 0, ?, 0, 0, 0, ?, NULL, NULL)`,
      ).run(id, owner, project.slug, project.name, restricted ? 1 : 0, now);
      for (const member of project.members) {
        db.prepare("INSERT INTO project_members (project_id, user_id, accepted, added_at) VALUES (?, ?, ?, ?)").run(
          id,
          idOf(member.username),
          member.accepted ? 1 : 0,
          now,
        );
      }
    }
    for (const channel of seed.delivery_channels) {
      db.prepare(
        `INSERT INTO delivery_channels (id, owner_id, project_id, type, label, reference_id, enabled, created_at, information)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        randomUUID(),
        idOf(channel.account),
        channel.project === null ? null : projectIdOf(channel.account, channel.project),
        channel.type,
        channel.label,
        channel.reference_id,
        channel.enabled ? 1 : 0,
        now,
        JSON.stringify(channel.information),
      );
    }
    for (const action of seed.actions) {
      db.prepare("INSERT INTO actions (id, project_id, name, status) VALUES (?, ?, ?, ?)").run(
        randomUUID(),
        projectIdOf(action.account, action.project),
        action.name,
        action.status,
      );
    }
    seed.networks.forEach((network, index) => {
      const features = { virtual_testnet: true, node: true, explorer: true, simulator: true, monitoring: true, ...network.features };
      db.prepare(
        `INSERT INTO networks (chain_id, position, network_name, explorer_slug, node_rpc_slug, vnet_rpc_slug,
           virtual_testnet, node, explorer, simulator, monitoring, latest_block) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        network.chain_id,
        index,
        network.network_name,
        features.explorer ? network.slug : "",
        features.node ? network.slug : "",
        features.virtual_testnet ? network.slug : "",
        ...SUPPORTED_FEATURES.map((f) => (features[f] ? 1 : 0)),
        network.latest_block,
      );
    });
    db.prepare("INSERT INTO meta (key, value) VALUES ('default_project', ?)").run(JSON.stringify(seed.default_project));
  }).immediate();
}

/** The account and project the ready line names (the seed's `default_project`). */
export function defaultProject(store: Store): { account: string; project: string } {
  const row = store.db.prepare("SELECT value FROM meta WHERE key = 'default_project'").get() as { value: string } | undefined;
  return row ? JSON.parse(row.value) : { account: "", project: "" };
}
