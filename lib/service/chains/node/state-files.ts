/**
 * A chain's saved state on disk: where it lives, how a new dump replaces it (only when complete: temporary file,
 * fsync, rename, so a full disk or a crash keeps the previous state), and the clean-up at start of state files
 * whose Virtual Environment no longer exists (a kill -9 during a delete leaves them).
 *
 * Layout: `<dataDir>/chains/<vnetId>.json`; a dump in progress is `<vnetId>.json.<pid>-<n>.tmp` beside it.
 */
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, readSync, readdirSync, renameSync, rmSync, statSync } from "node:fs";
import { basename, dirname, join } from "node:path";

/** Directory of the chains' state files inside a data dir. */
export function chainsDirOf(dataDir: string): string {
  return join(dataDir, "chains");
}

/** The state file of a Virtual Environment's chain. */
export function statePathOf(chainsDir: string, vnetId: string): string {
  return join(chainsDir, `${vnetId}.json`);
}

let dumps = 0;

/** A fresh temporary path beside `statePath` for a dump in progress. */
export function temporaryStatePath(statePath: string): string {
  dumps += 1;
  return `${statePath}.${process.pid}-${dumps}.tmp`;
}

const STATE_FILE = /^([0-9a-f-]{36})\.json$/;
const TEMPORARY_FILE = /^[0-9a-f-]{36}\.json\.\d+-\d+\.tmp$/;

/** Largest dump checked by parsing it whole; larger ones are checked by their ends only (parsing blocks the service). */
const PARSED_CHECK_LIMIT = 32 * 1024 * 1024;

/**
 * Why a dump is not a complete state, or undefined when it is. A full disk leaves an empty or cut file (anvil
 * itself still exits 0 and says nothing).
 */
export function incompleteDump(path: string): string | undefined {
  if (!existsSync(path)) return "no state was written";
  const size = statSync(path).size;
  if (size === 0) return "the state written is empty (is the disk full?)";
  if (size <= PARSED_CHECK_LIMIT) {
    try {
      const state = JSON.parse(readFileSync(path, "utf8")) as unknown;
      return state !== null && typeof state === "object" && !Array.isArray(state) ? undefined : "the state written is not a JSON object";
    } catch {
      return "the state written is cut short (is the disk full?)";
    }
  }
  const fd = openSync(path, "r");
  try {
    const ends = Buffer.alloc(1);
    readSync(fd, ends, 0, 1, 0);
    const first = ends.toString();
    readSync(fd, ends, 0, 1, size - 1);
    return first === "{" && ends.toString() === "}" ? undefined : "the state written is cut short (is the disk full?)";
  } finally {
    closeSync(fd);
  }
}

/**
 * Moves a complete dump into place: fsync, rename over the previous state, fsync the directory. An incomplete one is
 * removed and the previous state kept; the reason is returned (undefined when the new state is in place).
 */
export function commitDump(temporaryPath: string, statePath: string): string | undefined {
  const incomplete = incompleteDump(temporaryPath);
  if (incomplete) {
    rmSync(temporaryPath, { force: true });
    return incomplete;
  }
  try {
    fsyncPath(temporaryPath, "r+");
    renameSync(temporaryPath, statePath);
    fsyncPath(dirname(statePath), "r");
    return undefined;
  } catch (error) {
    rmSync(temporaryPath, { force: true });
    return `the state could not be moved into place: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`;
  }
}

function fsyncPath(path: string, flags: string): void {
  const fd = openSync(path, flags);
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * Why a saved state cannot be loaded (an empty file, the mark of a full disk under older versions), or undefined.
 * Only the cheap check: anvil reports anything else when it loads the file.
 */
export function unloadableState(statePath: string): string | undefined {
  return existsSync(statePath) && statSync(statePath).size === 0 ? "its saved state file is empty" : undefined;
}

/**
 * Removes, at start, the state files of Virtual Environments that no longer exist and every dump left in progress.
 * Other files are left alone. Returns the names removed.
 */
export function removeOrphanedStates(chainsDir: string, exists: (vnetId: string) => boolean): string[] {
  if (!existsSync(chainsDir)) return [];
  const removed: string[] = [];
  for (const name of readdirSync(chainsDir)) {
    const vnetId = STATE_FILE.exec(name)?.[1];
    if ((vnetId !== undefined && !exists(vnetId)) || TEMPORARY_FILE.test(name)) {
      rmSync(join(chainsDir, name), { force: true });
      removed.push(basename(name));
    }
  }
  return removed;
}
