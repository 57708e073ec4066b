/**
 * The SQLite connection on each driver this Node.js can run: node:sqlite where present, better-sqlite3 below
 * Node.js 24 (on 24 loading it is the hazard the connection exists to avoid).
 */
import { spawnSync } from "node:child_process";
import { SqlDatabase, chosenDriver, hasNodeSqlite as nodeSqliteHere, type SqliteDriver } from ".";

const major = Number(process.versions.node.split(".")[0]);
const hasNodeSqlite = nodeSqliteHere();
const drivers: SqliteDriver[] = [
  ...(hasNodeSqlite ? (["node:sqlite"] as const) : []),
  ...(major < 24 ? (["better-sqlite3"] as const) : []),
];

test("the default driver is node:sqlite where Node.js has it (22.13+, 24), else better-sqlite3", () => {
  expect(hasNodeSqlite).toBe(major >= 24 || (major === 22 && Number(process.versions.node.split(".")[1]) >= 13));
  expect(chosenDriver({})).toBe(hasNodeSqlite ? "node:sqlite" : "better-sqlite3");
  expect(chosenDriver({ CHAINFORM_SQLITE_DRIVER: "better-sqlite3" })).toBe("better-sqlite3");
  expect(() => chosenDriver({ CHAINFORM_SQLITE_DRIVER: "sqlite3" })).toThrow(
    'CHAINFORM_SQLITE_DRIVER must be one of node:sqlite, better-sqlite3; got "sqlite3"',
  );
});

describe.each(drivers)("on %s", (driver) => {
  let db: SqlDatabase;
  beforeEach(() => {
    db = SqlDatabase.open(":memory:", { driver });
    db.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE)");
  });
  afterEach(() => db.close());

  test("a statement is prepared once per SQL text and kept", () => {
    const insert = db.prepare("INSERT INTO t (name) VALUES (?)");
    expect(db.prepare("INSERT INTO t (name) VALUES (?)")).toBe(insert);
    expect(insert.run("a")).toEqual({ changes: 1, lastInsertRowid: 1 });
    expect(db.prepare("SELECT name FROM t WHERE name = @name").get({ name: "a" })).toEqual({ name: "a" });
    expect(db.prepare("SELECT name FROM t WHERE name = ?").get("missing")).toBeUndefined();
    expect(db.pragma("user_version", { simple: true })).toBe(0);
    expect(db.pragma("table_info(t)")).toEqual([
      expect.objectContaining({ name: "id", pk: 1 }),
      expect.objectContaining({ name: "name", notnull: 1 }),
    ]);
  });

  test("a transaction commits when it returns and leaves nothing when it throws", () => {
    const insertAll = db.transaction((names: string[]) => {
      for (const name of names) db.prepare("INSERT INTO t (name) VALUES (?)").run(name);
      return names.length;
    });
    expect(insertAll.immediate(["a", "b"])).toBe(2);
    expect(() => insertAll(["c", "a"])).toThrow(/UNIQUE/);
    expect(db.inTransaction).toBe(false);
    expect(db.prepare("SELECT name FROM t ORDER BY id").all()).toEqual([{ name: "a" }, { name: "b" }]);
  });

  test("a nested transaction is a savepoint: its failure undoes only its own writes", () => {
    const insert = (name: string) => db.prepare("INSERT INTO t (name) VALUES (?)").run(name);
    db.transaction(() => {
      insert("outer");
      expect(() =>
        db.transaction(() => {
          insert("inner");
          insert("outer");
        })(),
      ).toThrow(/UNIQUE/);
      expect(db.inTransaction).toBe(true);
      db.transaction(() => insert("kept"))();
    }).immediate();
    expect(db.prepare("SELECT name FROM t ORDER BY id").all()).toEqual([{ name: "outer" }, { name: "kept" }]);
  });

  test("a transaction function that returns a promise is refused and rolled back", () => {
    const asyncWrite = db.transaction(async () => db.prepare("INSERT INTO t (name) VALUES (?)").run("x"));
    expect(() => asyncWrite()).toThrow("a transaction function must be synchronous: it returned a promise");
    expect(db.prepare("SELECT COUNT(*) AS n FROM t").get()).toEqual({ n: 0 });
  });

  test("an INTEGER beyond 2^53 reads exactly through CAST AS TEXT; node:sqlite also gives it as a bigint", () => {
    db.exec("CREATE TABLE big (small INTEGER, huge INTEGER)");
    db.prepare("INSERT INTO big (small, huge) VALUES (?, ?)").run(7, 2n ** 60n);
    expect(db.prepare("SELECT CAST(huge AS TEXT) AS huge FROM big").get()).toEqual({ huge: "1152921504606846976" });
    if (driver === "node:sqlite") {
      expect(db.prepare("SELECT small, huge FROM big").get()).toEqual({ small: 7, huge: 2n ** 60n });
      expect(db.prepare("SELECT small, huge FROM big").all()).toEqual([{ small: 7, huge: 2n ** 60n }]);
      expect(db.prepare("SELECT small FROM big").get()).toEqual({ small: 7 });
    } else {
      expect(typeof (db.prepare("SELECT huge FROM big").get() as { huge: unknown }).huge).toBe("number");
    }
  });

  test("closing is final and idempotent", () => {
    db.close();
    expect(db.open).toBe(false);
    expect(() => db.close()).not.toThrow();
    expect(() => db.prepare("SELECT 1").get()).toThrow();
  });
});

test("opening a database prints nothing: node:sqlite's ExperimentalWarning (Node.js 22) is kept quiet, others pass", () => {
  const script = `const { SqlDatabase } = require(${JSON.stringify(require.resolve("."))});
    const db = SqlDatabase.open(":memory:"); db.close(); process.emitWarning("another", "ExperimentalWarning");`;
  const result = spawnSync(process.execPath, ["--import", "tsx", "-e", script], { encoding: "utf8" });
  expect(result.status).toBe(0);
  expect(result.stderr).not.toMatch(/SQLite/);
  expect(result.stderr).toMatch(/ExperimentalWarning: another/);
});
