/**
 * A CDK for Terraform app as the CLI sees it: `cdktf.json` names the command that synthesizes it; running that
 * command with `CDKTF_OUTDIR` set writes `manifest.json` and one Terraform JSON config per stack. The cdktf CLI is
 * not needed (nor used): plain node/tsx synthesizes the app.
 */
import { spawn } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import { delimiter, join, resolve } from "node:path";
import { packageRoot } from "../terraform/mirror";
import { CliError } from "./errors";

/** The example app `chainform up` runs when no APP_DIR is given. */
export const DEFAULT_APP_DIR = join("examples", "cdktf", "multichain-ci");

/** A cdktf app: where it is, how to synthesize it, where the output goes. */
export interface CdktfApp {
  /** The app directory (absolute); the command runs there, and local state files land there. */
  readonly dir: string;
  /** `app` of cdktf.json, e.g. `npx tsx main.ts`. */
  readonly command: string;
  /** Where the synthesized stacks go: `CDKTF_OUTDIR`, else `output` of cdktf.json, else `cdktf.out`. */
  readonly outDir: string;
  /** `context` of cdktf.json, passed to the app as `CDKTF_CONTEXT_JSON`. */
  readonly context: Readonly<Record<string, unknown>>;
}

/** A synthesized stack. */
export interface Stack {
  readonly name: string;
  /** Its Terraform working directory (absolute). */
  readonly dir: string;
  /** Names of the stacks it depends on. */
  readonly dependencies: readonly string[];
}

const APP_DIR_HINT = "pass the directory of a cdktf app (one with a cdktf.json), e.g. examples/cdktf/multichain-ci";

/**
 * The app directory for an APP_DIR argument: as given, or the example (in the working directory when it has one,
 * else the one shipped with chainform).
 */
export function resolveAppDir(given: string | undefined): string {
  if (given !== undefined) return resolve(given);
  const local = resolve(DEFAULT_APP_DIR);
  return existsSync(local) ? local : join(packageRoot(), DEFAULT_APP_DIR);
}

/**
 * Reads `cdktf.json` of an app directory. Throws a CliError saying what to pass when the directory is not a
 * cdktf app.
 */
export function loadApp(dir: string, env: NodeJS.ProcessEnv = process.env): CdktfApp {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new CliError(`the app directory ${dir} does not exist: ${APP_DIR_HINT}`);
  const configPath = join(dir, "cdktf.json");
  if (!existsSync(configPath)) throw new CliError(`${dir} is not a cdktf app (it has no cdktf.json): ${APP_DIR_HINT}`);
  let config: { app?: unknown; output?: unknown; context?: unknown };
  try {
    config = JSON.parse(readFileSync(configPath, "utf8")) as typeof config;
  } catch (error) {
    throw new CliError(`${configPath} is not valid JSON: fix it (${(error as Error).message})`);
  }
  if (typeof config.app !== "string" || config.app.trim() === "") {
    throw new CliError(`${configPath} has no "app" command: add one, e.g. "app": "npx tsx main.ts"`);
  }
  const output = typeof config.output === "string" && config.output ? config.output : "cdktf.out";
  return {
    dir,
    command: config.app,
    outDir: resolve(dir, env.CDKTF_OUTDIR || output),
    context: config.context && typeof config.context === "object" ? (config.context as Record<string, unknown>) : {},
  };
}

/**
 * Runs the app's command to synthesize it, then returns its stacks in dependency order. `env` reaches the app
 * (PR_NUMBER and the like). A failing app is a CliError carrying the app's output.
 */
export async function synthesize(app: CdktfApp, env: NodeJS.ProcessEnv = process.env): Promise<Stack[]> {
  const binDir = join(packageRoot(), "node_modules", ".bin");
  const result = await new Promise<{ code: number; output: string }>((done, fail) => {
    const child = spawn(app.command, {
      cwd: app.dir,
      shell: true,
      stdio: ["ignore", "pipe", "pipe"],
      env: {
        ...env,
        PATH: [binDir, env.PATH ?? ""].join(delimiter),
        CDKTF_OUTDIR: app.outDir,
        CDKTF_CONTEXT_JSON: JSON.stringify(app.context),
      },
    });
    const chunks: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => chunks.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => chunks.push(chunk));
    child.on("error", fail);
    child.on("close", (code) => done({ code: code ?? 1, output: Buffer.concat(chunks).toString("utf8") }));
  });
  if (result.code !== 0) {
    const tail = result.output.trim().split("\n").slice(-20).join("\n");
    throw new CliError(`synthesizing the app failed (\`${app.command}\` in ${app.dir} exited ${result.code}): fix the app; it said:\n${tail}`, {
      details: result.output,
    });
  }
  return readStacks(app.outDir);
}

/** The stacks listed in `OUTDIR/manifest.json`, dependencies first. */
export function readStacks(outDir: string): Stack[] {
  const manifestPath = join(outDir, "manifest.json");
  if (!existsSync(manifestPath)) {
    throw new CliError(`no synthesized app in ${outDir} (no manifest.json): run \`chainform deploy\` for this app first`);
  }
  const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as {
    stacks?: Record<string, { name?: string; workingDirectory?: string; dependencies?: string[] }>;
  };
  const stacks = Object.entries(manifest.stacks ?? {}).map(([key, stack]) => ({
    name: stack.name ?? key,
    dir: resolve(outDir, stack.workingDirectory ?? join("stacks", key)),
    dependencies: stack.dependencies ?? [],
  }));
  if (stacks.length === 0) throw new CliError(`the app in ${outDir} has no stacks: add a TerraformStack to it`);
  return dependencyOrder(stacks);
}

/** Picks the stacks to work on: the one named, or all of them. */
export function selectStacks(stacks: readonly Stack[], name: string | undefined): Stack[] {
  if (name === undefined) return [...stacks];
  const found = stacks.filter((stack) => stack.name === name);
  if (found.length === 0) {
    throw new CliError(`the app has no stack named ${JSON.stringify(name)}: pick one of ${stacks.map((s) => s.name).join(", ")}`);
  }
  return found;
}

/** Whether a synthesized stack uses the chainform provider. */
export function stackUsesChainform(stack: Stack): boolean {
  const file = join(stack.dir, "cdk.tf.json");
  if (!existsSync(file)) return false;
  const config = JSON.parse(readFileSync(file, "utf8")) as {
    terraform?: { required_providers?: Record<string, { source?: string }> };
  };
  return Object.values(config.terraform?.required_providers ?? {}).some((p) => /(^|\/)chainform\/chainform$/.test(p.source ?? ""));
}

function dependencyOrder(stacks: Stack[]): Stack[] {
  const byName = new Map(stacks.map((s) => [s.name, s]));
  const ordered: Stack[] = [];
  const visit = (stack: Stack, path: Set<string>) => {
    if (ordered.includes(stack)) return;
    if (path.has(stack.name)) throw new CliError(`the app's stacks depend on each other in a cycle (${[...path, stack.name].join(" -> ")})`);
    path.add(stack.name);
    for (const dependency of stack.dependencies) {
      const found = byName.get(dependency);
      if (found) visit(found, path);
    }
    path.delete(stack.name);
    ordered.push(stack);
  };
  for (const stack of stacks) visit(stack, new Set());
  return ordered;
}
