/**
 * The Solidity compiler verification uses: the solc-js that chainform is built with (the `solc` package), run in
 * a worker thread so that a compile (seconds for a large input) never blocks the service. Only that one version
 * exists offline; `compilerVersion()` names it. Without the `solc` package (an install that left out dev
 * dependencies) there is no compiler, and verification says so; a `solc` installed in the working directory's
 * project is used then. Verification is anonymous: each compile has a time limit, so no submission holds the
 * compiler for long.
 */
import { Worker } from "node:worker_threads";

/** Source of the worker: loads solc once, reports its version, then compiles standard JSON inputs one by one. */
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const solc = workerData.soljsonPath ? require(workerData.wrapperPath)(require(workerData.soljsonPath)) : require(workerData.solcPath);
parentPort.postMessage({ version: solc.version() });
parentPort.on("message", ({ input }) => {
  let output;
  try { output = solc.compile(input); }
  catch (error) { output = JSON.stringify({ errors: [{ severity: "error", formattedMessage: String(error && error.message) }] }); }
  parentPort.postMessage({ output });
});`;

/**
 * Where a compiler comes from: a solc-js package (`solc`, or an alias such as `solc-0.5.16`), or a soljson file
 * (a compiler build from binaries.soliditylang.org) loaded with a solc-js package's wrapper.
 */
export type CompilerSource = { readonly solcPath: string } | { readonly soljsonPath: string; readonly wrapperPath: string };

/** Why no compiler is available. */
export class CompilerUnavailable extends Error {}

/** A compile that ran past the time limit (the worker was stopped; the next compile starts a new one). */
export class CompileTimedOut extends Error {}

/** Too many compiles are waiting already: the caller should come back later. */
export class CompilerBusy extends Error {}

/** How long one compile may run by default: verification is anonymous, and one compile holds the only compiler. */
export const COMPILE_TIME_LIMIT_MS = 30_000;
/** Most compiles running or waiting at once by default; more are refused with `CompilerBusy`. */
export const MAX_PENDING_COMPILES = 8;

interface Job {
  readonly input: string;
  readonly timeLimitMs: number;
  readonly resolve: (output: string) => void;
  readonly reject: (error: Error) => void;
}

/**
 * A lazily started solc-js worker. Compiles run one at a time, in order; each may run its time limit from the
 * moment it reaches the worker (time spent waiting in the queue does not count), after which the worker is stopped and the
 * compile fails with `CompileTimedOut`.
 */
export class SolcWorker {
  private worker: Worker | null = null;
  private version: Promise<string> | null = null;
  private readonly queue: Job[] = [];
  private running: { job: Job; timer: NodeJS.Timeout } | null = null;
  /** Whether the current worker has loaded solc (the time limit starts only then). */
  private ready = false;

  constructor(
    private readonly timeLimitMs: number = COMPILE_TIME_LIMIT_MS,
    private readonly maxPending: number = MAX_PENDING_COMPILES,
    private readonly source: CompilerSource | undefined = undefined,
  ) {}

  /** The compiler's full version, `v`-prefixed as Etherscan writes it (e.g. `v0.8.37+commit.f401782d`). */
  compilerVersion(): Promise<string> {
    this.start();
    return this.version!;
  }

  /**
   * Compiles a standard JSON input (a string); answers solc's standard JSON output (a string). Fails with
   * `CompileTimedOut` after `timeLimitMs` (the worker's limit unless given), at once with `CompilerBusy` when
   * `maxPending` compiles are running or waiting.
   */
  async compile(input: string, timeLimitMs = this.timeLimitMs): Promise<string> {
    await this.compilerVersion();
    if (this.queue.length + (this.running ? 1 : 0) >= this.maxPending) {
      throw new CompilerBusy(`the compiler is busy with ${this.maxPending} submissions: try again in a minute`);
    }
    return new Promise((resolve, reject) => {
      this.queue.push({ input, timeLimitMs, resolve, reject });
      this.next();
    });
  }

  /** Stops the worker; the running and queued compiles fail. */
  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    this.version = null;
    this.ready = false;
    const stopped = new CompilerUnavailable("the service is stopping");
    const running = this.running;
    if (running) this.finish(running.job, () => running.job.reject(stopped));
    this.queue.splice(0).forEach((job) => job.reject(stopped));
    if (worker) await worker.terminate();
  }

  /** Sends the next queued compile to the worker, if it is free. */
  private next(): void {
    if (this.running || this.queue.length === 0) return;
    this.start();
    const worker = this.worker;
    if (!worker || !this.ready) {
      // Loading solc takes seconds and is not the submission's time; without a compiler every queued compile fails.
      this.version!.then(
        () => this.next(),
        (error: Error) => this.queue.splice(0).forEach((job) => job.reject(error)),
      );
      return;
    }
    const job = this.queue.shift()!;
    const timer = setTimeout(() => {
      this.finish(job, () => job.reject(new CompileTimedOut(`the compile took longer than ${job.timeLimitMs / 1000} s and was stopped`)));
      if (this.worker === worker) {
        this.worker = null;
        this.version = null;
        this.ready = false;
      }
      void worker.terminate();
      this.next();
    }, job.timeLimitMs);
    timer.unref();
    this.running = { job, timer };
    worker.postMessage({ input: job.input });
  }

  /** Ends the running compile (once) and starts the next. */
  private finish(job: Job, settle: () => void): void {
    if (this.running?.job !== job) return;
    clearTimeout(this.running.timer);
    this.running = null;
    settle();
  }

  private start(): void {
    if (this.version) return;
    const solcPath = this.source ? undefined : resolveSolc();
    const workerData = this.source ?? (solcPath ? { solcPath } : undefined);
    if (!workerData) {
      this.version = Promise.reject(
        new CompilerUnavailable("this chainform install has no Solidity compiler: install the solc package (npm install solc) beside it"),
      );
      this.version.catch(() => undefined);
      return;
    }
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData });
    worker.unref();
    this.worker = worker;
    this.version = new Promise((resolve, reject) => {
      worker.once("error", (error) => reject(new CompilerUnavailable(`the Solidity compiler did not start: ${error.message}`)));
      worker.on("message", (message: { version?: string; output?: string }) => {
        if (message.version) {
          if (this.worker === worker) this.ready = true;
          resolve(`v${message.version.replace(/\.Emscripten\.clang$/, "")}`);
        } else if (this.running && this.worker === worker) {
          const { job } = this.running;
          this.finish(job, () => job.resolve(message.output ?? "{}"));
          this.next();
        }
      });
    });
    this.version.catch(() => undefined);
    worker.on("exit", () => {
      if (this.worker !== worker) return; // stopped on purpose (time limit, close)
      this.worker = null;
      this.version = null;
      this.ready = false;
      const running = this.running;
      if (running) {
        const failed = JSON.stringify({ errors: [{ severity: "error", formattedMessage: "the Solidity compiler stopped" }] });
        this.finish(running.job, () => running.job.resolve(failed));
      }
      this.next();
    });
  }
}

/** Where the `solc` package is: beside chainform, else in the working directory's project; undefined if nowhere. */
function resolveSolc(): string | undefined {
  return resolvePackage("solc");
}

/**
 * Where a module is (`solc`, `solc-0.5.16/package.json`): beside chainform, else in the working directory's project;
 * undefined if nowhere.
 */
export function resolvePackage(request: string): string | undefined {
  for (const paths of [undefined, [process.cwd()]]) {
    try {
      return require.resolve(request, paths && { paths });
    } catch {
      // not there
    }
  }
  return undefined;
}
