/**
 * Ctrl-C for commands that drive terraform. Terraform runs in its own process group (see terraform.ts), so the
 * terminal's SIGINT reaches chainform alone: the first one lets the running step finish and then stops (or, for
 * `up`, destroys what was created); the second asks terraform to stop at once; the third exits.
 */
import { interruptTerraform } from "./terraform";
import { CliError } from "./errors";
import type { Progress } from "./progress";

/** Exit code after an interruption (128 + SIGINT). */
export const EXIT_INTERRUPTED = 130;

/**
 * Counts SIGINT/SIGTERM while installed.
 * @example
 * const interrupts = new Interrupts(progress).install();
 * try { ...; interrupts.throwIfRequested(); ... } finally { interrupts.dispose(); }
 */
export class Interrupts {
  private count = 0;
  private readonly waiters: (() => void)[] = [];
  private readonly stop = new AbortController();

  /**
   * Aborted at the first SIGINT or SIGTERM: for a step that would otherwise wait on something outside chainform
   * (a Public RPC call that hangs), so Ctrl-C stops it instead of waiting out its deadline.
   */
  get stopSignal(): AbortSignal {
    return this.stop.signal;
  }
  private readonly onSignal = () => this.signal();

  constructor(private readonly progress: Progress) {}

  /** Starts listening for SIGINT and SIGTERM. */
  install(): this {
    process.on("SIGINT", this.onSignal);
    process.on("SIGTERM", this.onSignal);
    return this;
  }

  /** Stops listening. */
  dispose(): void {
    process.off("SIGINT", this.onSignal);
    process.off("SIGTERM", this.onSignal);
  }

  /** Whether a stop was asked for. */
  get requested(): boolean {
    return this.count > 0;
  }

  /** Throws a CliError (exit 130) when a stop was asked for: call it between steps. */
  throwIfRequested(): void {
    if (this.requested) throw new CliError("interrupted", { exitCode: EXIT_INTERRUPTED });
  }

  /** Resolves at the first SIGINT or SIGTERM (at once if one already came). */
  wait(): Promise<void> {
    if (this.requested) return Promise.resolve();
    // Signal listeners do not keep Node running: without a timer, a process with nothing else to do (no embedded
    // service) would exit with 0 right here instead of waiting.
    const keepAlive = setInterval(() => {}, 60_000);
    return new Promise<void>((resolve) => this.waiters.push(resolve)).finally(() => clearInterval(keepAlive));
  }

  private signal(): void {
    this.count++;
    if (this.count === 1) {
      this.stop.abort();
      // Someone waiting (up --keep) expected this signal; otherwise say what happens next.
      if (this.waiters.length === 0) this.progress.note("Stopping after the current step (press Ctrl-C again to stop terraform now).");
      for (const resolve of this.waiters.splice(0)) resolve();
    } else if (this.count === 2) {
      this.progress.note("Asking terraform to stop (press Ctrl-C again to exit at once).");
      interruptTerraform();
    } else {
      process.exit(EXIT_INTERRUPTED);
    }
  }
}
