/**
 * The Solidity compiler verification uses: the solc-js that chainform is built with (the `solc` package), run in
 * a worker thread so that a compile (seconds for a large input) never blocks the service. Only that one version
 * exists offline; `compilerVersion()` names it. Without the `solc` package (an install that left out dev
 * dependencies) there is no compiler, and verification says so; a `solc` installed in the working directory's
 * project is used then.
 */
import { Worker } from "node:worker_threads";

/** Source of the worker: loads solc once, reports its version, then compiles standard JSON inputs one by one. */
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const solc = require(workerData.solcPath);
parentPort.postMessage({ version: solc.version() });
parentPort.on("message", ({ id, input }) => {
  let output;
  try { output = solc.compile(input); }
  catch (error) { output = JSON.stringify({ errors: [{ severity: "error", formattedMessage: String(error && error.message) }] }); }
  parentPort.postMessage({ id, output });
});`;

/** Why no compiler is available. */
export class CompilerUnavailable extends Error {}

/** A lazily started solc-js worker. */
export class SolcWorker {
  private worker: Worker | null = null;
  private version: Promise<string> | null = null;
  private readonly pending = new Map<number, (output: string) => void>();
  private nextId = 0;

  /** The compiler's full version, `v`-prefixed as Etherscan writes it (e.g. `v0.8.37+commit.f401782d`). */
  compilerVersion(): Promise<string> {
    this.start();
    return this.version!;
  }

  /** Compiles a standard JSON input (a string); answers solc's standard JSON output (a string). */
  async compile(input: string): Promise<string> {
    await this.compilerVersion();
    return new Promise((resolve) => {
      const id = this.nextId++;
      this.pending.set(id, resolve);
      this.worker!.postMessage({ id, input });
    });
  }

  /** Stops the worker. */
  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    this.version = null;
    if (worker) await worker.terminate();
  }

  private start(): void {
    if (this.version) return;
    const solcPath = resolveSolc();
    if (!solcPath) {
      this.version = Promise.reject(
        new CompilerUnavailable("this chainform install has no Solidity compiler: install the solc package (npm install solc) beside it"),
      );
      this.version.catch(() => undefined);
      return;
    }
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { solcPath } });
    worker.unref();
    this.worker = worker;
    this.version = new Promise((resolve, reject) => {
      worker.once("error", (error) => reject(new CompilerUnavailable(`the Solidity compiler did not start: ${error.message}`)));
      worker.on("message", (message: { version?: string; id?: number; output?: string }) => {
        if (message.version) resolve(`v${message.version.replace(/\.Emscripten\.clang$/, "")}`);
        else if (message.id !== undefined) {
          this.pending.get(message.id)?.(message.output ?? "{}");
          this.pending.delete(message.id);
        }
      });
    });
    this.version.catch(() => undefined);
    worker.on("exit", () => {
      const failed = JSON.stringify({ errors: [{ severity: "error", formattedMessage: "the Solidity compiler stopped" }] });
      for (const resolve of this.pending.values()) resolve(failed);
      this.pending.clear();
      if (this.worker === worker) {
        this.worker = null;
        this.version = null;
      }
    });
  }
}

/** Where the `solc` package is: beside chainform, else in the working directory's project; undefined if nowhere. */
function resolveSolc(): string | undefined {
  for (const paths of [undefined, [process.cwd()]]) {
    try {
      return require.resolve("solc", paths && { paths });
    } catch {
      // not there
    }
  }
  return undefined;
}
