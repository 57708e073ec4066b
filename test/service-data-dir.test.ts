/**
 * The data dir of `chainform serve` (real processes): one service per dir, a private dir whatever it was before,
 * and a database that is empty, foreign or damaged refused at start instead of replaced or answered with 500s.
 */
import {
  chmodSync,
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SqlDatabase } from "../lib/service/sqlite";
import { api, environmentsPath, killAllServed, startServe, stopServe } from "./service-process";

let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "chainform-data-dir-"));
});
afterAll(() => {
  killAllServed();
  rmSync(root, { recursive: true, force: true });
});

const modeOf = (path: string) => statSync(path).mode & 0o777;

describe("one service per data dir", () => {
  test("a second serve on the same dir refuses with one line naming the first; a dead holder's lock is taken over", async () => {
    const dataDir = join(root, "shared");
    const first = startServe(["--data-dir", dataDir]);
    const ready = await first.ready;
    // WHEN a second service starts on the same dir
    const second = startServe(["--data-dir", dataDir]);
    const { code } = await second.exited;
    // THEN it exits non-zero with one line naming the first process, and the first one still serves
    expect(code).not.toBe(0);
    expect(second.stderr()).toBe(
      `chainform serve: the data dir ${dataDir} is in use by another chainform service (pid ${first.child.pid}): stop that one first, or give this one another --data-dir\n`,
    );
    expect((await api(ready, "GET", environmentsPath(ready))).status).toBe(200);
    // WHEN the first is killed (its lock stays behind, stale) THEN a new service takes the dir over
    first.child.kill("SIGKILL");
    await first.exited;
    expect(existsSync(join(dataDir, "chainform.lock"))).toBe(true);
    const third = startServe(["--data-dir", dataDir]);
    expect((await third.ready).accessKey).toBe(ready.accessKey);
    expect(await stopServe(third)).toEqual({ code: 0, signal: null });
    // a clean stop leaves no lock
    expect(existsSync(join(dataDir, "chainform.lock"))).toBe(false);
  });
});

test("a data dir with loose permissions is made private: dir 0700, database 0600", async () => {
  const dataDir = join(root, "loose");
  const first = startServe(["--data-dir", dataDir]);
  await first.ready;
  await stopServe(first);
  chmodSync(dataDir, 0o1777);
  chmodSync(join(dataDir, "chainform.db"), 0o644);
  const second = startServe(["--data-dir", dataDir]);
  await second.ready;
  try {
    expect(modeOf(dataDir)).toBe(0o700);
    for (const file of ["chainform.db", "chainform.db-wal", "chainform.db-shm"]) {
      if (existsSync(join(dataDir, file))) expect([file, modeOf(join(dataDir, file))]).toEqual([file, 0o600]);
    }
  } finally {
    await stopServe(second);
  }
});

describe("a database the service cannot trust is refused, and left as it was", () => {
  async function refused(dataDir: string): Promise<string> {
    const served = startServe(["--data-dir", dataDir]);
    const { code } = await served.exited;
    expect(code).not.toBe(0);
    expect(served.stderr().split("\n").filter(Boolean)).toHaveLength(1);
    return served.stderr();
  }

  test("a 0-byte chainform.db", async () => {
    const dataDir = join(root, "empty");
    mkdirSync(dataDir);
    writeFileSync(join(dataDir, "chainform.db"), "");
    expect(await refused(dataDir)).toMatch(/chainform\.db is empty \(0 bytes\).*move it away/);
    expect(statSync(join(dataDir, "chainform.db")).size).toBe(0);
  });

  test("a file that is not SQLite", async () => {
    const dataDir = join(root, "foreign");
    mkdirSync(dataDir);
    writeFileSync(join(dataDir, "chainform.db"), "hello, I am a text file\n");
    expect(await refused(dataDir)).toMatch(/chainform\.db is not a SQLite database/);
    expect(readFileSync(join(dataDir, "chainform.db"), "utf8")).toBe("hello, I am a text file\n");
  });

  test("another program's SQLite database", async () => {
    const dataDir = join(root, "other-app");
    mkdirSync(dataDir);
    const db = SqlDatabase.open(join(dataDir, "chainform.db"));
    db.exec("CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('mine')");
    db.close();
    expect(await refused(dataDir)).toMatch(/chainform\.db is a SQLite database of something else/);
  });

  test("a database whose late pages are damaged", async () => {
    // GIVEN a real service's database with a few hundred pages of environments
    const dataDir = join(root, "damaged");
    const first = startServe(["--data-dir", dataDir]);
    const ready = await first.ready;
    const path = environmentsPath(ready);
    for (let i = 0; i < 150; i++) {
      const created = await api(ready, "POST", path, {
        display_name: `env ${i} ${"x".repeat(200)}`,
        slug: `env-${i}`,
        network_configs: [{ network_id: "1" }],
      });
      expect(created.status).toBe(200);
    }
    await stopServe(first);
    // WHEN its last pages are overwritten with garbage (the pages a start does not read)
    const file = join(dataDir, "chainform.db");
    const size = statSync(file).size;
    expect(size).toBeGreaterThan(40 * 4096);
    const fd = openSync(file, "r+");
    writeSync(fd, Buffer.alloc(4 * 4096, 0xa5), 0, 4 * 4096, size - 4 * 4096);
    closeSync(fd);
    // THEN the service refuses to start, naming the damage, instead of answering 500s later
    expect(await refused(dataDir)).toMatch(/chainform\.db is damaged \(integrity check: .+\); move it away/);
  });
});
