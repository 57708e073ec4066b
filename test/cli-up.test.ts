/**
 * `chainform up` end to end, as `npm start` runs it: the real CLI (child process), the embedded local service with
 * anvil chains, the multichain-ci example synthesized without cdktf-cli, real terraform with the provider from the
 * offline mirror, RPC checks, destroy after Ctrl-C under --keep. And `up --keep --show-secrets` against a service of the test's own, stopped
 * with Ctrl-C (SIGINT).
 *
 * Runs only once the provider is built (`npm run build` bundles lib/terraform/provider/main.ts into the mirror);
 * until then it is reported as skipped, not passed.
 */
import type { ChildProcess } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { assertCliBuilt, assertProviderBuilt, collect, ROOT, runCli, serviceEnv, slugsOf, startCli } from "./helpers/cli";
import { clientFor, startTestService, type TestService } from "./helpers/service";

const EXAMPLE = join(ROOT, "examples", "cdktf", "multichain-ci");

/**
 * Collects what `up --keep` prints and resolves once it is up (it says "Press Ctrl-C" and waits); rejects, with what
 * it printed, when it exits first.
 */
function keptUp(child: ChildProcess): Promise<{ readonly stdout: () => string; readonly stderr: () => string }> {
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (c: Buffer) => (stdout += c.toString("utf8")));
  child.stderr?.on("data", (c: Buffer) => (stderr += c.toString("utf8")));
  const output = { stdout: () => stdout, stderr: () => stderr };
  return new Promise((resolve, reject) => {
    const poll = setInterval(() => {
      if (stderr.includes("Press Ctrl-C")) {
        clearInterval(poll);
        resolve(output);
      }
    }, 100);
    child.once("exit", (code) => {
      clearInterval(poll);
      reject(new Error(`up exited ${code} before it was up:\n${stderr}`));
    });
  });
}
/** The example's networks: name in the table, forked chain id, chain id the fork answers with. */
const NETWORKS = [
  ["1", 73571],
  ["8453", 84530],
  ["42161", 42170],
] as const;

