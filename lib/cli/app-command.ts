/**
 * What `up`, `deploy`, `plan` and `destroy` share: the APP_DIR argument and the `--stack` and `--show-secrets`
 * options, and running a pipeline with progress and Ctrl-C handling.
 */
import { parseArgs, type ParseArgsConfig } from "node:util";
import { resolveAppDir } from "./cdktf-app";
import { UsageError, type CommandContext } from "./command";
import { Interrupts } from "./interrupts";
import type { PipelineOptions } from "./pipeline";
import { Progress } from "./progress";

/** Options every app command accepts. */
export const APP_OPTIONS = {
  stack: { type: "string" },
  "show-secrets": { type: "boolean", default: false },
} as const satisfies ParseArgsConfig["options"];

/** The options of the app commands that print no RPC URLs (plan, destroy): --show-secrets is refused there. */
export const APP_OPTIONS_WITHOUT_SECRETS = { stack: APP_OPTIONS.stack } as const satisfies ParseArgsConfig["options"];

/** The usage text of APP_DIR and `--stack`, which every app command takes. */
export const APP_OPTIONS_USAGE = `  APP_DIR           a cdktf or cdktn app (with cdktf.json) or a Terraform configuration (*.tf);
                    default: the working directory (\`chainform init\` creates one)
  --stack NAME      only this stack of the app (default: every stack)`;

/** The usage text of `--show-secrets`, for the commands that print RPC URLs (deploy, up). */
export const SHOW_SECRETS_USAGE = `  --show-secrets    also print the Admin RPC URLs (secrets: anyone holding one controls the chain)`;

/** The values of {@link APP_OPTIONS}. */
export interface AppValues {
  readonly stack?: string | undefined;
  readonly "show-secrets"?: boolean | undefined;
}

/**
 * Parses the arguments of a command that takes only {@link APP_OPTIONS} and APP_DIR. `printsRpcUrls: false` (plan,
 * destroy) refuses `--show-secrets`, which would change nothing there, with a line that says so.
 */
export function parseAppArgs(args: string[], command: { name: string; printsRpcUrls: boolean }): { values: AppValues; appDir: string } {
  if (!command.printsRpcUrls && args.some((arg) => arg === "--show-secrets" || arg.startsWith("--show-secrets="))) {
    throw new UsageError(`--show-secrets is for deploy and up, which print RPC URLs; ${command.name} prints none`);
  }
  const { values, positionals } = parseArgs({ args, options: APP_OPTIONS, allowPositionals: true, strict: true });
  return { values, appDir: appDirOf(positionals) };
}

/** The app directory from a command's positionals: at most one APP_DIR. */
export function appDirOf(positionals: readonly string[]): string {
  if (positionals.length > 1) {
    throw new UsageError(`expected at most one APP_DIR, got ${positionals.map((p) => JSON.stringify(p)).join(" ")}`);
  }
  return resolveAppDir(positionals[0]);
}

/** What an app command's body gets. */
export interface AppRun {
  readonly progress: Progress;
  readonly interrupts: Interrupts;
  /** Builds the pipeline options for an environment (e.g. with the embedded service's CHAINFORM_*). */
  pipelineOptions(env: NodeJS.ProcessEnv): PipelineOptions;
}

/**
 * Runs an app command's body with a progress reporter and Ctrl-C handling installed.
 * @example
 * return runAppCommand(context, appDir, values, async ({ pipelineOptions }) => { ... });
 */
export async function runAppCommand(
  context: CommandContext,
  appDir: string,
  values: AppValues,
  body: (run: AppRun) => Promise<number>,
): Promise<number> {
  const progress = new Progress();
  const interrupts = new Interrupts(progress).install();
  try {
    return await body({
      progress,
      interrupts,
      pipelineOptions: (env) => ({
        appDir,
        stack: values.stack,
        showSecrets: values["show-secrets"] ?? false,
        verbose: context.verbose,
        env,
        progress,
        interrupts,
      }),
    });
  } finally {
    interrupts.dispose();
  }
}
