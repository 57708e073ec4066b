/**
 * An app as the CLI sees it. A CDK app (cdktf or CDK Terrain): `cdktf.json` names the command that synthesizes it;
 * running that command with `CDKTF_OUTDIR` set writes `manifest.json` and one Terraform JSON config per stack. The
 * cdktf CLI is not needed (nor used): the app's own node/tsx synthesizes it, from the app's own dependencies. Or a
 * plain Terraform configuration: a directory of `*.tf` files without `cdktf.json`, which is its one stack.
 */
import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { basename, delimiter, dirname, join, resolve } from "node:path";
import { packageRoot } from "../terraform/mirror";
import { CliError } from "./errors";

/**
 * The example app `chainform up` runs when no APP_DIR is given in the root of chainform's own repository (what
 * `npm start` does there). Anywhere else the default is the working directory.
 */
export const DEFAULT_APP_DIR = join("examples", "cdktf", "multichain-ci");

/** An app of either kind. */
export type App = CdktfApp | HclApp;

/** A plain Terraform configuration: its directory is its one stack. */
export interface HclApp {
  readonly kind: "hcl";
  /** The configuration's directory (absolute). */
  readonly dir: string;
}

/** A cdktf app: where it is, how to synthesize it, where the output goes. */
export interface CdktfApp {
  readonly kind: "cdktf";
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

const APP_DIR_HINT =
  "pass the directory of a cdktf app (one with a cdktf.json) or of a Terraform configuration (*.tf files), or create one with `npx --ignore-scripts chainform init`";

/** Whether `dir` holds an app: a cdktf.json or a `*.tf` file. */
export function isAppDir(dir: string): boolean {
  return existsSync(join(dir, "cdktf.json")) || hasTerraformFiles(dir);
}

function hasTerraformFiles(dir: string): boolean {
  return existsSync(dir) && statSync(dir).isDirectory() && readdirSync(dir).some((name) => /\.tf(\.json)?$/.test(name));
}

/**
 * The app directory for an APP_DIR argument: as given; without one, the working directory when it is an app (in
 * the root of chainform's own repository: its example, {@link DEFAULT_APP_DIR}).
 */
export function resolveAppDir(given: string | undefined, cwd: string = process.cwd(), chainformRoot: string = packageRoot()): string {
  if (given !== undefined) return resolve(cwd, given);
  const example = resolve(cwd, DEFAULT_APP_DIR);
  if (resolve(cwd) === resolve(chainformRoot) && existsSync(example)) return example;
  if (isAppDir(cwd)) return cwd;
  throw new CliError(`${cwd} holds no app (no cdktf.json, no *.tf file): ${APP_DIR_HINT}`);
}

/**
 * Reads an app directory: `cdktf.json` of a cdktf app, or the `*.tf` files of a Terraform configuration. Throws a
 * CliError saying what to pass when the directory is neither.
 */
export function loadApp(dir: string, env: NodeJS.ProcessEnv = process.env): App {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new CliError(`the app directory ${dir} does not exist: ${APP_DIR_HINT}`);
  const configPath = join(dir, "cdktf.json");
  if (!existsSync(configPath)) {
    if (hasTerraformFiles(dir)) return { kind: "hcl", dir };
    throw new CliError(`${dir} is not an app (it has no cdktf.json and no *.tf file): ${APP_DIR_HINT}`);
  }
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
    kind: "cdktf",
    dir,
    command: config.app,
    outDir: resolve(dir, env.CDKTF_OUTDIR || output),
    context: config.context && typeof config.context === "object" ? (config.context as Record<string, unknown>) : {},
  };
}

/**
 * Runs the app's command to synthesize it, then returns its stacks in dependency order (a Terraform configuration
 * is its own one stack). `env` reaches the app (PR_NUMBER and the like). A failing app is a CliError carrying the
 * app's output.
 */
