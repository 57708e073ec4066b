/**
 * chainform as its users get it: `npm pack` (which builds on prepack), then `npm install` of the tarball into a
 * fresh project outside this repository, from the registry alone (no symlink into the repository), and every job
 * run there with `npx --no -- chainform` (`--no`: npx fails instead of downloading anything; `--`: `--help` goes to chainform):
 * - a Terraform configuration (HCL) with the CLI config from `chainform terraformrc`: init from the installed mirror,
 *   apply, `chainform outputs`, destroy;
 * - a CDK Terrain app (cdktn 0.24, `chainform/cdktn`) and a CDKTF app (cdktf 0.21, `chainform/cdktf`), each with an
 *   Environment, a Bridge and lookups: deploy (synth, init, plan, apply), a second plan with no changes, outputs,
 *   destroy;
 * - `chainform init` of each template, then `npx chainform up` in it (the hcl one after a real `npm install
 *   --strict-allow-scripts` of the dependency init wrote: a copy of the tarball in vendor/);
 * - a team's first week (issue 26): an app whose prefunded account deploys a contract and sends transactions, then
 *   `deploy` again and `up`, all green; an account holding nothing of its funding still fails the check;
 * - the installed package's docs: every relative link of its Markdown resolves inside it; no scripts in its
 *   package.json; repository and homepage set.
 * The install compiles nothing on Node.js 22 and 24 (better-sqlite3 is an optional peer); on Node.js 20 the service
 * first says to `npm install better-sqlite3`, and the test does so, as a user would (that one compiles, minutes).
 * The project holds both frameworks and one `constructs` (10.7, which both accept); chainform brings no copy.
 */
import { spawn, spawnSync } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, normalize, relative } from "node:path";
import { cleanEnv, collect, ROOT, serviceEnv, watchServe, type CliResult } from "./helpers/cli";
import { FUNDED_ACCOUNT, prefundedConfiguration, setBalance, spendFromFundedAccount } from "./helpers/prefunded-app";
import { startTestService, type TestService } from "./helpers/service";

const NODE_MAJOR = Number(process.versions.node.split(".")[0]);
/** Node.js 20 has no node:sqlite: the service there needs better-sqlite3, which chainform does not install. */
const NEEDS_BETTER_SQLITE3 = NODE_MAJOR < 22;

const version = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string }).version;

/**
 * Copies this repository's sources to `to` (the files git tracks or would track: nothing a build makes or a run
 * leaves, such as another test's state file), with a symlink to its node_modules, and returns `to`: a tree that
 * `npm pack` builds and packs without touching this one. A tracked file deleted in the working tree is left out.
 */
function copyOfSources(to: string): string {
  const listed = spawnSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: ROOT, encoding: "utf8" });
  if (listed.status !== 0) throw new Error(`git ls-files failed in ${ROOT}: ${listed.stderr}`);
  for (const file of listed.stdout.split("\0").filter(Boolean)) {
    const from = join(ROOT, file);
    if (!existsSync(from)) continue;
    mkdirSync(dirname(join(to, file)), { recursive: true });
    copyFileSync(from, join(to, file));
  }
  symlinkSync(join(ROOT, "node_modules"), join(to, "node_modules"), "dir");
  return to;
}

/** Runs a command to completion in `cwd` with a clean environment plus `env`; never throws on a non-zero exit. */
function run(
  command: string,
  args: readonly string[],
  cwd: string,
  env: Record<string, string | undefined> = {},
  timeoutMs = 600_000,
): Promise<CliResult> {
  const started = performance.now();
  const child = spawn(command, args, {
    cwd,
    env: cleanEnv({ CHECKPOINT_DISABLE: "1", npm_config_update_notifier: "false", ...env }),
    stdio: "pipe",
  });
  return collect(child, timeoutMs, started);
}

/** Fails with the command's output when it did not exit 0. */
function ok(result: CliResult, what: string): CliResult {
  if (result.code !== 0) throw new Error(`${what} exited ${result.code}:\n${result.stdout}\n${result.stderr}`);
  return result;
}

