/**
 * Skipping work that would redo what is already on disk, for `up`, `deploy`, `plan` and `destroy`:
 *
 * - Synthesis: when the app's files, its command, its context, the packages it builds on and its environment are
 *   the same as at the last synthesis, and the output is still as that synthesis wrote it, the output is reused
 *   (synthesizing the example costs 1.5-2.5 s: npx, tsx and cdktf). The variables the embedded service sets anew on
 *   every run (base URL, access key) are left out of the comparison, but only for an app whose output contained none
 *   of their values: an app that writes them into its configuration is synthesized every time.
 * - `terraform init`: skipped when the stack's terraform settings (required providers, backend, modules), its lock
 *   file, the CLI config and terraform itself are the same as at the last successful init, and the providers it
 *   installed are still in place.
 *
 * What was compared is kept as one digest per directory (`.chainform-synth.json` in the output directory,
 * `.terraform/chainform-init.json` in a stack), never the values themselves. `CHAINFORM_WORK_CACHE=0` turns both off.
 */
import { createHash, type Hash } from "node:crypto";
import { existsSync, lstatSync, readdirSync, readFileSync, realpathSync, statSync, writeFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { mirrorLayout, packageRoot } from "../terraform/mirror";
import { readStacks, type CdktfApp, type Stack } from "./cdktf-app";
import type { Terraform } from "./terraform";

/** The variable that turns the cache off (`0`). */
export const WORK_CACHE_ENV = "CHAINFORM_WORK_CACHE";

/** Variables that differ on every run of `up` (the embedded service's address and key), compared by absence instead. */
export const VOLATILE_VARIABLES = ["CHAINFORM_BASE_URL", "CHAINFORM_ACCESS_KEY", "CHAINFORM_BEARER_TOKEN"] as const;

const SYNTH_RECORD = ".chainform-synth.json";
const INIT_RECORD = "chainform-init.json";
const RECORD_VERSION = 1;
// An app directory bigger than this is synthesized every time rather than hashed.
const MAX_APP_FILES = 2_000;
const MAX_APP_BYTES = 64 * 1024 * 1024;
// Never part of an app's sources: dependencies, terraform's working files and state, VCS data.
const SKIPPED_NAMES = new Set(["node_modules", ".terraform", ".git", ".terraform.lock.hcl"]);
const SKIPPED_FILES = /\.tfstate(\.backup)?$|\.tfplan$|^\.terraform\.tfstate\.lock\.info$/;

/** The outcome of {@link synthesizeUnlessUnchanged}. */
export interface SynthOutcome {
  readonly stacks: Stack[];
  /** Whether the last synthesis's output was reused. */
  readonly reused: boolean;
}

/**
 * Synthesizes the app with `synthesize`, unless nothing it depends on changed since the last time (see the module
 * comment); then returns the stacks of the output already on disk.
 * @example
 * const { stacks, reused } = await synthesizeUnlessUnchanged(app, env, () => synthesize(app, env));
 */
export async function synthesizeUnlessUnchanged(
  app: CdktfApp,
  env: NodeJS.ProcessEnv,
  synthesize: () => Promise<Stack[]>,
): Promise<SynthOutcome> {
  if (env[WORK_CACHE_ENV] === "0") return { stacks: await synthesize(), reused: false };
  const inputs = synthInputsDigest(app, env);
  const recordPath = join(app.outDir, SYNTH_RECORD);
  if (inputs !== undefined) {
    const record = readRecord(recordPath);
    if (record?.inputs === inputs && record.output === outputDigest(app.outDir)) {
      try {
        return { stacks: readStacks(app.outDir), reused: true };
      } catch {
        // The output is not usable after all: synthesize.
      }
    }
  }
  const stacks = await synthesize();
  const volatile = VOLATILE_VARIABLES.map((name) => env[name]).filter((value): value is string => Boolean(value));
  if (inputs !== undefined && !outputContainsAny(app.outDir, volatile)) {
    writeRecord(recordPath, { inputs, output: outputDigest(app.outDir) });
  } else {
    writeRecord(recordPath, { inputs: "", output: "" });
  }
  return { stacks, reused: false };
}

/** What decides whether `terraform init` has anything to do in a stack. */
export interface InitInputs {
  /** The terraform binary and its version. */
  readonly terraform: string;
  /** The CLI config file terraform runs with. */
  readonly cliConfigPath: string;
}

/** The {@link InitInputs} of the CLI's terraform (which always runs with chainform's CLI config). */
export function initInputsOf(terraform: Pick<Terraform, "binary" | "version">): InitInputs {
  return { terraform: `${terraform.binary} ${terraform.version}`, cliConfigPath: mirrorLayout().cliConfigPath };
}

/**
 * Runs `init` in the stack unless nothing it depends on changed since its last successful run; returns whether it
 * ran. A failing `init` throws and records nothing.
 * @example
 * await initUnlessUnchanged(stack, { terraform: "terraform 1.11.4", cliConfigPath }, env, () => terraform.expect(["init"], ...));
 */
export async function initUnlessUnchanged(
  stack: Stack,
  inputs: InitInputs,
  env: NodeJS.ProcessEnv,
  init: () => Promise<unknown>,
): Promise<boolean> {
  if (env[WORK_CACHE_ENV] === "0") {
    await init();
    return true;
  }
  const recordPath = join(stack.dir, ".terraform", INIT_RECORD);
  const before = initDigest(stack, inputs);
  if (before !== undefined && readRecord(recordPath)?.inputs === before && providersInPlace(stack.dir)) return false;
  await init();
  // The lock file may have been written by this init: the digest is taken after it.
  const after = initDigest(stack, inputs);
  if (after !== undefined && existsSync(join(stack.dir, ".terraform"))) writeRecord(recordPath, { inputs: after, output: "" });
  return true;
}

interface CacheRecord {
  readonly inputs: string;
  readonly output: string;
}

function readRecord(path: string): CacheRecord | undefined {
  try {
    const record = JSON.parse(readFileSync(path, "utf8")) as CacheRecord & { version?: number };
    return record.version === RECORD_VERSION ? record : undefined;
  } catch {
    return undefined;
  }
}

function writeRecord(path: string, record: CacheRecord): void {
  try {
    writeFileSync(path, `${JSON.stringify({ version: RECORD_VERSION, ...record })}\n`);
  } catch {
    // A cache that cannot be written only costs time next run.
  }
}

/** The digest of everything a synthesis depends on, or undefined when the app is too big to hash. */
function synthInputsDigest(app: CdktfApp, env: NodeJS.ProcessEnv): string | undefined {
  const hash = createHash("sha256");
  hash.update(JSON.stringify({ command: app.command, dir: app.dir, outDir: app.outDir, context: app.context }));
  const variables = Object.keys(env)
    .filter((name) => !(VOLATILE_VARIABLES as readonly string[]).includes(name))
    .sort()
    .map((name) => [name, env[name]]);
  hash.update(JSON.stringify(variables));
  if (!hashTree(hash, app.dir, (path) => path === app.outDir, "content")) return undefined;
  // The packages the app builds on: its own installed dependencies, and chainform's (cdktf, constructs) with
  // chainform's constructs themselves.
  const root = packageRoot();
  for (const lock of [join(app.dir, "node_modules", ".package-lock.json"), join(root, "node_modules", ".package-lock.json")]) {
    hash.update(`${lock}\0${existsSync(lock) ? readFileSync(lock) : ""}\0`);
  }
  hashTree(hash, join(root, "dist", "constructs"), () => false, "stat");
  return hash.digest("hex");
}

/** The digest of an output directory as the synthesis wrote it (terraform's own files left out). */
function outputDigest(outDir: string): string {
  const hash = createHash("sha256");
  if (!existsSync(join(outDir, "manifest.json"))) return "missing";
  hashTree(hash, outDir, (path) => path.endsWith(`${sep}${SYNTH_RECORD}`), "content");
  return hash.digest("hex");
}

function outputContainsAny(outDir: string, values: readonly string[]): boolean {
  if (values.length === 0) return false;
  let found = false;
  walk(
    outDir,
    () => false,
    (path) => {
      const text = readFileSync(path, "utf8");
      if (values.some((value) => text.includes(value))) found = true;
    },
  );
  return found;
}

/**
 * Feeds every file under `dir` (sorted, skipping terraform's and VCS files and `skip`) into `hash`, by content or by
 * size and modification time. Returns false when the tree is too big to be worth it.
 */
function hashTree(hash: Hash, dir: string, skip: (path: string) => boolean, by: "content" | "stat"): boolean {
  let files = 0;
  let bytes = 0;
  return walk(dir, skip, (path, size) => {
    files++;
    bytes += size;
    if (files > MAX_APP_FILES || bytes > MAX_APP_BYTES) return false;
    const stats = by === "stat" ? statSync(path) : undefined;
    hash.update(`${relative(dir, path)}\0`);
    hash.update(stats ? `${stats.size}:${stats.mtimeMs}` : readFileSync(path));
    hash.update("\0");
    return true;
  });
}

function walk(dir: string, skip: (path: string) => boolean, visit: (path: string, size: number) => boolean | void): boolean {
  if (!existsSync(dir)) return true;
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (SKIPPED_NAMES.has(name) || SKIPPED_FILES.test(name) || skip(path)) continue;
    const stats = lstatSync(path);
    if (stats.isDirectory()) {
      if (!walk(path, skip, visit)) return false;
    } else if (stats.isFile() && visit(path, stats.size) === false) {
      return false;
    }
  }
  return true;
}