describe("chainform up", () => {
  beforeAll(assertProviderBuilt);
  const outDirs: string[] = [];
  /** A pull request number of its own per run, so the stack, its state file and the slug are the test's alone. */
  const pullRequest = () => String(100_000 + Math.floor(Math.random() * 800_000));
  const appEnv = (pr: string) => {
    const outDir = mkdtempSync(join(tmpdir(), "chainform-cli-up-"));
    outDirs.push(outDir);
    return { PR_NUMBER: pr, CDKTF_OUTDIR: outDir };
  };

  beforeAll(assertCliBuilt);
  afterAll(() => {
    for (const dir of outDirs) rmSync(dir, { recursive: true, force: true });
    // The example's local backend keeps state files in the app directory: remove this test's.
    for (const file of readdirSync(EXAMPLE)) {
      if (/^terraform\.pr-\d{6}\.tfstate/.test(file)) rmSync(join(EXAMPLE, file), { force: true });
    }
  });

  it("starts the embedded service, applies the example, prints and checks the RPC URLs, destroys, exits 0", async () => {
    // With --keep, --log-file, --max-chains and --rpc-timeout (issue 42, items 6 and 9): the embedded service logs to
    // the file, and --keep prints the settings with which other commands reach it, access key included.
    const pr = pullRequest();
    const env = appEnv(pr);
    const logFile = join(env.CDKTF_OUTDIR, "service.log");
    const child = startCli(["up", "--keep", "--log-file", logFile, "--max-chains", "8", "--rpc-timeout", "45"], { env });
    const done = collect(child, 240_000);
    const output = await keptUp(child);
    const exported = /^ {2}export (.+)$/m.exec(output.stderr());
    expect(exported).not.toBeNull();
    const settings = Object.fromEntries([...exported![1].matchAll(/(CHAINFORM_[A-Z_]+)='([^']*)'/g)].map((m) => [m[1], m[2]]));
    expect(Object.keys(settings).sort()).toEqual(["CHAINFORM_ACCESS_KEY", "CHAINFORM_ACCOUNT", "CHAINFORM_BASE_URL", "CHAINFORM_PROJECT"]);
    const listed = await runCli(["environments"], { env: settings });
    expect({ code: listed.code, stderr: listed.stderr }).toEqual({ code: 0, stderr: "" });
    expect(listed.stdout).toContain(`pr-${pr}-multichain`);
    child.kill("SIGINT");
    const result = await done;
    if (result.code !== 0) throw new Error(`up exited ${result.code}:\n${result.stderr}`);
    const logged = readFileSync(logFile, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { msg?: string });
    expect(logged.filter((line) => line.msg === "incoming request").length).toBeGreaterThan(3);

    // The plan is shown, then the table, one row per network, without Admin RPC URLs.
    expect(result.stdout).toMatch(/chainform_environment\.\S+ will be created/);
    expect(result.stdout).toMatch(/Plan: 1 to add, 0 to change, 0 to destroy\./);
    expect(result.stdout).toMatch(/^ENVIRONMENT +NETWORK +CHAIN ID +PUBLIC RPC URL$/m);
    for (const [networkId, chainId] of NETWORKS) {
      expect(result.stdout).toMatch(
        new RegExp(`^pr-${pr}-multichain +.*\\(${networkId}\\) +${chainId} +http://127\\.0\\.0\\.1:\\d+/rpc/public/\\S+$`, "m"),
      );
    }
    expect(result.stdout + result.stderr).not.toMatch(/rpc\/admin\/(?!\[redacted\])/);
    expect(result.stdout).not.toMatch(/ADMIN RPC URL/);

    // Every step, with its timing, in order.
    const steps = [
      "start the local service (in memory)",
      "find terraform",
      "check the chainform service",
      "synthesize examples/cdktf/multichain-ci",
      "terraform init",
      "terraform plan",
      "terraform apply",
      "check 3 Public RPC URL(s) and 3 prefunded balance(s)",
      "terraform destroy",
    ];
    let last = -1;
    for (const step of steps) {
      const at = result.stderr.indexOf(`✓ ${step} (`);
      expect(at).toBeGreaterThan(last);
      last = at;
    }
    expect(result.stderr).toMatch(/✓ up: applied, checked and destroyed in \d/);
  }, 300_000);

  describe("--keep against a service of the test's own", () => {
    let service: TestService;
    beforeAll(async () => {
      service = await startTestService();
    });
    afterAll(async () => {
      await service?.close();
    });

    it("leaves everything running until Ctrl-C, with Admin RPC URLs under --show-secrets, then destroys", async () => {
      const pr = pullRequest();
      const child = startCli(["up", "--keep", "--show-secrets"], { env: { ...serviceEnv(service), ...appEnv(pr) } });
      const done = collect(child, 240_000);
      const output = await keptUp(child);

      // THEN it used the test's service (no embedded one), and the environment is there
      expect(output.stderr()).not.toMatch(/start the local service/);
      const client = clientFor(service);
      try {
        expect(await slugsOf(client)).toEqual([`pr-${pr}-multichain`]);
        // AND the table has the Admin RPC URLs, which answer with the right chain id too
        expect(output.stdout()).toMatch(/^ENVIRONMENT +NETWORK +CHAIN ID +PUBLIC RPC URL +ADMIN RPC URL$/m);
        const adminUrls = [...output.stdout().matchAll(/ (http:\/\/127\.0\.0\.1:\d+\/rpc\/admin\/\S+)$/gm)].map((m) => m[1]);
        expect(adminUrls).toHaveLength(3);
        const answer = await fetch(adminUrls[0], {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] }),
        });
        expect(NETWORKS.map(([, chainId]) => `0x${chainId.toString(16)}`)).toContain(((await answer.json()) as { result: string }).result);

        // WHEN Ctrl-C
        child.kill("SIGINT");
        const result = await done;
        // THEN it destroyed everything and exited 0
        expect(result.code).toBe(0);
        expect(result.stderr).toContain("✓ terraform destroy (");
        expect(await slugsOf(client)).toEqual([]);
      } finally {
        if (child.exitCode === null) child.kill("SIGKILL");
        await client.close();
      }
    }, 300_000);
  });
});