/** The CDK app the cdktn and cdktf cases share, importing `framework` and `chainform/<framework>`. */
function cdkApp(framework: "cdktn" | "cdktf", slug: string): string {
  return `import { App, TerraformOutput, TerraformStack } from "${framework}";
import { Construct } from "constructs";
import { Bridge, ChainformProvider, Environment, Network, Project, SupportedNetworks, ether } from "chainform/${framework}";

class Ci extends TerraformStack {
  constructor(scope: Construct, id: string) {
    super(scope, id);
    new ChainformProvider(this, "chainform");
    const project = Project.fromSlug(this, "project", process.env.CHAINFORM_PROJECT ?? "demo");
    const networks = new SupportedNetworks(this, "networks");
    const env = new Environment(this, "environment", {
      displayName: "${framework} app",
      slug: "${slug}",
      networks: [
        { networkId: Network.MAINNET, chainId: 73571, accounts: [{ address: "0x1111111111111111111111111111111111111111", balance: ether(5) }] },
        { networkId: Network.BASE, chainId: 84530 },
      ],
      bridge: Bridge.delayedRelay(10),
    });
    new TerraformOutput(this, "mainnet_rpc_url", { value: env.publicRpcUrl(Network.MAINNET) });
    new TerraformOutput(this, "project_name", { value: project.projectName });
    new TerraformOutput(this, "network_ids", { value: networks.networkIds });
  }
}

const app = new App();
new Ci(app, "ci");
app.synth();
`;
}

const HCL = `terraform {
  required_providers {
    chainform = { source = "chainform/chainform" }
  }
}

provider "chainform" {}

data "chainform_supported_networks" "all" {}

resource "chainform_environment" "hcl" {
  display_name = "hcl config"
  slug         = "package-hcl"
  network_config {
    network_id = "1"
    chain_id   = 73571
  }
}

output "mainnet_rpc_url" { value = chainform_environment.hcl.public_rpc_urls["1"] }
output "network_count" { value = length(data.chainform_supported_networks.all.networks) }
`;