/** The digest of what `terraform init` reads in a stack, or undefined when the stack's config cannot be read. */
function initDigest(stack: Stack, inputs: InitInputs): string | undefined {
  let config: { terraform?: unknown; module?: unknown };
  try {
    config = JSON.parse(readFileSync(join(stack.dir, "cdk.tf.json"), "utf8")) as typeof config;
  } catch {
    return undefined;
  }
  const hash = createHash("sha256");
  hash.update(JSON.stringify({ terraform: config.terraform ?? null, module: config.module ?? null, binary: inputs.terraform }));
  for (const file of [inputs.cliConfigPath, join(stack.dir, ".terraform.lock.hcl"), join(stack.dir, ".terraform", "terraform.tfstate")]) {
    hash.update(`${file}\0${existsSync(file) ? readFileSync(file) : "absent"}\0`);
  }
  return hash.digest("hex");
}

/** Whether every provider package init linked or copied into `.terraform/providers` still exists. */
function providersInPlace(stackDir: string): boolean {
  const providers = join(stackDir, ".terraform", "providers");
  if (!existsSync(providers)) return false;
  let intact = true;
  // HOST/NAMESPACE/TYPE/VERSION/PLATFORM: a link into the mirror, which a moved or removed package breaks.
  const visit = (dir: string, depth: number) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (depth === 4) {
        try {
          realpathSync(path);
        } catch {
          intact = false;
        }
      } else if (statSync(path, { throwIfNoEntry: false })?.isDirectory()) {
        visit(path, depth + 1);
      }
    }
  };
  visit(providers, 0);
  return intact;
}
