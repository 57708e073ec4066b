/**
 * Reads fixture files off the service's event loop (issue 47.4): each file is read by a child process of its own
 * (./read-worker.ts) with a heap limit and a time limit, one import at a time per service. A hostile file (a zip bomb,
 * 80 million nested arrays) is refused by the child's checks, or ends the child when it runs into a limit: either way
 * the service answers everyone else meanwhile, and the file is refused in one line naming it.
 */
import { fork } from "node:child_process";
import { join } from "node:path";
import { FixtureError } from "./container";
import type { FixtureContent } from "./content";
import type { ReadAnswer, ReadJob } from "./read-worker";

/** How long reading one file may take: far beyond a 256 MiB file's few seconds on a slow machine. */
export const READ_TIME_LIMIT_MS = 120_000;

/** The heap one read may use: a chain state at its size limit parses into about this much. */
export const READ_HEAP_LIMIT_MB = 2048;

/** Another import is being read or installed: the caller should try again shortly. */
export class ImportBusyError extends Error {
  constructor() {
    super("another fixture is being imported into this service: try again in a few seconds");
    this.name = "ImportBusyError";
  }
}

/** Options of a reader: its limits (tests lower them). */
export interface FixtureReaderOptions {
  /** @default READ_TIME_LIMIT_MS */
  readonly timeLimitMs?: number;
  /** @default READ_HEAP_LIMIT_MB */
  readonly heapLimitMb?: number;
}

/** A service's fixture reader: one import at a time. */
export class FixtureReader {
  private busy = false;

  constructor(private readonly options: FixtureReaderOptions = {}) {}

  /**
   * Runs `work` (a read and the install that follows) as the service's one import; throws `ImportBusyError` at once
   * while another runs.
   */
  async exclusive<T>(work: () => Promise<T>): Promise<T> {
    if (this.busy) throw new ImportBusyError();
    this.busy = true;
    try {
      return await work();
    } finally {
      this.busy = false;
    }
  }

  /** A fixture file's content, read in a child process; throws `FixtureError` naming `label` for a file it refuses. */
  read(bytes: Buffer, label: string): Promise<FixtureContent> {
    const timeLimitMs = this.options.timeLimitMs ?? READ_TIME_LIMIT_MS;
    const heapLimitMb = this.options.heapLimitMb ?? READ_HEAP_LIMIT_MB;
    // The compiled module; under the TypeScript test runner, the source through tsx.
    const source = __filename.endsWith(".ts");
    const child = fork(join(__dirname, `read-worker${source ? ".ts" : ".js"}`), [], {
      execArgv: [`--max-old-space-size=${heapLimitMb}`, ...(source ? ["--require", "tsx/cjs"] : [])],
      serialization: "advanced",
      stdio: ["ignore", "ignore", "pipe", "ipc"],
    });
    let stderr = "";
    child.stderr?.on("data", (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4096)));
    return new Promise((resolve, reject) => {
      let settled = false;
      const finish = (outcome: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        child.kill("SIGKILL");
        outcome();
      };
      const refuse = (reason: string) => finish(() => reject(new FixtureError(label, reason)));
      const timer = setTimeout(() => refuse(`took longer than ${timeLimitMs / 1000} s to read, the limit of an import`), timeLimitMs);
      child.once("message", (answer: ReadAnswer) =>
        "content" in answer ? finish(() => resolve(withBuffers(answer.content))) : refuse(answer.refused),
      );
      child.once("error", () => refuse("could not be read (its reader did not start)"));
      const stopped = () =>
        refuse(
          /heap out of memory|Allocation failed/.test(stderr)
            ? `needs more than the ${heapLimitMb} MiB of memory an import may use to read`
            : "could not be read (its reader stopped)",
        );
      // An answer sent just before the child ended may still be in the channel: it counts once the channel closes.
      child.once("exit", () => (child.connected ? child.once("disconnect", stopped) : setImmediate(stopped)));
      child.send({ bytes, label } satisfies ReadJob, (error) => {
        if (error) refuse("could not be read (its reader did not take it)");
      });
    });
  }
}

/** The content with its chain states as Buffers again (the channel between processes carries byte arrays). */
function withBuffers(content: FixtureContent): FixtureContent {
  const buffer = (bytes: Uint8Array) => (Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  return { ...content, vnets: content.vnets.map((vnet) => ({ ...vnet, state: buffer(vnet.state) })) };
}
