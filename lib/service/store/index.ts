/**
 * The service's store: one SQLite database (a file in the data dir, or in memory) behind small repositories. What
 * composes the service builds the chain engine's host from it (../chain-host.ts); the store knows nothing of chains.
 */
import { chmodSync, existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import type { SqlDatabase } from "../sqlite";
import { Accounts } from "./accounts";
import { DATABASE_FILE, openDatabase } from "./database";
import { lockDataDir, type DataDirLock } from "./data-dir-lock";
import { Environments } from "./environments";
import { Networks } from "./networks";
import { Projects } from "./projects";
import { Records } from "./records";

/** Narrows the database and its -wal and -shm files to 0600 (SQLite gives files it creates later the database's mode). */
function makePrivate(path: string): void {
  for (const suffix of ["", "-wal", "-shm"]) if (existsSync(path + suffix)) chmodSync(path + suffix, 0o600);
}

export { DataDirLockedError } from "./data-dir-lock";
export { DatabaseRefusedError } from "./database";
export type { Accounts, Principal, KeyOwner, OrgMembership } from "./accounts";
export type { ProjectRow, ProjectMemberRow, DeliveryChannelRow, ActionRow } from "./projects";
export type { NetworkRecord } from "./networks";
export type { EnvironmentRecord, VnetRecord, NewEnvironment } from "./environments";

/** Where the store keeps its data. */
export interface StoreOptions {
  /** The data dir; null keeps everything in memory (`--in-memory`). */
  readonly dataDir: string | null;
  /**
   * Take the data dir's exclusive lock (the serving process does; `chainform token` only reads a secret and does
   * not). A second service on the same dir is refused with `DataDirLockedError`.
   */
  readonly exclusive?: boolean;
}

/**
 * The database and its repositories.
 *
 * @example
 * const store = Store.open({ dataDir: null });
 */
export class Store {
  readonly accounts: Accounts;
  readonly projects: Projects;
  readonly networks: Networks;
  readonly environments: Environments;
  readonly records: Records;

  private constructor(
    readonly db: SqlDatabase,
    readonly dataDir: string | null,
    private readonly lock: DataDirLock | null = null,
  ) {
    this.accounts = new Accounts(db);
    this.projects = new Projects(db);
    this.networks = new Networks(db);
    this.environments = new Environments(db);
    this.records = new Records(db);
  }

  /**
   * Opens (and migrates) the store. A data dir is made private whatever it was before (0700, the database files
   * 0600: they hold the access keys and the token secret), and the database is checked (./database.ts).
   */
  static open(options: StoreOptions): Store {
    const { dataDir } = options;
    if (dataDir === null) return new Store(openDatabase(":memory:"), null);
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    chmodSync(dataDir, 0o700);
    const lock = options.exclusive ? lockDataDir(dataDir) : null;
    try {
      const path = join(dataDir, DATABASE_FILE);
      makePrivate(path);
      const store = new Store(openDatabase(path), dataDir, lock);
      makePrivate(path);
      return store;
    } catch (error) {
      lock?.release();
      throw error;
    }
  }

  /** Whether the seed has not been applied yet. */
  isEmpty(): boolean {
    return this.db.prepare("SELECT 1 FROM principals LIMIT 1").get() === undefined;
  }

  /** A service secret kept in the database (created on first use): 32 random bytes, base64url. */
  secret(name: string): string {
    const existing = this.db.prepare("SELECT value FROM meta WHERE key = ?").get(name) as { value: string } | undefined;
    if (existing) return existing.value;
    this.db.prepare("INSERT OR IGNORE INTO meta (key, value) VALUES (?, ?)").run(name, randomBytes(32).toString("base64url"));
    return this.secret(name);
  }

  /** Closes the database and releases the data dir's lock. */
  close(): void {
    if (this.db.open) this.db.close();
    this.lock?.release();
  }
}
