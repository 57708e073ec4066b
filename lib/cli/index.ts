/**
 * The `chainform` command line: a table of commands, each in `commands/<name>.ts`. Global flags: `--verbose`
 * (anywhere), `--help`, `--version`. Failures print one line (`chainform <command>: ...`) and exit non-zero.
 *
 * @example
 * process.exitCode = await main(["teardown", "--prefix", "pr-42", "--yes"]);
 */
import type { Command, CommandContext } from "./command";
import { explainError, redactorFor } from "./errors";
import { version } from "../client/version";

/**
 * Every command, in help order, loaded on first use: the service and the client take most of a second to load,
 * and `chainform teardown` should not pay for the service nor `--version` for either.
 */
const COMMAND_LOADERS: Readonly<Record<string, () => Command>> = {
  init: () => (require("./commands/init") as typeof import("./commands/init")).default,
  up: () => (require("./commands/up") as typeof import("./commands/up")).default,
  deploy: () => (require("./commands/deploy") as typeof import("./commands/deploy")).default,
  plan: () => (require("./commands/plan") as typeof import("./commands/plan")).default,
  destroy: () => (require("./commands/destroy") as typeof import("./commands/destroy")).default,
  outputs: () => (require("./commands/outputs") as typeof import("./commands/outputs")).default,
  teardown: () => (require("./commands/teardown") as typeof import("./commands/teardown")).default,
  environments: () => (require("./commands/environments") as typeof import("./commands/environments")).default,
  networks: () => (require("./commands/networks") as typeof import("./commands/networks")).default,
  projects: () => (require("./commands/projects") as typeof import("./commands/projects")).default,
  channels: () => (require("./commands/channels") as typeof import("./commands/channels")).default,
  action: () => (require("./commands/action") as typeof import("./commands/action")).default,
  serve: () => (require("./commands/serve") as typeof import("./commands/serve")).default,
  token: () => (require("./commands/token") as typeof import("./commands/token")).default,
  terraformrc: () => (require("./commands/terraformrc") as typeof import("./commands/terraformrc")).default,
  export: () => (require("./commands/export") as typeof import("./commands/export")).default,
  import: () => (require("./commands/import") as typeof import("./commands/import")).default,
  abi: () => (require("./commands/abi") as typeof import("./commands/abi")).default,
  exec: () => (require("./commands/exec") as typeof import("./commands/exec")).default,
};

/** The names of every command, in help order. */
export const COMMAND_NAMES: readonly string[] = Object.keys(COMMAND_LOADERS);

/** The command named `name`, loaded, or undefined when there is none. */
export function loadCommand(name: string): Command | undefined {
  return Object.hasOwn(COMMAND_LOADERS, name) ? COMMAND_LOADERS[name]() : undefined;
}

/** The help text of a command: its usage, or its summary when it has none. */
export function usageOf(command: Command): string {
  return command.usage ?? `usage: chainform ${command.name} [options]\n\n${command.summary}\n`;
}

/** Runs `chainform` with its arguments (without node and the script); resolves to the exit code. */
export async function main(argv: string[]): Promise<number> {
  const separator = argv.indexOf("--");
  const flags = separator === -1 ? argv : argv.slice(0, separator);
  const context: CommandContext = { verbose: flags.includes("--verbose") };
  const args = [...flags.filter((arg) => arg !== "--verbose"), ...(separator === -1 ? [] : argv.slice(separator))];
  const [name, ...rest] = args;

  if (name === "--version" || name === "-V" || name === "version") {
    process.stdout.write(`chainform ${version}\n`);
    return 0;
  }
  if (name === undefined || name === "help" || name === "--help" || name === "-h") {
    const topic = name === "help" && COMMAND_LOADERS[rest[0]] ? COMMAND_LOADERS[rest[0]]() : undefined;
    process.stdout.write(topic ? usageOf(topic) : usage());
    return name === undefined ? 2 : 0;
  }
  const load = Object.hasOwn(COMMAND_LOADERS, name) ? COMMAND_LOADERS[name] : undefined;
  if (!load) {
    process.stderr.write(`chainform: unknown command ${JSON.stringify(name)}\n${usage()}`);
    return 2;
  }
  const command = load();
  // What follows a `--` is another program's (`chainform exec -- COMMAND --help`), never a request for this help.
  const own = rest.includes("--") ? rest.slice(0, rest.indexOf("--")) : rest;
  if (own.includes("--help") || own.includes("-h")) {
    process.stdout.write(usageOf(command));
    return 0;
  }
  try {
    return await command.run(rest, context);
  } catch (error) {
    const redact = redactorFor();
    const explained = explainError(error, process.env, name);
    process.stderr.write(`chainform ${name}: ${redact(explained.line)}\n`);
    if (context.verbose && explained.details) process.stderr.write(`${redact(explained.details)}\n`);
    else if (!context.verbose && explained.details) process.stderr.write("(run with --verbose for details)\n");
    return explained.exitCode;
  }
}

function usage(): string {
  const commands = COMMAND_NAMES.map((name) => COMMAND_LOADERS[name]());
  const width = Math.max(...COMMAND_NAMES.map((name) => name.length));
  return `usage: chainform <command> [options]

${commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`).join("\n")}

Global options: --verbose (details and terraform's output), --help, --version.
\`chainform <command> --help\` describes a command. Settings come from CHAINFORM_BASE_URL (default
http://127.0.0.1:8787), CHAINFORM_ACCESS_KEY or CHAINFORM_BEARER_TOKEN, CHAINFORM_ACCOUNT, CHAINFORM_PROJECT.
`;
}
