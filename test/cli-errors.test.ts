/**
 * Each failure the CLI can meet gets one line saying what to do and a non-zero exit code; --verbose adds the
 * details; no secret is ever printed. The CLI runs as a child process against real services and binaries.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { assertCliBuilt, runCli, serviceEnv, type CliResult } from "./helpers/cli";
import { startTestService, type TestService } from "./helpers/service";

/** The CLI's error output is one line (plus the --verbose hint). */
function errorLines(result: CliResult): string[] {
  return result.stderr.split("\n").filter((line) => line.startsWith("chainform "));
}

/** A port nothing listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe("chainform error messages", () => {
  let service: TestService;
  let workDir: string;

  beforeAll(async () => {
    assertCliBuilt();
    service = await startTestService();
    workDir = mkdtempSync(join(tmpdir(), "chainform-cli-errors-"));
  });
  afterAll(async () => {
    await service?.close();
    rmSync(workDir, { recursive: true, force: true });
  });

  it("unreachable service: says to start one or set CHAINFORM_BASE_URL (exit 1)", async () => {
    const baseUrl = `http://127.0.0.1:${await closedPort()}`;
    const result = await runCli(["environments"], { env: { ...serviceEnv(service), CHAINFORM_BASE_URL: baseUrl } });
    expect(result.code).toBe(1);
    expect(errorLines(result)).toEqual([
      `chainform environments: cannot reach the chainform service at ${baseUrl}: start one with \`npx --no-install chainform serve\`, or set CHAINFORM_BASE_URL to the address of a running service`,
    ]);
    expect(result.stderr).toMatch(/\(run with --verbose for details\)/);
    // --verbose shows the client's full error (the request and the system error)
    const verbose = await runCli(["environments", "--verbose"], { env: { ...serviceEnv(service), CHAINFORM_BASE_URL: baseUrl } });
    expect(verbose.code).toBe(1);
    expect(verbose.stderr).toMatch(/Request: GET \/public\/v1\/account\/acme\/project\/demo\/environments/);
    expect(verbose.stderr).toMatch(/ECONNREFUSED/);
  }, 30_000);

  it("serve and up --port on a busy port: say the port is in use and how to pick another (exit 1)", async () => {
    const port = Number(new URL(service.baseUrl).port);
    const serve = await runCli(["serve", "--in-memory", "--port", String(port)]);
    expect({ code: serve.code, lines: errorLines(serve) }).toEqual({
      code: 1,
      lines: [
        `chainform serve: port ${port} on 127.0.0.1 is already in use (another \`chainform serve\` or \`up --keep\`?): stop what listens there, or pass --port N with another port (0 picks a free one)`,
      ],
    });
    const up = await runCli(["up", "--port", String(port), workDir], { env: { CHAINFORM_BASE_URL: undefined } });
    expect({ code: up.code, line: errorLines(up).at(-1) }).toEqual({
      code: 1,
      line: expect.stringMatching(/^chainform up: port \d+ on 127\.0\.0\.1 is already in use/),
    });
  }, 60_000);

  it("https:// against the plain-HTTP service: says to use http://, at once (one attempt, exit 1)", async () => {
    const baseUrl = service.baseUrl.replace("http://", "https://");
    const result = await runCli(["environments", "--verbose"], { env: { ...serviceEnv(service), CHAINFORM_BASE_URL: baseUrl } });
    expect({ code: result.code, line: errorLines(result)[0] }).toEqual({
      code: 1,
      line: `chainform environments: the chainform service at ${baseUrl} speaks plain HTTP, not HTTPS: set CHAINFORM_BASE_URL=${service.baseUrl} (loopback hosts), or start the service with \`chainform serve --tls\``,
    });
    expect(result.stderr).not.toMatch(/Attempts:/); // one attempt: the client did not retry
  }, 30_000);

  it("bad key: says which variables to set (exit 1) and never prints the key", async () => {
    const badKey = "cf_this-key-does-not-exist-0123456789";
    for (const verbose of [[], ["--verbose"]]) {
      const result = await runCli(["environments", ...verbose], { env: { ...serviceEnv(service), CHAINFORM_ACCESS_KEY: badKey } });
      expect(result.code).toBe(1);
      expect(errorLines(result)[0]).toMatch(
        /^chainform environments: the service rejected the credentials \(401 [a-z_]+(, error id [^)]+)?\): set CHAINFORM_ACCESS_KEY to a valid access key \(`chainform serve` prints one in its ready line, `chainform up --keep` the export line of its service\) or CHAINFORM_BEARER_TOKEN to a valid token \(`chainform token`\)$/,
      );
      expect(result.stdout + result.stderr).not.toContain(badKey);
    }
    // no credential at all
    const none = await runCli(["environments"], { env: { ...serviceEnv(service), CHAINFORM_ACCESS_KEY: undefined } });
    expect(none.code).toBe(1);
    expect(errorLines(none)[0]).toMatch(/^chainform environments: no credentials \(401 [a-z_]+.*\): set CHAINFORM_ACCESS_KEY/);
  });

  it("rate limit: says how long to wait (exit 1)", async () => {
    // GIVEN a service allowing 3 requests a minute, all of them used by someone else with the same key
    const limited = await startTestService({ rateLimits: { rateLimit: 3, burstLimit: 3 } });
    try {
      for (let i = 0; i < 3; i++) {
        await fetch(`${limited.baseUrl}/v1/account/acme/projects`, { headers: limited.headersOf("alice") });
      }
      // WHEN the CLI calls THEN it does not sit out the minute: it says so
      const result = await runCli(["projects"], { env: serviceEnv(limited), timeoutMs: 30_000 });
      expect(result.code).toBe(1);
      expect(errorLines(result)).toEqual([
        expect.stringMatching(
          /^chainform projects: the service's rate limit for this key is used up: wait \d+ s and run the command again \(limits are per key, so a CI job can use a key of its own\)$/,
        ),
      ]);
    } finally {
      await limited.close();
    }
  }, 40_000);

  it("unknown project: says to check CHAINFORM_ACCOUNT and CHAINFORM_PROJECT", async () => {
    const result = await runCli(["environments"], { env: { ...serviceEnv(service), CHAINFORM_PROJECT: "no-such-project" } });
    expect(result.code).toBe(1);
    expect(errorLines(result)[0]).toMatch(
      /^chainform environments: project acme\/no-such-project was not found or this key cannot see it \(404 [a-z_]+.*\): check CHAINFORM_ACCOUNT and CHAINFORM_PROJECT$/,
    );
  });

  it("bad app directory: says what to pass (exit 1), for a missing directory and for one without cdktf.json or *.tf", async () => {
    const missing = join(workDir, "no-such-app");
    const result = await runCli(["deploy", missing], { env: serviceEnv(service) });
    expect(result.code).toBe(1);
    expect(errorLines(result)).toEqual([
      `chainform deploy: the app directory ${missing} does not exist: pass the directory of a cdktf app (one with a cdktf.json) or of a Terraform configuration (*.tf files), or create one with \`npx --ignore-scripts chainform init\``,
    ]);

    const notAnApp = join(workDir, "not-an-app");
    mkdirSync(notAnApp, { recursive: true });
    const plain = await runCli(["plan", notAnApp], { env: serviceEnv(service) });
    expect(plain.code).toBe(1);
    expect(errorLines(plain)).toEqual([
      `chainform plan: ${notAnApp} is not an app (it has no cdktf.json and no *.tf file): pass the directory of a cdktf app (one with a cdktf.json) or of a Terraform configuration (*.tf files), or create one with \`npx --ignore-scripts chainform init\``,
    ]);

    const noCommand = join(workDir, "no-command");
    mkdirSync(noCommand, { recursive: true });
    writeFileSync(join(noCommand, "cdktf.json"), JSON.stringify({ language: "typescript" }));
    const empty = await runCli(["deploy", noCommand], { env: serviceEnv(service) });
    expect(empty.code).toBe(1);
    expect(errorLines(empty)[0]).toBe(
      `chainform deploy: ${join(noCommand, "cdktf.json")} has no "app" command: add one, e.g. "app": "npx tsx main.ts"`,
    );
  });

  it("an app that fails to synthesize: says so and shows the app's error", async () => {
    const broken = join(workDir, "broken-app");
    mkdirSync(broken, { recursive: true });
    writeFileSync(join(broken, "cdktf.json"), JSON.stringify({ app: "node main.js" }));
    writeFileSync(join(broken, "main.js"), 'throw new Error("the app is broken on purpose");\n');
    const result = await runCli(["deploy", broken], { env: serviceEnv(service) });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      new RegExp(
        `chainform deploy: synthesizing the app failed \\(\`node main.js\` in ${broken} exited 1\\): Error: the app is broken on purpose$`,
        "m",
      ),
    );
  });

  it("a construct that rejects its input: the construct's message alone, no stack trace, no problems dump", async () => {
    const invalid = join(workDir, "invalid-app");
    mkdirSync(invalid, { recursive: true });
    writeFileSync(join(invalid, "cdktf.json"), JSON.stringify({ app: "node main.js" }));
    // A real construct from the built package, given an address that is not one.
    writeFileSync(
      join(invalid, "main.js"),
      `const { App, TerraformStack } = require(${JSON.stringify(require.resolve("cdktf"))});
const { Environment, Network } = require(${JSON.stringify(join(__dirname, "..", "dist", "constructs"))});
const app = new App();
const stack = new TerraformStack(app, "ci");
new Environment(stack, "environment", { displayName: "x", networks: [{ networkId: Network.MAINNET, accounts: [{ address: "0x12", balance: "1" }] }] });
app.synth();
`,
    );
    const result = await runCli(["deploy", invalid], { env: serviceEnv(service) });
    expect(result.code).toBe(1);
    const [line, ...rest] = errorLines(result);
    expect(line).toMatch(
      new RegExp(
        `^chainform deploy: synthesizing the app failed \\(\`node main.js\` in ${invalid} exited 1\\): ChainformValidationError: \\[ci/environment\\] networks\\[0\\]\\.accounts\\[0\\]: address "0x12" is not an address`,
      ),
    );
    expect(result.stderr).toMatch(/0x12/);
    expect(rest).toEqual([]);
    expect(result.stderr).not.toMatch(/^\s+at |problems: \[|Node\.js v/m);
  });

  it("missing terraform binary: says how to install it (exit 1)", async () => {
    const app = join(workDir, "empty-app");
    mkdirSync(app, { recursive: true });
    writeFileSync(join(app, "cdktf.json"), JSON.stringify({ app: "true" }));
    // PATH without terraform (/usr/local/bin holds it here); the CLI itself runs from process.execPath
    const result = await runCli(["deploy", app], { env: { ...serviceEnv(service), PATH: "/usr/bin:/bin" } });
    expect(result.code).toBe(1);
    expect(errorLines(result)).toEqual([
      "chainform deploy: terraform was not found (terraform): install Terraform 1.5 or later (https://developer.hashicorp.com/terraform/install) or set TERRAFORM_BIN to its path",
    ]);
    const named = await runCli(["deploy", app], { env: { ...serviceEnv(service), TERRAFORM_BIN: join(workDir, "no-terraform-here") } });
    expect(named.code).toBe(1);
    expect(errorLines(named)[0]).toMatch(/^chainform deploy: terraform was not found \(.*no-terraform-here\): install Terraform/);
  });

  it("bad usage: one line and exit 2", async () => {
    const unknownFlag = await runCli(["environments", "--colour"], { env: serviceEnv(service) });
    expect(unknownFlag.code).toBe(2);
    expect(errorLines(unknownFlag)).toEqual([
      "chainform environments: unknown option --colour: `chainform environments --help` lists the options",
    ]);
    const mistyped = await runCli(["deploy", "--stak", "ci", "some/app"]);
    expect(mistyped.code).toBe(2);
    expect(mistyped.stderr).toBe("chainform deploy: unknown option --stak: `chainform deploy --help` lists the options\n");
    const seed = await runCli(["serve", "--seed"]);
    expect(seed.code).toBe(2);
    expect(seed.stderr).toBe("chainform serve: --seed needs a value: pass it as `--seed VALUE` or `--seed=VALUE`\n");
    const unknownCommand = await runCli(["launch"]);
    expect(unknownCommand.code).toBe(2);
    expect(unknownCommand.stderr).toMatch(/^chainform: unknown command "launch"/);
    const badFormat = await runCli(["outputs", "--format", "yaml"]);
    expect(badFormat.code).toBe(2);
    expect(errorLines(badFormat)).toEqual(['chainform outputs: --format must be one of json, env, github, foundry, hardhat, got "yaml"']);
  });

  it("--help and --version", async () => {
    const help = await runCli(["--help"]);
    expect(help.code).toBe(0);
    for (const command of [
      "init",
      "up",
      "deploy",
      "plan",
      "destroy",
      "outputs",
      "teardown",
      "environments",
      "networks",
      "projects",
      "channels",
      "action",
      "serve",
      "token",
      "terraformrc",
    ]) {
      expect(help.stdout).toMatch(new RegExp(`^  ${command} +\\S`, "m"));
    }
    const teardownHelp = await runCli(["teardown", "--help"]);
    expect(teardownHelp.code).toBe(0);
    expect(teardownHelp.stdout).toMatch(/Exit codes: 0 deleted, 3 nothing to do/);
    const serveHelp = await runCli(["serve", "--help"]);
    expect(serveHelp.code).toBe(0);
    for (const option of ["--host", "--port", "--data-dir", "--in-memory", "--seed", "--tls", "--rate-limit", "--burst-limit"]) {
      expect(serveHelp.stdout).toMatch(new RegExp(`^  ${option} `, "m"));
    }
    const version = await runCli(["--version"]);
    expect(version.stdout).toMatch(/^chainform \d+\.\d+\.\d+\n$/);
  });
});
