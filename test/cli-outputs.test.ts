/**
 * `chainform deploy` then `chainform outputs` in each format, end to end with the real terraform binary, on a small
 * app of our own whose stack has only outputs (a multi-line one and a sensitive one), so it needs no provider.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { assertCliBuilt, runCli, serviceEnv } from "./helpers/cli";
import { startTestService, type TestService } from "./helpers/service";

/** A cdktf-style app: `cdktf.json` names a command that writes manifest.json and one stack into CDKTF_OUTDIR. */
const SYNTH = `
const fs = require("fs"), path = require("path");
const out = process.env.CDKTF_OUTDIR;
fs.mkdirSync(path.join(out, "stacks", "ci"), { recursive: true });
fs.writeFileSync(path.join(out, "manifest.json"), JSON.stringify({
  version: "0.21.0",
  stacks: { ci: { name: "ci", workingDirectory: "stacks/ci", dependencies: [] } },
}));
fs.writeFileSync(path.join(out, "stacks", "ci", "cdk.tf.json"), JSON.stringify({
  terraform: { backend: { local: { path: path.join(process.cwd(), "terraform.ci.tfstate") } } },
  output: {
    mainnet_rpc_url: { value: "http://127.0.0.1:8787/rpc/public/0b6e" },
    mainnet_chain_id: { value: 73571 },
    release_notes: { value: "line one\\nline \\"two\\" costs $5" },
    mainnet_admin_rpc_url: { value: "http://127.0.0.1:8787/rpc/admin/s3cr3t-admin-secret", sensitive: true },
  },
}));
`;

/** An app whose one stack is named after STACK_NAME, with its own state file and an output naming it. */
const NAMED_SYNTH = `
const fs = require("fs"), path = require("path");
const out = process.env.CDKTF_OUTDIR, name = process.env.STACK_NAME;
fs.mkdirSync(path.join(out, "stacks", name), { recursive: true });
fs.writeFileSync(path.join(out, "manifest.json"), JSON.stringify({
  version: "0.21.0",
  stacks: { [name]: { name, workingDirectory: "stacks/" + name, dependencies: [] } },
}));
fs.writeFileSync(path.join(out, "stacks", name, "cdk.tf.json"), JSON.stringify({
  terraform: { backend: { local: { path: path.join(process.cwd(), "terraform." + name + ".tfstate") } } },
  output: { stack: { value: name } },
}));
`;

