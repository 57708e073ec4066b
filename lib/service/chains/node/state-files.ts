/**
 * A chain's saved state on disk: where it lives, how a new dump replaces it (only when complete: temporary file,
 * fsync, rename, so a full disk or a crash keeps the previous state), the journal generation it holds, and the
 * clean-up at start of state files whose Virtual Environment no longer exists (a kill -9 during a delete leaves them).
 *
 * Layout: `<dataDir>/chains/<vnetId>.json`; a dump in progress is `<vnetId>.json.<pid>-<n>.tmp` beside it.
 *
 * The generation: every saved state ends with a member of ours, `"chainform_journal_seq":N` (anvil ignores members it
 * does not know), N being the last journal row (./journal.ts) the state holds. The file and the number are replaced
 * by one rename, so the state on disk always says which journaled writes it already has: a start applies only the
 * rows after N (./recovery.ts), and the journal's clear after a save is only tidying. The argument, crash point by
 * crash point, is in ./vnet-states.ts (`save`).
 */
import {
  closeSync,
  existsSync,
  fstatSync,
  fsyncSync,
  ftruncateSync,
  openSync,
  readFileSync,
  readSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from "node:fs";
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
 * Moves a complete dump into place, stamped with the journal generation it holds (`generation`: the last journal row
 * whose write is in it, 0 for none): stamp, fsync, rename over the previous state, fsync the directory. An incomplete
 * one is removed and the previous state kept; the reason is returned (undefined when the new state is in place).
 */
export function commitDump(temporaryPath: string, statePath: string, generation: number): string | undefined {
  const incomplete = incompleteDump(temporaryPath);
  if (incomplete) {
    rmSync(temporaryPath, { force: true });
    return incomplete;
  }
  try {
    stampGeneration(temporaryPath, generation);
    fsyncPath(temporaryPath, "r+");
    saveStep("state-written");
    renameSync(temporaryPath, statePath);
    fsyncPath(dirname(statePath), "r");
    saveStep("state-renamed");
    return undefined;
  } catch (error) {
    rmSync(temporaryPath, { force: true });
    return `the state could not be moved into place: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`;
  }
}

/** The member that carries a saved state's journal generation: always the last one, written by `stampGeneration`. */
const GENERATION_MEMBER = "chainform_journal_seq";
/** The generation member at the end of a state, with the object's closing brace. */
const GENERATION_AT_END = new RegExp(`,?\\s*"${GENERATION_MEMBER}"\\s*:\\s*(\\d{1,16})\\s*\\}\\s*$`);
/** How much of a state's end is read for its generation: the member and some whitespace. */
const END_BYTES = 128;

/**
 * The journal generation a saved state holds: the last journal row whose write is in it; 0 when the file has none
 * (a state saved by an older version, or none saved yet: then every row of the journal is after it).
 */
export function stateGeneration(statePath: string): number {
  if (!existsSync(statePath)) return 0;
  const fd = openSync(statePath, "r");
  try {
    const match = GENERATION_AT_END.exec(readEnd(fd).text);
    return match ? Number(match[1]) : 0;
  } finally {
    closeSync(fd);
  }
}

/**
 * Writes `generation` into a complete dump as its last member, in place of one already there (an imported state may
 * carry any number: it must not decide which of this service's rows a start skips). Only the end of the file is
 * rewritten, whatever its size.
 */
export function stampGeneration(path: string, generation: number): void {
  if (!Number.isSafeInteger(generation) || generation < 0) throw new Error(`not a journal generation: ${generation}`);
  const fd = openSync(path, "r+");
  try {
    const { text, start } = readEnd(fd);
    const stamped = GENERATION_AT_END.exec(text);
    // Cut at the stamp already there, else at the closing brace; a comma goes before the member unless the object is empty.
    const cut = stamped ? stamped.index : text.lastIndexOf("}");
    if (cut < 0) throw new Error("the state written is not a JSON object");
    const empty = /\{\s*$/.test(text.slice(0, cut));
    const tail = Buffer.from(`${empty ? "" : ","}"${GENERATION_MEMBER}":${generation}}`);
    const at = start + cut; // latin1: one character per byte
    ftruncateSync(fd, at);
    writeSync(fd, tail, 0, tail.length, at);
  } finally {
    closeSync(fd);
  }
}

/** The last `END_BYTES` of an open file, as latin1 (one character per byte), and where they start. */
function readEnd(fd: number): { text: string; start: number } {
  const size = fstatSync(fd).size;
  const start = Math.max(0, size - END_BYTES);
  const buffer = Buffer.alloc(size - start);
  readSync(fd, buffer, 0, buffer.length, start);
  return { text: buffer.toString("latin1"), start };
}

/**
 * The steps of a save at which a test stops the service with SIGKILL (test/chains-save-crash-child.ts): the stamped
 * dump is complete beside the state, the state is renamed into place, the journal rows it holds are cleared.
 */
export type SaveStep = "state-written" | "state-renamed" | "journal-cleared";

let saveStepObserver: ((step: SaveStep) => void) | undefined;

/** @internal Tests only: hears every step of every save in this process, to crash it at an exact point. */
export function observeSaveSteps(observer: ((step: SaveStep) => void) | undefined): void {
  saveStepObserver = observer;
}

/** @internal A save reached `step` (./journal.ts says so of the clear). */
export function saveStep(step: SaveStep): void {
  saveStepObserver?.(step);
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
