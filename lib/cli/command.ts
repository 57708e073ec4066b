/** The shape of a `chainform` command. */

/** A command of the CLI: `chainform <name> [args]`. */
export interface Command {
  readonly name: string;
  /** One line for `chainform help`. */
  readonly summary: string;
  /** Runs the command; resolves to the process exit code. */
  run(args: string[]): Promise<number>;
}

/** An error a command reports as one line on stderr with exit code 2 (bad usage). */
export class UsageError extends Error {
  override readonly name = "UsageError";
}
