/**
 * Opens the service's SQLite database (WAL, foreign keys) and brings its schema up to date. Each migration runs
 * once, in a transaction, tracked by `PRAGMA user_version`. The connection is a `SqlDatabase` (lib/service/sqlite:
 * Node's built-in `node:sqlite` where present, better-sqlite3 on Node.js 20). The chain engine's tables are not the
 * store's: the engine migrates them itself on the same connection (lib/service/chains/durability/schema.ts).
 */
import { closeSync, existsSync, openSync, readSync, statSync } from "node:fs";
import { WEB_TABLES } from "../web-schema";
import { REGISTRY_TABLES } from "./registry";
import { USER_ABI_TABLES } from "./abis";
import { STORE_TABLES } from "./schema";
import { SqlDatabase, type SqlOpenOptions } from "../sqlite";

/**
 * The schema, one migration per entry, append only; each owner keeps the SQL of its tables beside the code that uses
 * them: the store's records (./schema.ts), the web UI's (../web-schema.ts), the registry of contracts and wallets
 * (./registry.ts), the ABIs users add (./abis.ts). Migrations 2 and 3 also made the chain engine's tables before the
 * engine ran its own migrations (every one IF NOT EXISTS, so both orders meet the same schema); 3 is now empty, kept
 * so that a database's version means what it meant.
 */
const MIGRATIONS: readonly string[] = [
  STORE_TABLES,
  WEB_TABLES,
  "-- the chain engine's journal: its own migration now",
  REGISTRY_TABLES,
  USER_ABI_TABLES,
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
