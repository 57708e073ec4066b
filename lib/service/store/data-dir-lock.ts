/**
 * The data dir's exclusive lock: one serving process per data dir. Two services on one dir would share keys and
 * chain state files, their chains would diverge, and one side's writes would be lost at the next restart.
 *
 * The lock is a file, `chainform.lock`, holding the holder's pid (and, on Linux, the process start time, so that a
 * recycled pid is not taken for the holder). It is written complete under a temporary name and linked into place:
 * `link` fails when the lock exists, so taking it is atomic and a reader never sees a half-written lock. A lock whose
 * holder is dead (kill -9, a crash) is stale and taken over: it is renamed away first, which only one process can
 * do, and put back if it turns out to be a live holder's.
 */
import { closeSync, fsyncSync, linkSync, openSync, readFileSync, renameSync, unlinkSync, writeSync } from "node:fs";
import { join } from "node:path";

/** File name of the lock inside the data dir. */
export const LOCK_FILE = "chainform.lock";

/** Another live process holds the data dir. The message is one line naming it. */
export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holderPid: number,
  ) {
    super(
      `the data dir ${dataDir} is in use by another chainform service (pid ${holderPid}): stop that one first, or give this one another --data-dir`,
    );
    this.name = "DataDirLockedError";
  }
}

/** A held lock. */
export interface DataDirLock {
  /** The lock file. */
  readonly path: string;
  /** Releases the lock (only if it is still ours); releasing twice does nothing. */
  release(): void;
}

interface Holder {
  readonly pid: number;
  readonly started?: string;
}

/**
 * Takes the data dir's lock, or throws `DataDirLockedError` naming the live holder.
 *
 * @example
 * const lock = lockDataDir("/srv/chainform");
 * try { serve(); } finally { lock.release(); }
 */
export function lockDataDir(dataDir: string): DataDirLock {
  const path = join(dataDir, LOCK_FILE);
  const me: Holder = { pid: process.pid, started: startTimeOf(process.pid) };
  const text = `${JSON.stringify(me)}\n`;
  const temporary = `${path}.${process.pid}.tmp`;
  writeDurably(temporary, text);
  try {
    for (let attempt = 0; attempt < 20; attempt++) {
      try {
        linkSync(temporary, path);
        return heldLock(path, text);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      }
      const holder = readHolder(path);
      if (holder && isAlive(holder)) throw new DataDirLockedError(dataDir, holder.pid);
      takeOverStale(path, holder);
    }
    throw new Error(`could not take the lock ${path}: it keeps changing hands`);
  } finally {
    unlinkQuietly(temporary);
  }
}

function heldLock(path: string, text: string): DataDirLock {
  let held = true;
  return {
    path,
    release() {
      if (!held) return;
      held = false;
      // Only our own lock is removed: never one a later holder took over.
      if (readText(path) === text) unlinkQuietly(path);
    },
  };
}

/**
 * Removes a stale lock. Renaming it to a name of our own is atomic: of several processes taking it over, one moves
 * it. If what was moved is not the stale lock seen (another process took over in between), it is put back.
 */
function takeOverStale(path: string, seen: Holder | undefined): void {
  const aside = `${path}.${process.pid}.stale`;
  try {
    renameSync(path, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
    throw error;
  }
  const moved = readHolder(aside);
  if (moved && isAlive(moved) && moved.pid !== seen?.pid) {
    try {
      linkSync(aside, path);
    } catch {
      // a third process took the lock meanwhile: it holds it now
    }
  }
  unlinkQuietly(aside);
}

function readHolder(path: string): Holder | undefined {
  const text = readText(path);
  if (text === undefined) return undefined;
  try {
    const holder = JSON.parse(text) as Holder;
    return Number.isSafeInteger(holder.pid) && holder.pid > 0 ? holder : undefined;
  } catch {
    return undefined; // unreadable: nobody can be named as its holder, so it is stale
  }
}

function isAlive(holder: Holder): boolean {
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  // A pid the kernel gave to another process since: the start times differ.
  const started = startTimeOf(holder.pid);
  return holder.started === undefined || started === undefined || started === holder.started;
}

/** The process start time (clock ticks since boot) on Linux; undefined elsewhere. */
function startTimeOf(pid: number): string | undefined {
  const stat = readText(`/proc/${pid}/stat`);
  if (stat === undefined) return undefined;
  // Field 22; the command name (field 2) is in parentheses and may hold spaces.
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
}

function writeDurably(path: string, text: string): void {
  const fd = openSync(path, "w", 0o600);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // already gone
  }
}