export async function synthesize(app: App, env: NodeJS.ProcessEnv = process.env): Promise<Stack[]> {
  if (app.kind === "hcl") return appStacks(app);
  const result = await new Promise<{ code: number; output: string }>((done, fail) => {
    const child = spawn(appCommand(app), {
      cwd: app.dir,
      shell: true,
      stdio: ["ignore", "pipe", "pipe"],
      env: {
        ...env,
        PATH: [...binDirs(app.dir), env.PATH ?? ""].join(delimiter),
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
    throw new CliError(
      `synthesizing the app failed (\`${app.command}\` in ${app.dir} exited ${result.code}): ${synthFailure(result.output)}`,
      {
        details: result.output,
      },
    );
  }
  return readStacks(app.outDir);
}

/** The stacks of an app already synthesized (a Terraform configuration: its own directory). */
export function appStacks(app: App): Stack[] {
  return app.kind === "hcl" ? [{ name: basename(app.dir), dir: app.dir, dependencies: [] }] : readStacks(app.outDir);
}

/**
 * The command that synthesizes the app: cdktf.json's `app`, except that a leading `npx tsx` runs a tsx that is
 * installed (the app's own, else the one chainform depends on) directly, so npx never prompts for or downloads one.
 */
export function appCommand(app: CdktfApp): string {
  const match = /^\s*npx\s+(?:(?:--yes|-y)\s+)?tsx(?:@\S+)?(?=\s|$)/.exec(app.command);
  if (!match) return app.command;
  const cli = tsxCli(app.dir);
  return cli ? `${shellQuote(process.execPath)} ${shellQuote(cli)}${app.command.slice(match[0].length)}` : app.command;
}

/** The tsx command-line script resolvable from `dir` (the app's), else from chainform; undefined when neither has one. */
function tsxCli(dir: string): string | undefined {
  for (const from of [dir, packageRoot()]) {
    try {
      const manifest = require.resolve("tsx/package.json", { paths: [from] });
      const bin = (JSON.parse(readFileSync(manifest, "utf8")) as { bin?: string | Record<string, string> }).bin;
      const relative = typeof bin === "string" ? bin : bin?.tsx;
      if (relative) return join(dirname(manifest), relative);
    } catch {
      // not resolvable from there
    }
  }
  return undefined;
}

/** The `node_modules/.bin` directories from `dir` upwards, then chainform's own: the app's tools first. */
function binDirs(dir: string): string[] {
  const dirs: string[] = [];
  for (let at = resolve(dir); ; at = dirname(at)) {
    const bin = join(at, "node_modules", ".bin");
    if (existsSync(bin)) dirs.push(bin);
    if (dirname(at) === at) break;
  }
  for (let at = packageRoot(); ; at = dirname(at)) {
    const bin = basename(at) === "node_modules" ? join(at, ".bin") : join(at, "node_modules", ".bin");
    if (existsSync(bin) && !dirs.includes(bin)) dirs.push(bin);
    if (dirname(at) === at) break;
  }
  return dirs;
}

function shellQuote(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, "'\\''")}'`;
}

/**
 * What a failed synth said, for the one error line: the construct's own message (`Error: ...`, a
 * ChainformValidationError or any thrown error) without Node's stack trace and without the `problems: [...]`
 * inspection Node prints after it; the output's last lines when no error line is found.
 */
export function synthFailure(output: string): string {
  const lines = output.replace(/\x1b\[[0-9;]*m/g, "").split("\n");
  const start = lines.findIndex((line) => /^(\w*Error)(\s\[\w+\])?: /.test(line.trim()));
  if (start === -1)
    return `fix the app; it said:\n${lines
      .map((l) => l.trimEnd())
      .filter(Boolean)
      .slice(-20)
      .join("\n")}`;
  const message: string[] = [];
  for (const line of lines.slice(start)) {
    if (/^\s+at /.test(line) || /^\s*\{$/.test(line) || /^\s*problems: \[/.test(line) || /^Node\.js v\d/.test(line)) break;
    message.push(line.trimEnd());
  }
  return message.join("\n").trim();
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
  if (!existsSync(file)) {
    // A Terraform configuration: any *.tf file naming the provider or one of its resources.
    return (
      hasTerraformFiles(stack.dir) &&
      readdirSync(stack.dir)
        .filter((name) => name.endsWith(".tf"))
        .some((name) => /chainform\/chainform|"chainform_|\bchainform_\w+"/.test(readFileSync(join(stack.dir, name), "utf8")))
    );
  }
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
    if (path.has(stack.name))
      throw new CliError(`the app's stacks depend on each other in a cycle (${[...path, stack.name].join(" -> ")})`);
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
