/**
 * `chainform init [DIR] [--template cdktn|cdktf|hcl] [--force]`: writes a ready project, as `cdktf init` does: a
 * CDK Terrain app (default), a CDKTF app or a plain Terraform configuration, with package.json, .gitignore and a
 * GitHub Actions workflow. Then `npm install` and `npm run up` run it offline. In a project that already has a
 * package.json, it adds its files and merges package.json and .gitignore (../init-merge.ts), overwriting nothing
 * unless --force (and package.json, never), and lists what it wrote and what it left.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, dirname, join, relative, resolve } from "node:path";
import { parseArgs, type ParseArgsConfig } from "node:util";
import { version } from "../../client/version";
import { UsageError, type Command } from "../command";
import { CliError } from "../errors";
import { mergeGitignore, mergePackageJson, type MergeResult } from "../init-merge";
import { INIT_TEMPLATES, initFiles, type InitTemplate } from "../init-templates";
import { chainformDependency } from "../install-source";
import { packageRoot } from "../../terraform/mirror";

/** The options of `chainform init`. */
const OPTIONS = {
  template: { type: "string", default: INIT_TEMPLATES[0] },
  force: { type: "boolean", default: false },
} as const satisfies ParseArgsConfig["options"];

const init: Command = {
  name: "init",
  options: OPTIONS,
  summary: "create a project in DIR: a CDK Terrain (default), CDKTF or Terraform HCL app with CI",
  usage: `usage: chainform init [DIR] [--template cdktn|cdktf|hcl] [--force]

Writes a ready project into DIR (default: the working directory): package.json (chainform and, for a CDK app,
the framework and constructs; npm's allowScripts for the install scripts chainform does not need), cdktf.json,
tsconfig.json and main.ts (or main.tf for hcl), .gitignore and .github/workflows/chainform.yml. Then run
\`npm install\` and \`npm run up\`.

In a project that has a package.json already, init adds the files it lacks and merges package.json (scripts,
dependencies, devDependencies, allowScripts) and .gitignore: what the project has stays as it is, and init lists
what it wrote, what it merged and what it left. Beside a tsconfig.json of the project's own, it writes
tsconfig.chainform.json for main.ts, which the typecheck script uses.

The chainform dependency is where this chainform came from: the registry's ^VERSION, the same tarball URL or git
commit, or, for a local tarball, a copy of it in DIR/vendor/ (commit it: CI installs from it).

  --template cdktn   a CDK Terrain app (cdktn 0.24), importing chainform/cdktn (default)
  --template cdktf   a CDK for Terraform app (cdktf 0.21), importing chainform/cdktf
  --template hcl     a Terraform configuration (main.tf)
  --force            overwrite the files that already exist (package.json and .gitignore are always merged)
`,
  async run(args) {
    const { values, positionals } = parseArgs({
      args,
      allowPositionals: true,
      strict: true,
      options: OPTIONS,
    });
    if (!(INIT_TEMPLATES as readonly string[]).includes(values.template)) {
      throw new UsageError(`--template must be one of ${INIT_TEMPLATES.join(", ")}, got ${JSON.stringify(values.template)}`);
    }
    if (positionals.length > 1)
      throw new UsageError(`expected at most one DIR, got ${positionals.map((p) => JSON.stringify(p)).join(" ")}`);
    const dir = resolve(positionals[0] ?? ".");
    const dependency = chainformDependency(packageRoot(), version);
    const existingProject = existsSync(join(dir, "package.json"));
    // A project that already depends on chainform keeps that dependency: no second one, no vendored copy.
    const ownChainform = existingProject ? chainformOf(join(dir, "package.json")) : undefined;
    const copy = ownChainform === undefined ? dependency.copy : undefined;
    if (copy && !existsSync(copy.from)) {
      throw new CliError(
        `chainform was installed from ${copy.from}, which no longer exists, so the new project could not install it: ` +
          `install chainform again (from the registry, a release tarball URL or its git repository), then run init`,
      );
    }
    // The project's own tsconfig.json is kept (unless --force), and its `include` may leave main.ts out.
    const ownTsconfig = !values.force && existsSync(join(dir, "tsconfig.json"));
    const files = initFiles(values.template as InitTemplate, basename(dir), ownChainform ?? dependency.spec, { ownTsconfig });
    const wrote: string[] = [];
    const merged: string[] = [];
    const left: string[] = [];
    const writes: Array<[path: string, content: string]> = [];
    // The project's own `up` script (kept) is not chainform's: the next step then names chainform itself.
    let ownUpScript = false;
    for (const [path, content] of Object.entries(files)) {
      const target = join(dir, path);
      if (!existsSync(target)) {
        writes.push([path, content]);
        wrote.push(path);
        continue;
      }
      const merge = path === "package.json" ? mergePackageJson : path === ".gitignore" ? mergeGitignore : undefined;
      if (merge) {
        const result = mergeOrExplain(() => merge(readFileSync(target, "utf8"), content), target);
        if (result.text !== undefined) writes.push([path, result.text]);
        merged.push(...result.added);
        left.push(...result.kept.map((entry) => `${path === "package.json" ? "package.json " : ""}${entry} (yours kept)`));
        if (path === "package.json" && result.kept.includes("scripts.up")) ownUpScript = true;
      } else if (values.force) {
        writes.push([path, content]);
        wrote.push(`${path} (overwritten: --force)`);
      } else {
        left.push(`${path} (exists; --force overwrites it)`);
      }
    }
    const vendorCopy = copy && (values.force || !existsSync(join(dir, copy.vendorPath))) ? copy : undefined;
    if (copy && !vendorCopy) left.push(`${copy.vendorPath} (exists; --force overwrites it)`);
    if (vendorCopy) wrote.push(vendorCopy.vendorPath);
    for (const [path, content] of writes) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), content);
    }
    if (vendorCopy) {
      mkdirSync(dirname(join(dir, vendorCopy.vendorPath)), { recursive: true });
      copyFileSync(vendorCopy.from, join(dir, vendorCopy.vendorPath));
    }
    const where = relative(process.cwd(), dir);
    const list = (items: readonly string[]) => (items.length === 0 ? "nothing" : [...items].sort().join(", "));
    const summary = existingProject
      ? `Added a ${values.template} app to the project in ${dir}.\n` +
        `Wrote: ${list(wrote)}.\nMerged into package.json and .gitignore: ${list(merged)}.\nLeft as they were: ${list(left)}.\n`
      : `Created a ${values.template} project in ${dir}: ${list(wrote)}.\n${left.length > 0 ? `Left as they were: ${list(left)}.\n` : ""}`;
    process.stdout.write(
      summary +
        (ownChainform !== undefined
          ? `Its chainform dependency stays the project's own: ${JSON.stringify(ownChainform)}.\n`
          : `Its chainform dependency is ${JSON.stringify(dependency.spec)}, from ${dependency.origin}` +
            `${copy ? ` (copied into the project: commit it, so that CI installs the same chainform)` : ""}.\n`) +
        `Next:\n${where ? `  cd ${where}\n` : ""}  npm install\n  ${ownUpScript ? "npx --no-install chainform up" : "npm run up"}\n`,
    );
    return 0;
  },
};
export default init;

/** The chainform dependency a project's package.json already has (dependencies or devDependencies), if any. */
function chainformOf(file: string): string | undefined {
  try {
    const manifest = JSON.parse(readFileSync(file, "utf8")) as { dependencies?: unknown; devDependencies?: unknown };
    for (const field of [manifest.dependencies, manifest.devDependencies]) {
      const spec = (field as Record<string, unknown> | undefined)?.chainform;
      if (typeof spec === "string") return spec;
    }
  } catch {
    // an unreadable package.json: the merge reports it
  }
  return undefined;
}

/** Runs a merge, turning a project file init cannot read into a line naming the file. */
function mergeOrExplain(merge: () => MergeResult, file: string): MergeResult {
  try {
    return merge();
  } catch (error) {
    throw new CliError(`${file}: ${(error as Error).message}`);
  }
}
