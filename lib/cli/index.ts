/**
 * The `chainform` command line: a table of commands, each in `commands/<name>.ts`.
 *
 * @example
 * process.exitCode = await main(["serve", "--port", "0"]);
 */
import type { Command } from "./command";
import { UsageError } from "./command";
import serve from "./commands/serve";
import token from "./commands/token";

/** Every command, in help order. */
export const COMMANDS: readonly Command[] = [serve, token];

/** Runs `chainform` with its arguments (without node and the script); resolves to the exit code. */
export async function main(argv: string[]): Promise<number> {
  const [name, ...args] = argv;
  if (name === undefined || name === "help" || name === "--help" || name === "-h") {
    process.stdout.write(usage());
    return name === undefined ? 2 : 0;
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) {
    process.stderr.write(`chainform: unknown command ${JSON.stringify(name)}\n${usage()}`);
    return 2;
  }
  try {
    return await command.run(args);
  } catch (error) {
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith("ERR_PARSE_ARGS")) {
      process.stderr.write(`chainform ${name}: ${(error as Error).message}\n`);
      return 2;
    }
    throw error;
  }
}

function usage(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return `usage: chainform <command> [options]\n\n${COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`).join("\n")}\n`;
}
