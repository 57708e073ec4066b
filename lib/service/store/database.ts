/**
 * Opens the service's SQLite database (WAL, foreign keys) and brings its schema up to date. Each migration runs
 * once, in a transaction, tracked by `PRAGMA user_version`. The connection is a `SqlDatabase` (./sqlite.ts: Node's
 * built-in `node:sqlite` where present, better-sqlite3 on Node.js 20).
 */
import { closeSync, existsSync, openSync, readSync, statSync } from "node:fs";
import { SqlDatabase, type SqlOpenOptions } from "./sqlite";

/** The schema, one migration per entry; append only. */
const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
  CREATE TABLE principals (
    id TEXT PRIMARY KEY,
    slug TEXT NOT NULL UNIQUE,
    type TEXT NOT NULL CHECK (type IN ('user', 'organization')),
    first_name TEXT NOT NULL DEFAULT '',
    last_name TEXT NOT NULL DEFAULT '',
    email TEXT NOT NULL DEFAULT '',
    position INTEGER NOT NULL
  );
  CREATE TABLE org_members (
    org_id TEXT NOT NULL REFERENCES principals(id),
    user_id TEXT NOT NULL REFERENCES principals(id),
    role TEXT NOT NULL CHECK (role IN ('owner', 'member')),
    accepted INTEGER NOT NULL,
    PRIMARY KEY (org_id, user_id)
  );
  CREATE TABLE access_keys (
    key TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES principals(id),
    read_only INTEGER NOT NULL
  );
  CREATE TABLE projects (
    id TEXT PRIMARY KEY,
    owner_id TEXT NOT NULL REFERENCES principals(id),
    slug TEXT NOT NULL,
    name TEXT NOT NULL,
    public INTEGER NOT NULL,
    restricted INTEGER NOT NULL,
    high_volume INTEGER NOT NULL,
    in_transfer INTEGER NOT NULL,
    is_module INTEGER NOT NULL,
    created_at TEXT NOT NULL,
    last_push_at TEXT,
    options TEXT,
    UNIQUE (owner_id, slug)
  );
  CREATE TABLE project_members (
    project_id TEXT NOT NULL REFERENCES projects(id),
    user_id TEXT NOT NULL REFERENCES principals(id),
    accepted INTEGER NOT NULL,
    added_at TEXT NOT NULL,
    PRIMARY KEY (project_id, user_id)
  );
  CREATE TABLE delivery_channels (
    id TEXT PRIMARY KEY,
    owner_id TEXT NOT NULL REFERENCES principals(id),
    project_id TEXT REFERENCES projects(id),
    type TEXT NOT NULL,
    label TEXT NOT NULL,
    reference_id TEXT NOT NULL,
    enabled INTEGER NOT NULL,
    created_at TEXT NOT NULL,
    information TEXT NOT NULL
  );
  CREATE TABLE actions (
    id TEXT PRIMARY KEY,
    project_id TEXT NOT NULL REFERENCES projects(id),
    name TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('running', 'stopped'))
  );
  CREATE TABLE networks (
    chain_id TEXT PRIMARY KEY,
    position INTEGER NOT NULL,
    network_name TEXT NOT NULL,
    explorer_slug TEXT NOT NULL,
    node_rpc_slug TEXT NOT NULL,
    vnet_rpc_slug TEXT NOT NULL,
    virtual_testnet INTEGER NOT NULL,
    node INTEGER NOT NULL,
    explorer INTEGER NOT NULL,
    simulator INTEGER NOT NULL,
    monitoring INTEGER NOT NULL,
    latest_block INTEGER NOT NULL
  );
  CREATE TABLE environments (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    project_id TEXT NOT NULL REFERENCES projects(id),
    slug TEXT NOT NULL,
    display_name TEXT NOT NULL,
    created_at TEXT NOT NULL,
    instance_id TEXT NOT NULL UNIQUE,
    network_configs TEXT NOT NULL,
    bridge_config TEXT NOT NULL,
    UNIQUE (project_id, slug)
  );
  CREATE TABLE vnets (
    id TEXT PRIMARY KEY,
    environment_id TEXT NOT NULL REFERENCES environments(id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    network_entry_id TEXT NOT NULL,
    network_id TEXT NOT NULL,
    network_name TEXT NOT NULL,
    chain_id INTEGER NOT NULL,
    display_name TEXT NOT NULL,
    slug TEXT NOT NULL,
    block_number TEXT NOT NULL,
    accounts TEXT NOT NULL,
    admin_secret TEXT NOT NULL UNIQUE,
    status TEXT NOT NULL
  );
  CREATE INDEX vnets_by_environment ON vnets (environment_id, position);
  CREATE TABLE transactions (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    vnet_id TEXT NOT NULL REFERENCES vnets(id) ON DELETE CASCADE,
    instance_id TEXT NOT NULL,
    hash TEXT NOT NULL,
    status TEXT NOT NULL,
    category TEXT NOT NULL,
    kind TEXT NOT NULL,
    from_address TEXT NOT NULL,
    to_address TEXT,
    record TEXT NOT NULL,
    UNIQUE (vnet_id, hash)
  );
  CREATE INDEX transactions_by_instance ON transactions (instance_id, seq);
  CREATE TABLE simulations (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    project_id TEXT NOT NULL REFERENCES projects(id),
    record TEXT NOT NULL
  );
  CREATE INDEX simulations_by_project ON simulations (project_id, seq);
  `,
  // The chain engine's and the web UI's own tables. Earlier versions created them on first use (IF NOT EXISTS here,
  // so that such a database migrates as it is).
  `
  CREATE TABLE IF NOT EXISTS chain_bridge_relays (
    source_vnet_id TEXT NOT NULL,
    deposit_id TEXT NOT NULL,
    source_chain_id INTEGER NOT NULL,
    deposit_tx_hash TEXT NOT NULL,
    destination_vnet_id TEXT NOT NULL,
    recipient TEXT NOT NULL,
    amount TEXT NOT NULL,
    due_at INTEGER NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('pending', 'relayed', 'failed')),
    relay_tx_hash TEXT,
    error TEXT,
    created_at TEXT NOT NULL,
    PRIMARY KEY (source_vnet_id, deposit_id)
  );
  CREATE TABLE IF NOT EXISTS chain_forks (vnet_id TEXT PRIMARY KEY, network_id TEXT NOT NULL, block_number TEXT NOT NULL);
  CREATE TABLE IF NOT EXISTS web_verified_contracts (
    vnet_id TEXT NOT NULL, address TEXT NOT NULL, record TEXT NOT NULL, PRIMARY KEY (vnet_id, address)
  );
  `,
];

/** File name of the database inside the data dir. */
export const DATABASE_FILE = "chainform.db";

/**
 * Opens (creating if needed) the database at `path`, or an in-memory one for `":memory:"`, and migrates it.
 *
 * @example
 * const db = openDatabase(":memory:");
 */
export function openDatabase(path: string, options: SqlOpenOptions = {}): SqlDatabase {
  if (path !== ":memory:") refuseForeignFile(path);
  const db = SqlDatabase.open(path, options);
  db.exec("PRAGMA busy_timeout = 5000");
  if (path !== ":memory:") {
    try {
      checkIntegrity(db, path);
    } catch (error) {
      db.close();
      throw error;
    }
  }
  if (options.readonly) return db;
  // WAL with synchronous=NORMAL: a commit survives kill -9 of the service (it is in the WAL file when COMMIT
  // returns); only a power loss can take the last commits back. Every multi-row write runs in a transaction.
  db.exec("PRAGMA journal_mode = WAL");
  db.exec("PRAGMA synchronous = NORMAL");
  db.exec("PRAGMA foreign_keys = ON");
  migrate(db);
  return db;
}

/**
 * A database the service cannot trust: empty, not SQLite, not chainform's, or damaged. Starting anyway would either
 * answer 500s later or, worse, seed a brand-new service over the old one's file (new keys, every environment gone).
 */
export class DatabaseRefusedError extends Error {
  constructor(path: string, reason: string) {
    super(`${path} ${reason}; move it away to start a fresh service, or put back a good copy`);
    this.name = "DatabaseRefusedError";
  }
}

/** The 16 bytes every SQLite 3 database file starts with. */
const SQLITE_HEADER = Buffer.from("SQLite format 3\0", "latin1");

/** Refuses an existing file that is empty or not SQLite (a missing file is created fresh). */
function refuseForeignFile(path: string): void {
  if (!existsSync(path)) return;
  const size = statSync(path).size;
  if (size === 0) throw new DatabaseRefusedError(path, "is empty (0 bytes), so it holds none of the service's data");
  const header = Buffer.alloc(SQLITE_HEADER.length);
  const fd = openSync(path, "r");
  try {
    readSync(fd, header, 0, header.length, 0);
  } finally {
    closeSync(fd);
  }
  if (!header.equals(SQLITE_HEADER)) throw new DatabaseRefusedError(path, "is not a SQLite database");
}

/**
 * Reads every page (`PRAGMA quick_check`: the b-trees, their pages and records; linear in the file's size), so that a
 * database damaged in pages read late is refused at start and not answered with 500s later. Also refuses a SQLite
 * database that is not chainform's, or one a newer chainform wrote.
 */
function checkIntegrity(db: SqlDatabase, path: string): void {
  let problems: string[];
  try {
    problems = (db.pragma("quick_check") as Record<string, unknown>[]).map((row) => String(Object.values(row)[0]));
  } catch (error) {
    throw new DatabaseRefusedError(path, `is damaged (integrity check: ${(error as Error).message})`);
  }
  if (problems.length !== 1 || problems[0] !== "ok") {
    const shown = problems.slice(0, 3).join("; ");
    throw new DatabaseRefusedError(
      path,
      `is damaged (integrity check: ${shown}${problems.length > 3 ? `; and ${problems.length - 3} more` : ""})`,
    );
  }
  const version = db.pragma("user_version", { simple: true }) as number;
  if (version > MIGRATIONS.length) {
    throw new DatabaseRefusedError(path, `was written by a newer chainform (schema ${version}, this one knows ${MIGRATIONS.length})`);
  }
  const tables = db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table'").get() as { n: number };
  if (version === 0 && tables.n > 0) throw new DatabaseRefusedError(path, "is a SQLite database of something else, not chainform's");
}

function migrate(db: SqlDatabase): void {
  const current = db.pragma("user_version", { simple: true }) as number;
  for (let version = current; version < MIGRATIONS.length; version++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[version]);
      db.exec(`PRAGMA user_version = ${version + 1}`);
    }).immediate();
  }
}
