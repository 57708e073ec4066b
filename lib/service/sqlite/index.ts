/**
 * The SQLite connection the store and the chain engine run on (it sits below both, and knows neither), over one of
 * two drivers:
 * - `node:sqlite`, built into Node.js 22.13+ and 24+ (no native addon to compile, nothing to abort);
 * - `better-sqlite3` 12 on Node.js 20, which has no `node:sqlite`. better-sqlite3 12 aborts Node.js 24 when the
 *   garbage collector finalizes one of its statements (WiseLibs/better-sqlite3#1515), so it is never loaded where
 *   `node:sqlite` exists.
 * `CHAINFORM_SQLITE_DRIVER=node:sqlite|better-sqlite3` forces one (benchmarks, tests of the fallback).
 *
 * Both drivers are used the same way: statements are prepared once per SQL text and kept for the connection's life
 * (no statement is ever left to the garbage collector, and hot paths never re-prepare), and transactions are
 * `BEGIN [IMMEDIATE]` / `COMMIT` / `ROLLBACK` run by this class, nested ones as savepoints. The API is the subset of
 * better-sqlite3's that the service uses, so code written against it reads the same.
 */
import type BetterSqlite3 from "better-sqlite3";

/** Which SQLite binding a connection runs on. */
export type SqliteDriver = "node:sqlite" | "better-sqlite3";

/** What running a write statement reports. */
export interface SqlRunResult {
  /** Rows inserted, updated or deleted. */
  readonly changes: number;
  /** Rowid of the last inserted row. */
  readonly lastInsertRowid: number | bigint;
}

/**
 * A prepared statement. Parameters are positional (`?`) or one object of named ones (`@name`, keys without the
 * `@`); values are strings, numbers, bigints, null or byte arrays (booleans and undefined are rejected).
 */
export interface SqlStatement {
  /** Runs a write. */
  run(...params: unknown[]): SqlRunResult;
  /** The first row, or undefined when there is none. */
  get(...params: unknown[]): unknown;
  /** Every row. */
  all(...params: unknown[]): unknown[];
}

/** A function run in a transaction: calling it uses `BEGIN` (deferred); `.immediate(...)` takes the write lock first. */
export interface SqlTransaction<A extends unknown[], R> {
  (...args: A): R;
  /** Runs in `BEGIN DEFERRED`. */
  deferred(...args: A): R;
  /** Runs in `BEGIN IMMEDIATE` (the write lock is taken at once: use it for read-then-write). */
  immediate(...args: A): R;
  /** Runs in `BEGIN EXCLUSIVE`. */
  exclusive(...args: A): R;
}

/** How to open a connection. */
export interface SqlOpenOptions {
  /** Opens the file read-only. */
  readonly readonly?: boolean;
  /** Overrides the driver choice (else `CHAINFORM_SQLITE_DRIVER`, else `node:sqlite` where present). */
  readonly driver?: SqliteDriver;
}

/** The part of a driver's connection this class uses. */
interface Connection {
  prepare(sql: string): SqlStatement;
  exec(sql: string): void;
  /** Whether a transaction is open; undefined when the binding cannot tell (node:sqlite before 22.16). */
  inTransaction(): boolean | undefined;
  close(): void;
}

type Mode = "deferred" | "immediate" | "exclusive";

/**
 * One SQLite connection.
 *
 * @example
 * const db = SqlDatabase.open(":memory:");
 * db.exec("CREATE TABLE t (a TEXT)");
 * db.transaction((a: string) => db.prepare("INSERT INTO t (a) VALUES (?)").run(a)).immediate("x");
 * db.close();
 */
export class SqlDatabase {
  private readonly statements = new Map<string, SqlStatement>();
  private depth = 0;
  private closed = false;

  private constructor(
    private readonly connection: Connection,
    /** The binding this connection runs on. */
    readonly driver: SqliteDriver,
    /** The database file, or `:memory:`. */
    readonly path: string,
  ) {}

