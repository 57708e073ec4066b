/**
 * The recordings of one fork: every answer an upstream gave about one network at one pinned block, keyed by method
 * and params (never by JSON-RPC id), in one JSON file per network and block (`<dir>/<network>/<block>.json`) that CI
 * can cache between runs. Files are written atomically (a temporary file renamed over the old one) and merged with
 * what is on disk, so two services sharing a directory lose nothing of each other's.
 */
import { mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import type { ChainLog } from "../node/backend";

/** How soon new answers are saved, and the longest wait between tries of a save that failed. */
const SAVE_DELAY_MS = 200;
const MAX_RETRY_DELAY_MS = 30_000;
/**
 * A save rewrites the whole file, so its cost grows with the recordings: the next one waits at least this many times
 * as long as the last took (at most `MAX_SAVE_DELAY_MS`), which keeps saving under a tenth of the service's time while a
 * cold fork suite records thousands of reads a second (docs/performance.md "A cold fork").
 */
const SAVE_COST_FACTOR = 10;
const MAX_SAVE_DELAY_MS = 5_000;

/** What a recordings file holds. */
interface RecordingsFile {
  readonly network_id: string;
  /** The pinned block, decimal. */
  readonly block_number: string;
  /** `"<method> <params as JSON>"` → the upstream's result. */
  readonly answers: Record<string, unknown>;
}

/**
 * A fork cache shared with other services (an OCI registry's, docs/oci-store.md), besides the directory the service
 * reads: a fork asks it for what the others recorded before it asks its upstream, and tells it when it saved answers
 * of its own, to be published.
 */
export interface SharedForkCache {
  /**
   * Answers of a network at a block that other services published since this one last looked, or null when there are
   * none or it looked too recently to look again (the cache bounds its own load). Never throws.
   */
  fetchNew(networkId: string, block: bigint): Promise<Record<string, unknown> | null>;
  /** New answers of a network at a block were saved to the cache directory. */
  saved(networkId: string, block: bigint): void;
  /**
   * A fork of a network at a block is about to be recorded cold: the answers others published of it, waiting a
   * bounded time for one that is recording it right now; null when this service is to record it. Never throws.
   */
  coldStart(networkId: string, block: bigint): Promise<Record<string, unknown> | null>;
}

/** The key of a call: its method and params; the id is the caller's and means nothing here. */
export function callKey(method: string, params: unknown): string {
  return `${method} ${JSON.stringify(params ?? [])}`;
}

/** The file of a network's recordings at a block. */
export function recordingsPath(dir: string, networkId: string, block: bigint): string {
  return join(dir, networkId, `${block}.json`);
}

/** The blocks of a network that have recordings in `dir`, newest first. */
export function recordedBlocks(dir: string, networkId: string): bigint[] {
  let names: string[];
  try {
    names = readdirSync(join(dir, networkId));
  } catch {
    return [];
  }
  return names
    .flatMap((name) => (/^\d+\.json$/.test(name) ? [BigInt(name.slice(0, -5))] : []))
    .sort((a, b) => (a < b ? 1 : a > b ? -1 : 0));
}

/** The recorded answers of one network at one block, loaded from disk and saved as they grow. */
export class Recordings {
  private readonly answers = new Map<string, unknown>();
  private dirty = false;
  private flushTimer: NodeJS.Timeout | null = null;
  /** Saves that failed in a row (0 when the last one worked): each is logged, and retried later and later. */
  private failures = 0;
  /** How long the last save took, in milliseconds. */
  private lastSaveMs = 0;
  /**
   * The file as this wrote it last (inode, size, modification time): while it is still that file, it holds nothing this
   * does not, and a save need not read it back to merge.
   */
  private written: string | null = null;

  /**
   * @param log where a save that failed is reported (it is retried, never dropped silently)
   * @param onSaved told after each save that wrote new answers (a shared cache publishes them)
   */
  constructor(
    private readonly path: string,
    private readonly networkId: string,
    private readonly block: bigint,
    private readonly log?: ChainLog,
    private readonly onSaved?: () => void,
  ) {
    for (const [key, value] of Object.entries(readFile(path)?.answers ?? {})) this.answers.set(key, value);
  }

  /** Number of recorded answers. */
  get size(): number {
    return this.answers.size;
  }

  /** Whether the call was recorded. */
  has(key: string): boolean {
    return this.answers.has(key);
  }

  /** The recorded answer of a call. */
  get(key: string): unknown {
    return this.answers.get(key);
  }

  /** Every recorded answer by key, or null when there is none (fixtures carry them). */
  entries(): Record<string, unknown> | null {
    return this.answers.size === 0 ? null : Object.fromEntries(this.answers);
  }

  /** Records an answer; it reaches the disk shortly (or at `flush`). */
  put(key: string, result: unknown): void {
    this.answers.set(key, result);
    this.dirty = true;
    this.scheduleSave(this.saveDelay());
  }

  /** How long new answers wait to be saved: longer as saves grow dearer. */
  private saveDelay(): number {
    return Math.min(MAX_SAVE_DELAY_MS, Math.max(SAVE_DELAY_MS, SAVE_COST_FACTOR * this.lastSaveMs));
  }

  /** Adds the answers it does not hold yet (another service's, from a shared cache); answers how many. */
  merge(answers: Readonly<Record<string, unknown>>): number {
    let added = 0;
    for (const [key, value] of Object.entries(answers)) {
      if (this.answers.has(key)) continue;
      this.answers.set(key, value);
      added += 1;
    }
    if (added > 0) {
      this.dirty = true;
      this.scheduleSave(this.saveDelay());
    }
    return added;
  }

  /** Marks that a recording holds a kind of answer (./block-inputs.ts) without it being any call's answer. */
  mark(name: string): void {
    this.put(`chainform:${name}`, true);
  }

  /** Whether `mark(name)` was done, in this run or one before. */
  marked(name: string): boolean {
    return this.answers.has(`chainform:${name}`);
  }

  /**
   * A save in the background. One that fails (a full disk, a read-only directory) is logged and tried again, later
   * each time; the answers stay in memory meanwhile, so the fork keeps answering them.
   */
  private scheduleSave(delayMs: number): void {
    if (this.flushTimer) return;
    this.flushTimer = setTimeout(() => {
      this.flushTimer = null;
      try {
        this.flush();
        if (this.failures > 0) this.log?.info({ network: this.networkId, block: this.block.toString() }, "fork recordings saved again");
        this.failures = 0;
      } catch (error) {
        this.failures += 1;
        const retryMs = Math.min(MAX_RETRY_DELAY_MS, SAVE_DELAY_MS * 2 ** this.failures);
        this.log?.error(
          {
            network: this.networkId,
            block: this.block.toString(),
            file: this.path,
            reason: reasonOf(error),
            retryMs,
            attempt: this.failures,
          },
          "fork recordings could not be saved; they are kept in memory and the save is retried",
        );
        this.scheduleSave(retryMs);
      }
    }, delayMs);
    this.flushTimer.unref();
  }

  /** Writes new answers to disk now, merged with the file's, atomically; throws when it cannot (still dirty). */
  flush(): void {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    if (!this.dirty) return;
    const started = performance.now();
    // Another service sharing the directory may have saved answers of its own since: take them in (they are answers
    // of the same network at the same block), unless the file is still the one this wrote, which then holds a part of
    // `answers` and nothing else.
    const onDisk = fileIdentity(this.path);
    if (onDisk !== null && onDisk !== this.written) {
      for (const [key, value] of Object.entries(readFile(this.path)?.answers ?? {})) {
        if (!this.answers.has(key)) this.answers.set(key, value);
      }
    }
    const sorted = Object.fromEntries([...this.answers.keys()].sort().map((key) => [key, this.answers.get(key)]));
    const file: RecordingsFile = { network_id: this.networkId, block_number: this.block.toString(), answers: sorted };
    mkdirSync(join(this.path, ".."), { recursive: true });
    const temporary = `${this.path}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
    try {
      writeFileSync(temporary, `${JSON.stringify(file, null, 1)}\n`);
      renameSync(temporary, this.path);
      this.dirty = false;
      this.written = fileIdentity(this.path);
    } catch (error) {
      rmSync(temporary, { force: true });
      throw error;
    }
    this.lastSaveMs = performance.now() - started;
    this.onSaved?.();
  }
}

/** What went wrong with a save, without the stack: an errno code, else the message. */
function reasonOf(error: unknown): string {
  const code = (error as { code?: unknown })?.code;
  return typeof code === "string" ? code : String((error as Error)?.message ?? error);
}

/** What tells one version of a file from another (a rename over it makes a new inode), or null when there is none. */
function fileIdentity(path: string): string | null {
  try {
    const stat = statSync(path, { bigint: true });
    return `${stat.ino}:${stat.size}:${stat.mtimeNs}`;
  } catch {
    return null;
  }
}

function readFile(path: string): RecordingsFile | null {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    return null;
  }
  const parsed = JSON.parse(text) as RecordingsFile;
  if (!parsed || typeof parsed.answers !== "object") throw new Error(`${path} is not a chainform recordings file`);
  return parsed;
}