describe("the packed package, installed into a fresh project", () => {
  let work: string;
  let project: string;
  let service: TestService;
  const npx = (args: readonly string[], cwd: string, env: Record<string, string | undefined> = {}) =>
    run("npx", ["--no", "--", "chainform", ...args], cwd, env);

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), "chainform-package-"));
    // npm pack runs prepack, which builds dist/ (TypeScript, contracts, the provider bundle and its mirror) and strips
    // package.json while it packs. Done in this repository, that rewrites files that the other test files, running
    // at the same time, are loading (a CLI that read a half-written module of dist/ once failed to start): it is
    // done in a copy of the sources, with this repository's node_modules.
    const sources = copyOfSources(join(work, "sources"));
    const packed = ok(await run("npm", ["pack", "--pack-destination", work], sources, {}, 900_000), "npm pack");
    const tarball = join(work, packed.stdout.trim().split("\n").pop() as string);
    expect(tarball).toBe(join(work, `chainform-${version}.tgz`));

    project = join(work, "project");
    mkdirSync(project);
    writeFileSync(join(project, "package.json"), JSON.stringify({ name: "user-infra", version: "0.0.0", private: true }));
    const started = performance.now();
    ok(
      await run(
        "npm",
        ["install", "--no-audit", "--no-fund", tarball, "cdktn@0.24", "cdktf@0.21", "constructs@~10.7.0"],
        project,
        {},
        1_800_000,
      ),
      "npm install",
    );
    process.stderr.write(
      `package-install: npm install took ${Math.round((performance.now() - started) / 1000)} s on Node.js ${process.versions.node}\n`,
    );
    if (NEEDS_BETTER_SQLITE3) {
      // What a Node.js 20 user meets first, then the one command it names.
      const serve = await npx(["serve", "--in-memory", "--port", "0"], project);
      expect({ code: serve.code, stderr: serve.stderr }).toEqual({
        code: 1,
        stderr: expect.stringContaining("run `npm install better-sqlite3` in your project"),
      });
      ok(
        await run("npm", ["install", "--no-audit", "--no-fund", "better-sqlite3@^12"], project, {}, 1_800_000),
        "npm install better-sqlite3",
      );
    }
    service = await startTestService();
  }, 2_700_000);

  afterAll(async () => {
    await service?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it("holds the built code, none of the build-only dependencies, and no constructs of its own", async () => {
    const installed = join(project, "node_modules", "chainform");
    expect(realpathSync(installed).startsWith(realpathSync(project))).toBe(true); // a copy, not a link into the repo
    const builtFiles = [
      "dist/cli/index.js",
      "dist/constructs/index.js",
      "dist/cdktn/index.d.ts",
      "dist/provider/terraform-provider-chainform.bundle.js",
      // the schema answer the provider sends without loading itself (lib/terraform/provider/schema-file.ts)
      "dist/provider/terraform-provider-chainform.schema.pb",
    ];
    for (const file of builtFiles) {
      expect(existsSync(join(installed, file))).toBe(true);
    }
    // build-time tooling (it loads esbuild, a devDependency) is not shipped
    expect(existsSync(join(installed, "dist/terraform/protocol/bundle.js"))).toBe(false);
    for (const devOnly of ["protobufjs", "@grpc/grpc-js", "@msgpack/msgpack", "solc", "@peculiar/x509", "reflect-metadata", "jest"]) {
      expect(existsSync(join(project, "node_modules", devOnly))).toBe(false);
    }
    expect(existsSync(join(installed, "node_modules", "constructs"))).toBe(false);
    expect(readdirSync(join(project, "node_modules")).filter((name) => name === "constructs")).toHaveLength(1);
    const help = ok(await npx(["--help"], project), "chainform --help");
    expect(help.stdout).toMatch(/^  init +\S/m);
    const serveHelp = ok(await npx(["serve", "--help"], project), "chainform serve --help");
    expect(serveHelp.stdout).toMatch(/--data-dir DIR/);
  });

  (NEEDS_BETTER_SQLITE3 ? it.skip : it)("installing it compiled nothing: no better-sqlite3, no native module at all", () => {
    expect(existsSync(join(project, "node_modules", "better-sqlite3"))).toBe(false);
    const native: string[] = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        if (entry.isDirectory()) walk(join(dir, entry.name));
        else if (entry.name.endsWith(".node") || /[\\/]build[\\/]Release$/.test(dir)) native.push(relative(project, join(dir, entry.name)));
      }
    };
    walk(join(project, "node_modules"));
    expect(native).toEqual([]);
  });

  it("ships the docs its README links to, repository and homepage, and no scripts", () => {
    const installed = join(project, "node_modules", "chainform");
    const manifest = JSON.parse(readFileSync(join(installed, "package.json"), "utf8")) as Record<string, unknown>;
    expect(manifest.scripts).toBeUndefined();
    expect(manifest.allowScripts).toBeUndefined(); // this repository's approvals, read only where it is the project
    expect(manifest.repository).toEqual({ type: "git", url: expect.stringMatching(/^git\+https:\/\/github\.com\/.+\.git$/) });
    expect(manifest.homepage).toMatch(/^https:\/\//);
    const markdown: string[] = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        if (entry.isDirectory() && entry.name !== "node_modules") walk(join(dir, entry.name));
        else if (entry.name.endsWith(".md")) markdown.push(join(dir, entry.name));
      }
    };
    walk(installed);
    expect(markdown.map((file) => relative(installed, file))).toEqual(
      expect.arrayContaining(["README.md", "docs/installing.md", "lib/client/README.md"]),
    );
    const dead: string[] = [];
    for (const file of markdown) {
      for (const [, target] of readFileSync(file, "utf8").matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
        if (/^[a-z]+:/i.test(target)) continue;
        const path = normalize(join(dirname(file), target));
        if (!path.startsWith(installed) || !existsSync(path)) dead.push(`${relative(installed, file)} -> ${target}`);
      }
    }
    expect(dead).toEqual([]);
  });

  it("serve runs the local service from the installed package; teardown talks to it", async () => {
    // The installed executable itself (what npx runs), so that the test can stop it with a signal.
    const serve = spawn(join(project, "node_modules", ".bin", "chainform"), ["serve", "--in-memory", "--port", "0"], {
      cwd: project,
      env: cleanEnv(),
      stdio: "pipe",
    });
    const exited = collect(serve, 300_000);
    try {
      const ready = await watchServe(serve).ready;
      const teardown = await npx(["teardown", "--prefix", "nothing-here-", "--yes"], project, serviceEnv(ready));
      expect({ code: teardown.code, said: `${teardown.stdout}${teardown.stderr}` }).toEqual({
        code: 3,
        said: expect.stringMatching(/Nothing to do/),
      });
    } finally {
      serve.kill("SIGTERM");
    }
    expect((await exited).code).toBe(0);
  }, 300_000);

  it("a Terraform configuration: init from the installed mirror, apply, outputs, destroy", async () => {
    const dir = join(project, "hcl");
    mkdirSync(dir);
    writeFileSync(join(dir, "main.tf"), HCL);
    const config = ok(await npx(["terraformrc"], project), "chainform terraformrc").stdout.trim();
    expect(readFileSync(config, "utf8")).toContain(
      JSON.stringify(join(realpathSync(project), "node_modules", "chainform", "dist", "terraform", "mirror")),
    );
    const env = { ...serviceEnv(service), TF_CLI_CONFIG_FILE: config };
    const terraform = (args: string[]) => run("terraform", [...args, "-input=false", "-no-color"], dir, env);
    const init = ok(await terraform(["init"]), "terraform init");
    expect(init.stdout).toMatch(/Installing chainform\/chainform v\d/);
    ok(await terraform(["apply", "-auto-approve"]), "terraform apply");
    const outputs = ok(await npx(["outputs", dir], project, serviceEnv(service)), "chainform outputs");
    const values = JSON.parse(outputs.stdout) as Record<string, unknown>;
    expect(values.mainnet_rpc_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/rpc\/public\//);
    expect(values.network_count).toBeGreaterThan(0);
    ok(await terraform(["destroy", "-auto-approve"]), "terraform destroy");
  }, 600_000);

  for (const framework of ["cdktn", "cdktf"] as const) {
    it(`a ${framework} app with Environment, Bridge and lookups: deploy, a second plan without changes, outputs, destroy`, async () => {
      const dir = join(project, `${framework}-app`);
      mkdirSync(dir);
      writeFileSync(join(dir, "cdktf.json"), JSON.stringify({ language: "typescript", app: "npx tsx main.ts" }));
      writeFileSync(join(dir, "main.ts"), cdkApp(framework, `package-${framework}`));
      const env = serviceEnv(service);
      ok(await npx(["deploy", dir], project, env), "chainform deploy");
      // The stack was synthesized by the app's own framework, not by a copy chainform brought along.
      const stack = JSON.parse(readFileSync(join(dir, "cdktf.out", "stacks", "ci", "cdk.tf.json"), "utf8")) as {
        "//": { metadata: { version: string } };
      };
      expect(stack["//"].metadata.version).toBe(framework === "cdktn" ? "0.24.0" : "0.21.0");
      const plan = ok(await npx(["plan", dir], project, env), "chainform plan");
      expect(plan.stdout).toMatch(/No changes\./);
      const outputs = JSON.parse(ok(await npx(["outputs", dir], project, env), "chainform outputs").stdout) as Record<string, unknown>;
      expect(outputs.mainnet_rpc_url).toMatch(/\/rpc\/public\//);
      expect(outputs.project_name).toEqual(expect.any(String));
      expect(outputs.network_ids).toEqual(expect.arrayContaining(["1", "8453"]));
      ok(await npx(["destroy", dir], project, env), "chainform destroy");
    }, 900_000);
  }

  for (const template of ["cdktn", "cdktf", "hcl"] as const) {
    it(`chainform init --template ${template}, then chainform up against the embedded service`, async () => {
      const dir = join(project, "apps", `new-${template}`);
      const created = ok(await npx(["init", dir, "--template", template], project), "chainform init");
      expect(created.stdout).toMatch(/npm install\n {2}npm run up\n$/);
      // The project installed chainform from the tarball on disk: the new one gets a copy of it, inside itself, so
      // that its CI's `npm ci` can install it too (issue 26, item 2).
      expect(created.stdout).toContain(
        `Its chainform dependency is "file:vendor/chainform-${version}.tgz", from the tarball ${join(work, `chainform-${version}.tgz`)}`,
      );
      const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { dependencies: Record<string, string> };
      expect(manifest.dependencies.chainform).toBe(`file:vendor/chainform-${version}.tgz`);
      expect(
        readFileSync(join(dir, "vendor", `chainform-${version}.tgz`)).equals(readFileSync(join(work, `chainform-${version}.tgz`))),
      ).toBe(true);
      for (const file of [".gitignore", ".github/workflows/chainform.yml", template === "hcl" ? "main.tf" : "cdktf.json"]) {
        expect(existsSync(join(dir, file))).toBe(true);
      }
      if (template === "hcl") {
        // The dependency init wrote installs: a real `npm install` (chainform alone, seconds), under npm's strict
        // install-script approval with the allowScripts init wrote (issue 42, item 2), and --engine-strict.
        ok(
          await run("npm", ["install", "--no-audit", "--no-fund", "--strict-allow-scripts", "--engine-strict"], dir, {}, 1_800_000),
          "npm install --strict-allow-scripts in the new project",
        );
        expect(JSON.parse(readFileSync(join(dir, "node_modules", "chainform", "package.json"), "utf8")).version).toBe(version);
        // Node.js 20's extra step, shared from the project instead of a second compile of minutes.
        if (NEEDS_BETTER_SQLITE3) symlinkSync(join(project, "node_modules", "better-sqlite3"), join(dir, "node_modules", "better-sqlite3"));
      } else {
        // What `npm install` would put there is what the project installed: check that it satisfies the template's
        // ranges, then share it instead of a second install (a link inside the temporary project).
        const semver = require("semver") as { satisfies(v: string, range: string): boolean };
        for (const [name, range] of Object.entries(manifest.dependencies)) {
          if (name === "chainform") continue;
          const installed = (JSON.parse(readFileSync(join(project, "node_modules", name, "package.json"), "utf8")) as { version: string })
            .version;
          expect({ name, installed, satisfies: semver.satisfies(installed, range) }).toEqual({ name, installed, satisfies: true });
        }
        symlinkSync(join(project, "node_modules"), join(dir, "node_modules"));
      }
      const up = await npx(["up"], dir);
      if (up.code !== 0) throw new Error(`chainform up exited ${up.code}:\n${up.stdout}\n${up.stderr}`);
      expect(up.stderr).toMatch(/up: applied, checked and destroyed/);
      expect(up.stdout).toMatch(/84530/);
    }, 900_000);
  }

  describe("a team's first week: prefunded accounts that pay gas", () => {
    const artifact = () => join(project, "node_modules", "chainform", "dist", "contracts", "ChainformToken.json");
    const app = (name: string, options: { slug: string; chainId: number; contract: boolean }) => {
      const dir = join(project, "week", name);
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, "main.tf"), prefundedConfiguration({ ...options, artifactPath: artifact() }));
      return dir;
    };
    const outputs = async (dir: string) =>
      JSON.parse(
        ok(await npx(["outputs", "--include-sensitive", dir], project, serviceEnv(service)), "chainform outputs").stdout,
      ) as Record<string, string>;

    it("the account deploys a contract and sends transactions; deploy again and up still exit 0", async () => {
      const dir = app("funded", { slug: "week-funded", chainId: 73_561, contract: true });
      const env = serviceEnv(service);
      ok(await npx(["deploy", dir], project, env), "the first deploy (the account paid for its contract)");
      await spendFromFundedAccount((await outputs(dir)).rpc_url, 73_561, 3);
      const again = ok(await npx(["deploy", dir], project, env), "deploy after the team's transactions");
      expect(again.stdout).toMatch(/No changes\./);
      const up = ok(await npx(["up", dir], project, env), "up on the same app");
      expect(up.stderr).toMatch(/up: applied, checked and destroyed/);
    }, 900_000);

    it("an environment whose prefunding did not happen still fails the check", async () => {
      const dir = app("unfunded", { slug: "week-unfunded", chainId: 73_562, contract: false });
      const env = serviceEnv(service);
      ok(await npx(["deploy", dir], project, env), "deploy");
      await setBalance((await outputs(dir)).admin_rpc_url, FUNDED_ACCOUNT.address, 0n);
      const failed = await npx(["deploy", dir], project, env);
      expect({ code: failed.code, stderr: failed.stderr }).toEqual({
        code: 1,
        stderr: expect.stringContaining(
          `${FUNDED_ACCOUNT.address} holds 0 wei and paid 0 wei in 0 transaction(s) of its own since the fork`,
        ),
      });
      ok(await npx(["destroy", dir], project, env), "destroy");
    }, 900_000);
  });
});