  /** Opens (creating if needed, unless read-only) the database at `path`, or an in-memory one for `":memory:"`. */
  static open(path: string, options: SqlOpenOptions = {}): SqlDatabase {
    const driver = options.driver ?? chosenDriver();
    const readonly = options.readonly ?? false;
    const connection = driver === "node:sqlite" ? openNodeSqlite(path, readonly) : openBetterSqlite3(path, readonly);
    return new SqlDatabase(connection, driver, path);
  }

  /** Whether the connection is open. */
  get open(): boolean {
    return !this.closed;
  }

  /** Whether a transaction is open on this connection. */
  get inTransaction(): boolean {
    return !this.closed && (this.connection.inTransaction() ?? this.depth > 0);
  }

  /**
   * The prepared statement for `sql`: prepared on first use, then the same one for the connection's life. Never
   * build SQL from values (bind them), or each distinct text is kept.
   */
  prepare(sql: string): SqlStatement {
    let statement = this.statements.get(sql);
    if (statement === undefined) {
      statement = this.connection.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  /** Runs one or more statements without results (schema, pragmas that set). */
  exec(sql: string): void {
    this.connection.exec(sql);
  }

  /**
   * Runs `PRAGMA source` and returns its rows, or with `simple` the first column of the first row, as better-sqlite3
   * does: `pragma("user_version", { simple: true })` is a number, `pragma("table_info(t)")` an array of rows.
   */
  pragma(source: string, options: { readonly simple?: boolean } = {}): unknown {
    const statement = this.prepare(`PRAGMA ${source}`);
    if (!options.simple) return statement.all();
    const row = statement.get() as Record<string, unknown> | undefined;
    return row === undefined ? undefined : Object.values(row)[0];
  }

  /**
   * Wraps `fn` so that it runs in a transaction: committed when it returns, rolled back when it throws. Called
   * inside another transaction it runs in a savepoint. `fn` must be synchronous.
   */
  transaction<A extends unknown[], R>(fn: (...args: A) => R): SqlTransaction<A, R> {
    const run =
      (mode: Mode) =>
      (...args: A) =>
        this.runTransaction(mode, fn, args);
    return Object.assign(run("deferred"), { deferred: run("deferred"), immediate: run("immediate"), exclusive: run("exclusive") });
  }

  /** Closes the connection (and its statements); closing twice does nothing. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.statements.clear();
    this.connection.close();
  }

  private runTransaction<A extends unknown[], R>(mode: Mode, fn: (...args: A) => R, args: A): R {
    if (this.depth > 0) return this.runSavepoint(fn, args);
    this.prepare(`BEGIN ${mode.toUpperCase()}`).run();
    this.depth = 1;
    try {
      const result = synchronous(fn(...args));
      this.prepare("COMMIT").run();
      return result;
    } catch (error) {
      this.rollback("ROLLBACK");
      throw error;
    } finally {
      this.depth = 0;
    }
  }

  /**
   * Runs a rollback after a failure. SQLite rolls some failures back by itself, and a second ROLLBACK would throw
   * over the real error; where the binding cannot tell, a "no transaction" error is the answer. True if it ran.
   */
  private rollback(sql: string): boolean {
    const open = this.connection.inTransaction();
    if (open === false) return false;
    try {
      this.prepare(sql).run();
      return true;
    } catch (error) {
      if (open === true) throw error;
      return false;
    }
  }

  private runSavepoint<A extends unknown[], R>(fn: (...args: A) => R, args: A): R {
    const name = `chainform_${this.depth}`;
    this.prepare(`SAVEPOINT ${name}`).run();
    this.depth++;
    try {
      const result = synchronous(fn(...args));
      this.prepare(`RELEASE ${name}`).run();
      return result;
    } catch (error) {
      if (this.rollback(`ROLLBACK TO ${name}`)) this.prepare(`RELEASE ${name}`).run();
      throw error;
    } finally {
      this.depth--;
    }
  }
}

function synchronous<R>(result: R): R {
  if (result !== null && typeof result === "object" && typeof (result as { then?: unknown }).then === "function") {
    throw new TypeError("a transaction function must be synchronous: it returned a promise");
  }
  return result;
}

/** The environment variable that forces a driver. */
export const DRIVER_VARIABLE = "CHAINFORM_SQLITE_DRIVER";

const DRIVERS: readonly SqliteDriver[] = ["node:sqlite", "better-sqlite3"];

/** The driver connections open with by default: the forced one, else `node:sqlite` where present. */
export function chosenDriver(env: NodeJS.ProcessEnv = process.env): SqliteDriver {
  const forced = env[DRIVER_VARIABLE];
  if (forced !== undefined && forced !== "") {
    if (!(DRIVERS as readonly string[]).includes(forced)) {
      throw new Error(`${DRIVER_VARIABLE} must be one of ${DRIVERS.join(", ")}; got "${forced}"`);
    }
    return forced as SqliteDriver;
  }
  return hasNodeSqlite() ? "node:sqlite" : "better-sqlite3";
}

/** Whether this Node.js has `node:sqlite` (asked quietly: no ExperimentalWarning). */
export function hasNodeSqlite(): boolean {
  return nodeSqlite() !== undefined;
}

/** The part of `node:sqlite` used here (typed locally: @types/node 20 does not describe it). */
interface NodeSqliteModule {
  DatabaseSync: new (
    path: string,
    options?: { readOnly?: boolean; open?: boolean },
  ) => {
    prepare(sql: string): NodeSqliteStatement;
    exec(sql: string): void;
    close(): void;
    readonly isTransaction?: boolean;
  };
}

interface NodeSqliteStatement extends SqlStatement {
  setReadBigInts(enabled: boolean): void;
}

let nodeSqliteModule: NodeSqliteModule | null | undefined;

/**
 * `node:sqlite`, or undefined where Node.js has none (20; 22 before 22.13 without a flag). Node 22 prints an
 * ExperimentalWarning when the module loads; that one warning is kept off the service's output, others pass.
 */
function nodeSqlite(): NodeSqliteModule | undefined {
  if (nodeSqliteModule !== undefined) return nodeSqliteModule ?? undefined;
  const getBuiltin = (process as { getBuiltinModule?: (id: string) => unknown }).getBuiltinModule;
  const emitWarning = process.emitWarning;
  process.emitWarning = function quietSqliteWarning(this: unknown, warning: string | Error, ...rest: unknown[]) {
    const text = typeof warning === "string" ? warning : warning.message;
    const type = typeof rest[0] === "string" ? rest[0] : (rest[0] as { type?: string } | undefined)?.type;
    if ((type === "ExperimentalWarning" || (warning as Error).name === "ExperimentalWarning") && /SQLite/i.test(text)) return;
    return (emitWarning as (...args: unknown[]) => void).call(process, warning, ...rest);
  } as typeof process.emitWarning;
  try {
    // getBuiltinModule answers undefined where there is none; require (where a host hides getBuiltinModule) throws.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const loaded = typeof getBuiltin === "function" ? getBuiltin.call(process, "node:sqlite") : require("node:sqlite");
    nodeSqliteModule = (loaded as NodeSqliteModule | undefined) ?? null;
  } catch {
    nodeSqliteModule = null;
  } finally {
    process.emitWarning = emitWarning;
  }
  return nodeSqliteModule ?? undefined;
}

function openNodeSqlite(path: string, readonly: boolean): Connection {
  const sqlite = nodeSqlite();
  if (sqlite === undefined) {
    throw new Error(`Node.js ${process.version} has no node:sqlite (it needs 22.13 or later); unset ${DRIVER_VARIABLE} or upgrade Node.js`);
  }
  const db = new sqlite.DatabaseSync(path, { readOnly: readonly });
  return {
    prepare: (sql) => exactReads(db.prepare(sql), READ_ONLY_SQL.test(sql)),
    exec: (sql) => db.exec(sql),
    // `isTransaction` exists from 22.16 and 24; before that the binding cannot tell.
    inTransaction: () => db.isTransaction,
    close: () => db.close(),
  };
}

const READ_ONLY_SQL = /^\s*(SELECT|PRAGMA|VALUES)\b/i;

/**
 * node:sqlite throws ERR_OUT_OF_RANGE when a row holds an INTEGER beyond 2^53 (better-sqlite3 rounds it instead).
 * A read that hits one runs again with bigints, and gives that value as an exact bigint, the others as numbers;
 * the usual read pays nothing. Only reads are run again (a write with RETURNING must not run twice).
 */
function exactReads(statement: NodeSqliteStatement, readOnly: boolean): SqlStatement {
  if (!readOnly) return statement;
  const exactly = <T>(read: () => T): T => {
    statement.setReadBigInts(true);
    try {
      return read();
    } finally {
      statement.setReadBigInts(false);
    }
  };
  const retried = <T>(read: () => T, exact: (value: T) => T): T => {
    try {
      return read();
    } catch (error) {
      if ((error as { code?: string }).code !== "ERR_OUT_OF_RANGE") throw error;
      return exact(exactly(read));
    }
  };
  return {
    run: (...params) => statement.run(...params),
    get: (...params) => retried(() => statement.get(...params), numbersWhereSafe),
    all: (...params) =>
      retried(
        () => statement.all(...params),
        (rows) => rows.map(numbersWhereSafe),
      ),
  };
}

function numbersWhereSafe(row: unknown): unknown {
  if (row === null || typeof row !== "object") return row;
  const values = row as Record<string, unknown>;
  for (const key of Object.keys(values)) {
    const value = values[key];
    if (typeof value === "bigint" && value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER)) {
      values[key] = Number(value);
    }
  }
  return row;
}

/**
 * The one line for a Node.js without node:sqlite whose better-sqlite3 does not load. It is an optional peer
 * dependency (installing chainform compiles nothing), so on Node.js 20 it is usually missing: say how to add it.
 * @example
 * betterSqlite3Unavailable(Object.assign(new Error("Cannot find module 'better-sqlite3'"), { code: "MODULE_NOT_FOUND" }))
 * // "Node.js v20.20.2 has no node:sqlite: run `npm install better-sqlite3` (...), or use Node.js 22.13+, 24 or 26."
 */
export function betterSqlite3Unavailable(error: unknown, nodeVersion: string = process.version): string {
  const missing =
    (error as { code?: unknown } | null)?.code === "MODULE_NOT_FOUND" && /better-sqlite3/.test(String((error as Error).message));
  if (missing) {
    return `Node.js ${nodeVersion} has no node:sqlite: run \`npm install better-sqlite3\` in your project (the local service's SQLite on Node.js 20; where npm asks, allow its install script in allowScripts), or use Node.js 22.13+, 24 or 26.`;
  }
  return (
    `Node.js ${nodeVersion} has no node:sqlite, and better-sqlite3 (chainform's SQLite on Node.js 20) could not be ` +
    `loaded: ${String((error as Error)?.message ?? error)
      .split("\n")[0]
      .replace(/\.$/, "")}. Run \`npm rebuild better-sqlite3\`, or use Node.js 22.13+, 24 or 26.`
  );
}

function openBetterSqlite3(path: string, readonly: boolean): Connection {
  let Database: typeof BetterSqlite3;
  try {
    // Loaded only here: on Node.js 24 merely collecting one of its statements can abort the process.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    Database = require("better-sqlite3") as typeof BetterSqlite3;
  } catch (error) {
    throw new Error(betterSqlite3Unavailable(error));
  }
  const db = new Database(path, { readonly });
  return {
    prepare: (sql) => db.prepare(sql) as unknown as SqlStatement,
    exec: (sql) => void db.exec(sql),
    inTransaction: () => db.inTransaction,
    close: () => db.close(),
  };
}
