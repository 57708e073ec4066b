/** The data dir's lock file: taken atomically, refused while its holder lives, taken over from a dead one. */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DataDirLockedError, LOCK_FILE, lockDataDir } from "./data-dir-lock";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "chainform-lock-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** The pid of a process that has exited. */
function deadPid(): number {
  return Number(spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"]).stdout.toString());
}

test("a held lock refuses a second taker, naming the holder; releasing it frees the dir", () => {
  const lock = lockDataDir(dir);
  expect(JSON.parse(readFileSync(join(dir, LOCK_FILE), "utf8"))).toMatchObject({ pid: process.pid });
  expect(() => lockDataDir(dir)).toThrow(DataDirLockedError);
  expect(() => lockDataDir(dir)).toThrow(`(pid ${process.pid})`);
  lock.release();
  expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
  lockDataDir(dir).release();
});

// The start time of a process is read on Linux only: elsewhere a recycled pid keeps the dir locked.
const recycled =
  process.platform === "linux"
    ? [
        [
          "a lock naming a live pid with another start time (the pid was recycled)",
          () => JSON.stringify({ pid: process.pid, started: "1" }),
        ],
      ]
    : [];

test.each([["a dead process's lock", () => JSON.stringify({ pid: deadPid() })], ["an unreadable lock", () => "garbage"], ...recycled] as [
  string,
  () => string,
][])("%s is taken over", (_name, content) => {
  writeFileSync(join(dir, LOCK_FILE), content());
  const lock = lockDataDir(dir);
  expect(JSON.parse(readFileSync(join(dir, LOCK_FILE), "utf8")).pid).toBe(process.pid);
  lock.release();
});

test("release never removes a lock another holder has taken since", () => {
  const lock = lockDataDir(dir);
  writeFileSync(join(dir, LOCK_FILE), JSON.stringify({ pid: 1 }));
  lock.release();
  expect(existsSync(join(dir, LOCK_FILE))).toBe(true);
});
