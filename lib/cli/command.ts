/** The shape of a `chainform` command. */
import type { ParseArgsConfig } from "node:util";

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
  /**
   * Every option the command's argument parser accepts (node:util parseArgs), the very object it parses with, so that
   * a test can check that `--help` describes each one (lib/cli/help.test.ts).
   */
  readonly options: NonNullable<ParseArgsConfig["options"]>;
  /** Runs the command; resolves to the process exit code. */
  run(args: string[], context: CommandContext): Promise<number>;
}

/** An error a command reports as one line on stderr with exit code 2 (bad usage). */
export class UsageError extends Error {
  override readonly name = "UsageError";
}
