/** The shape of a `chainform` command. */

/** What every command gets besides its own arguments: the global flags. */
export interface CommandContext {
  /** `--verbose`: show details (terraform output, full error messages). */
  readonly verbose: boolean;
}

/** A command of the CLI: `chainform <name> [args]`. */
export interface Command {
  readonly name: string;
  /** One line for `chainform help`. */
  readonly summary: string;
  /** The full usage text for `chainform <name> --help`; the summary stands in when absent. */
  readonly usage?: string;
  /** Runs the command; resolves to the process exit code. */
  run(args: string[], context: CommandContext): Promise<number>;
}

/** An error a command reports as one line on stderr with exit code 2 (bad usage). */
export class UsageError extends Error {
  override readonly name = "UsageError";
}