describe("chainform outputs", () => {
  let service: TestService;
  let app: string;
  const cli = (args: string[], env: Record<string, string> = {}) => runCli(args, { env: { ...serviceEnv(service), ...env } });

  beforeAll(async () => {
    assertCliBuilt();
    service = await startTestService();
    app = mkdtempSync(join(tmpdir(), "chainform-cli-outputs-"));
    writeFileSync(join(app, "cdktf.json"), JSON.stringify({ language: "typescript", app: "node synth.js" }));
    writeFileSync(join(app, "synth.js"), SYNTH);
  });
  afterAll(async () => {
    await service?.close();
    rmSync(app, { recursive: true, force: true });
  });

  it("before a deploy: synthesizes the app, then says to deploy first", async () => {
    const result = await cli(["outputs", app]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /^chainform outputs: stack ci was never deployed \(terraform init has not run in .*\): deploy it first \(`chainform deploy .*`\)$/m,
    );
  });

  it("synthesized but never deployed: one line saying to deploy, not terraform's box about init", async () => {
    const synthesized = mkdtempSync(join(tmpdir(), "chainform-cli-outputs-synth-"));
    try {
      writeFileSync(join(synthesized, "synth.js"), SYNTH);
      execFileSync(process.execPath, ["synth.js"], {
        cwd: synthesized,
        env: { ...process.env, CDKTF_OUTDIR: join(synthesized, "cdktf.out") },
      });
      writeFileSync(join(synthesized, "cdktf.json"), JSON.stringify({ app: "node synth.js" }));
      const result = await cli(["outputs", synthesized]);
      expect(result.code).toBe(1);
      expect(result.stderr).toBe(
        `chainform outputs: stack ci was never deployed (terraform init has not run in ${join(synthesized, "cdktf.out", "stacks", "ci")}): deploy it first (\`chainform deploy ${synthesized}\`)\n`,
      );
    } finally {
      rmSync(synthesized, { recursive: true, force: true });
    }
  });

  it("deploy runs the pipeline step by step with timings, showing the plan", async () => {
    const result = await cli(["deploy", app]);
    expect(result.code).toBe(0);
    for (const step of [
      "find terraform",
      "check the chainform service",
      `synthesize ${app}`,
      "terraform init",
      "terraform plan",
      "terraform apply",
    ]) {
      expect(result.stderr).toContain(`✓ ${step} (`);
    }
    expect(result.stderr).toMatch(/✓ deployed in \d/);
    expect(result.stdout).toMatch(/Changes to Outputs:/);
    expect(result.stdout).toMatch(/mainnet_admin_rpc_url = \(sensitive value\)/);
    expect(result.stdout + result.stderr).not.toContain("s3cr3t-admin-secret");
  }, 60_000);

  it("--format json (default): name -> value, sensitive outputs left out unless asked", async () => {
    const result = await cli(["outputs", app]);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      mainnet_chain_id: 73571,
      mainnet_rpc_url: "http://127.0.0.1:8787/rpc/public/0b6e",
      release_notes: 'line one\nline "two" costs $5',
    });
    const withSecrets = await cli(["outputs", app, "--format", "json", "--include-sensitive"]);
    expect(JSON.parse(withSecrets.stdout).mainnet_admin_rpc_url).toBe("http://127.0.0.1:8787/rpc/admin/s3cr3t-admin-secret");
  });

  it("--format env: a dotenv file with quoted, escaped values", async () => {
    const result = await cli(["outputs", "--format", "env", app]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      [
        'MAINNET_CHAIN_ID="73571"',
        'MAINNET_RPC_URL="http://127.0.0.1:8787/rpc/public/0b6e"',
        'RELEASE_NOTES="line one\\nline \\"two\\" costs \\$5"',
        "",
      ].join("\n"),
    );
  });

  it("--format github: appends multi-line-safe blocks to $GITHUB_OUTPUT, printing nothing secret", async () => {
    const githubOutput = join(app, "github-output");
    writeFileSync(githubOutput, "earlier=kept\n");
    const result = await cli(["outputs", app, "--format", "github"], { GITHUB_OUTPUT: githubOutput });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("");
    expect(result.stderr).toBe("wrote 3 output(s) to $GITHUB_OUTPUT: mainnet_chain_id, mainnet_rpc_url, release_notes\n");
    const written = readFileSync(githubOutput, "utf8");
    expect(written.startsWith("earlier=kept\n")).toBe(true);
    // Parse the file the way the runner does: name<<DELIMITER, the value's lines, DELIMITER.
    const parsed: Record<string, string> = {};
    const lines = written.split("\n");
    for (let i = 1; i < lines.length - 1; i++) {
      const [, name, delimiter] = /^([a-z_]+)<<(\S+)$/.exec(lines[i]) ?? [];
      expect(name).toBeDefined();
      const end = lines.indexOf(delimiter, i + 1);
      parsed[name] = lines.slice(i + 1, end).join("\n");
      i = end;
    }
    expect(parsed).toEqual({
      mainnet_chain_id: "73571",
      mainnet_rpc_url: "http://127.0.0.1:8787/rpc/public/0b6e",
      release_notes: 'line one\nline "two" costs $5',
    });

    // With --include-sensitive inside GitHub Actions, the secret is masked for the rest of the job first.
    const masked = await cli(["outputs", app, "--format", "github", "--include-sensitive"], {
      GITHUB_OUTPUT: githubOutput,
      GITHUB_ACTIONS: "true",
    });
    expect(masked.code).toBe(0);
    expect(masked.stdout).toBe("::add-mask::http://127.0.0.1:8787/rpc/admin/s3cr3t-admin-secret\n");
    expect(readFileSync(githubOutput, "utf8")).toMatch(
      /^mainnet_admin_rpc_url<<\S+\nhttp:\/\/127\.0\.0\.1:8787\/rpc\/admin\/s3cr3t-admin-secret\n/m,
    );
  });

  it("--format foundry and hardhat on a stack without a chainform environment: says what to use instead", async () => {
    for (const format of ["foundry", "hardhat"]) {
      const result = await cli(["outputs", app, "--format", format]);
      expect(result.code).toBe(1);
      expect(result.stderr).toBe(
        `chainform outputs: stack ci holds no chainform environment, so --format ${format} has no network to write: use --format json for its outputs\n`,
      );
    }
  });

  it("--export: also writes $GITHUB_ENV, named as --format env names them", async () => {
    const githubOutput = join(app, "github-output-2");
    const githubEnv = join(app, "github-env");
    writeFileSync(githubOutput, "");
    writeFileSync(githubEnv, "");
    const result = await cli(["outputs", app, "--format", "github", "--export"], { GITHUB_OUTPUT: githubOutput, GITHUB_ENV: githubEnv });
    expect(result.code).toBe(0);
    expect(readFileSync(githubEnv, "utf8")).toMatch(/^MAINNET_RPC_URL<<(\S+)\nhttp:\/\/127\.0\.0\.1:8787\/rpc\/public\/0b6e\n\1\n/m);
    const unset = await cli(["outputs", app, "--format", "github", "--export"], { GITHUB_OUTPUT: githubOutput });
    expect(unset.code).toBe(2);
    expect(unset.stderr).toMatch(/--export appends to the file named by \$GITHUB_ENV, which is not set/);
  });

  it("--format github outside GitHub Actions: says to use env instead (exit 2)", async () => {
    const result = await cli(["outputs", app, "--format", "github"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      "chainform outputs: --format github appends to the file named by $GITHUB_OUTPUT, which is not set: run it in a GitHub Actions step, or use --format env\n",
    );
  });

  it("reads the stack an environment variable names now, not the one of the last synthesis", async () => {
    // GIVEN an app that names its stack after STACK_NAME, deployed as "blue" and then as "green"
    const named = mkdtempSync(join(tmpdir(), "chainform-cli-outputs-named-"));
    try {
      writeFileSync(join(named, "cdktf.json"), JSON.stringify({ app: "node synth.js" }));
      writeFileSync(join(named, "synth.js"), NAMED_SYNTH);
      for (const name of ["blue", "green"]) expect((await cli(["deploy", named], { STACK_NAME: name })).code).toBe(0);
      // WHEN the outputs are read with STACK_NAME=blue
      const blue = await cli(["outputs", named], { STACK_NAME: "blue" });
      // THEN they are blue's (the last synthesis was green's)
      expect(blue.code).toBe(0);
      expect(JSON.parse(blue.stdout)).toEqual({ stack: "blue" });
      expect(JSON.parse((await cli(["outputs", named], { STACK_NAME: "green" })).stdout)).toEqual({ stack: "green" });
    } finally {
      rmSync(named, { recursive: true, force: true });
    }
  }, 120_000);

  it("destroy removes the outputs again", async () => {
    const result = await cli(["destroy", app]);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain("✓ terraform destroy (");
    const after = await cli(["outputs", app]);
    expect(after.code).toBe(1);
    expect(after.stderr).toMatch(/^chainform outputs: stack ci has no outputs yet: deploy it first \(`chainform deploy .*`\)$/m);
  }, 60_000);
});
