/**
 * The service's database file: WAL, foreign keys, migrations, and commits that survive kill -9 of the process that
 * made them (the child writes, reports, and SIGKILLs itself before any close or checkpoint).
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { openDatabase } from "./database";

let dataDir: string;
beforeEach(() => (dataDir = mkdtempSync(join(tmpdir(), "chainform-store-"))));
afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

test("a file database is in WAL mode with foreign keys on, and migrates once", () => {
  const path = join(dataDir, "chainform.db");
  const db = openDatabase(path);
  expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
  expect(db.pragma("foreign_keys", { simple: true })).toBe(1);
  const version = db.pragma("user_version", { simple: true }) as number;
  expect(version).toBeGreaterThan(0);
  db.close();
  const again = openDatabase(path);
  expect(again.pragma("user_version", { simple: true })).toBe(version);
  expect(() => again.prepare("INSERT INTO access_keys (key, user_id, read_only) VALUES ('k', 'nobody', 0)").run()).toThrow(/FOREIGN KEY/);
  again.close();
});

test("the web UI's tables are a migration; the chain engine's are not the store's (the engine migrates its own)", () => {
  const path = join(dataDir, "chainform.db");
  const db = openDatabase(path);
  const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((t) => t.name);
  expect(tables).toContain("web_verified_contracts");
  expect(tables.filter((name) => name.startsWith("chain_"))).toEqual([]);
  // GIVEN a database of the schema before (version 1)
  const version = db.pragma("user_version", { simple: true }) as number;
  db.exec("PRAGMA user_version = 1");
  db.close();
  // WHEN it is opened again THEN it migrates to the current schema
  const again = openDatabase(path);
  expect(again.pragma("user_version", { simple: true })).toBe(version);
  again.close();
});

test("a committed multi-row write survives kill -9", async () => {
  const rows = 50;
  const child = spawn(
    process.execPath,
    ["--import", "tsx", join(__dirname, "..", "..", "..", "test", "store-sigkill-child.ts"), dataDir, String(rows)],
    {
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  const lines = createInterface({ input: child.stdout! });
  const [report] = await Promise.all([
    new Promise<{ committed: number; driver: string }>((resolve) => lines.once("line", (line) => resolve(JSON.parse(line)))),
    new Promise<void>((resolve) => child.once("exit", (_code, signal) => (expect(signal).toBe("SIGKILL"), resolve()))),
  ]);
  expect(report.committed).toBe(rows);
  const db = openDatabase(join(dataDir, "chainform.db"));
  expect(db.prepare("SELECT COUNT(*) AS n FROM meta WHERE key LIKE 'k%'").get()).toEqual({ n: rows });
  expect(db.prepare("SELECT value FROM meta WHERE key = 'k49'").get()).toEqual({ value: "v49" });
  db.close();
});
