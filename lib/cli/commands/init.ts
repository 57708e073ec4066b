/**
 * `chainform init [DIR] [--template cdktn|cdktf|hcl] [--force]`: writes a ready project, as `cdktf init` does: a
 * CDK Terrain app (default), a CDKTF app or a plain Terraform configuration, with package.json, .gitignore and a
 * GitHub Actions workflow. Then `npm install` and `npx chainform up` run it offline.
 */
import { copyFileSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { basename, dirname, join, relative, resolve } from "node:path";
import { parseArgs } from "node:util";
import { version } from "../../client/version";
import { UsageError, type Command } from "../command";
import { CliError } from "../errors";
import { INIT_TEMPLATES, initFiles, type InitTemplate } from "../init-templates";
import { chainformDependency } from "../install-source";
import { packageRoot } from "../../terraform/mirror";

const init: Command = {
  name: "init",
  summary: "create a project in DIR: a CDK Terrain (default), CDKTF or Terraform HCL app with CI",
  usage: `usage: chainform init [DIR] [--template cdktn|cdktf|hcl] [--force]

Writes a ready project into DIR (default: the working directory): package.json (chainform and, for a CDK app,
the framework and constructs), cdktf.json, tsconfig.json and main.ts (or main.tf for hcl), .gitignore and
.github/workflows/chainform.yml. Then run \`npm install\` and \`npx chainform up\`.

The chainform dependency is where this chainform came from: the registry's ^VERSION, the same tarball URL or git
commit, or, for a local tarball, a copy of it in DIR/vendor/ (commit it: CI installs from it).

  --template cdktn   a CDK Terrain app (cdktn 0.24), importing chainform/cdktn (default)
  --template cdktf   a CDK for Terraform app (cdktf 0.21), importing chainform/cdktf
  --template hcl     a Terraform configuration (main.tf)
  --force            overwrite files that already exist
`,
  async run(args) {
    const { values, positionals } = parseArgs({
      args,
      allowPositionals: true,
      strict: true,
      options: { template: { type: "string", default: INIT_TEMPLATES[0] }, force: { type: "boolean", default: false } },
    });
    if (!(INIT_TEMPLATES as readonly string[]).includes(values.template)) {
      throw new UsageError(`--template must be one of ${INIT_TEMPLATES.join(", ")}, got ${JSON.stringify(values.template)}`);
    }
    if (positionals.length > 1)
      throw new UsageError(`expected at most one DIR, got ${positionals.map((p) => JSON.stringify(p)).join(" ")}`);
    const dir = resolve(positionals[0] ?? ".");
    const dependency = chainformDependency(packageRoot(), version);
    if (dependency.copy && !existsSync(dependency.copy.from)) {
      throw new CliError(
        `chainform was installed from ${dependency.copy.from}, which no longer exists, so the new project could not install it: ` +
          `install chainform again (from the registry, a release tarball URL or its git repository), then run init`,
      );
    }
    const files = initFiles(values.template as InitTemplate, basename(dir), dependency.spec);
    const written = [...Object.keys(files), ...(dependency.copy ? [dependency.copy.vendorPath] : [])];
    const existing = written.filter((path) => existsSync(join(dir, path)));
    if (existing.length > 0 && !values.force) {
      throw new CliError(`${dir} already has ${existing.join(", ")}: pick an empty directory, or pass --force to overwrite them`);
    }
    for (const [path, content] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), content);
    }
    if (dependency.copy) {
      mkdirSync(dirname(join(dir, dependency.copy.vendorPath)), { recursive: true });
      copyFileSync(dependency.copy.from, join(dir, dependency.copy.vendorPath));
    }
    const where = relative(process.cwd(), dir);
    process.stdout.write(
      `Created a ${values.template} project in ${dir}: ${written.sort().join(", ")}.\n` +
        `Its chainform dependency is ${JSON.stringify(dependency.spec)}, from ${dependency.origin}` +
        `${dependency.copy ? ` (copied into the project: commit it, so that CI installs the same chainform)` : ""}.\n` +
        `Next:\n${where ? `  cd ${where}\n` : ""}  npm install\n  npx chainform up\n`,
    );
    return 0;
  },
};
export default init;
