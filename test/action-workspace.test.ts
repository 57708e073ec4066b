/**
 * The Action as GitHub's runner runs it from a fresh checkout of the action's repository (action.yml, action/ and
 * package.json, no dist/ and no node_modules): plain Node on its main and post scripts, inputs as INPUT_*, in a
 * workspace that installed chainform (this repository's `npm pack` tarball, unpacked into
 * workspace/node_modules/chainform, its dependencies linked from this repository's node_modules as an `npm install`
 * would have put them). It must run that copy: no npm, no build, and the log says which copy and from where. The
 * checkout's package.json is named chainform and has `exports`, so `require.resolve` from there finds the checkout
 * itself (Node's self-reference); this is what Jest's resolver hides and this test does not.
 */
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { alive, expectSucceeded, RunnerJob, type StepResult } from "./helpers/actions-runner";
import { assertCliBuilt, ROOT } from "./helpers/cli";

const version = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string }).version;

/** A checkout of the action's repository at its ref, as the runner makes it: the files in git, nothing built. */
function actionCheckout(into: string): string {
  const checkout = join(into, "action-checkout");
  mkdirSync(checkout);
  for (const path of ["action.yml", "action", "package.json"]) cpSync(join(ROOT, path), join(checkout, path), { recursive: true });
  return checkout;
}

/** chainform installed into `workspace` from this repository's package tarball, its dependencies beside it. */
function installChainform(workspace: string, scratch: string): string {
  // --ignore-scripts: pack what dist/ holds now (built before the tests), without running prepack's build again.
  const tarball = execFileSync("npm", ["pack", "--ignore-scripts", "--silent", "--pack-destination", scratch], {
    cwd: ROOT,
    encoding: "utf8",
  })
    .trim()
    .split("\n")
    .pop()!;
  const installed = join(workspace, "node_modules", "chainform");
  mkdirSync(installed, { recursive: true });
  execFileSync("tar", ["-xzf", join(scratch, tarball), "-C", installed, "--strip-components=1"]);
  // The registry is out of reach here: the dependencies npm would install come from this repository's node_modules.
  symlinkSync(join(ROOT, "node_modules"), join(installed, "node_modules"), "dir");
  return installed;
}

describe("the action, run by plain Node from its checkout, in a workspace that installed chainform", () => {
  const dir = mkdtempSync(join(tmpdir(), "chainform-action-workspace-"));
  const inputs = { networks: "1", "chain-id-prefix": "7357" };
  let checkout: string;
  let installed: string;
  let job: RunnerJob;
  let main: StepResult;

  beforeAll(async () => {
    assertCliBuilt();
    checkout = actionCheckout(dir);
    // Any npm call would fail at once rather than fetch: the test is that none is made.
    job = new RunnerJob({ npm_config_offline: "true", npm_config_registry: "http://127.0.0.1:9/" }, checkout);
    installed = installChainform(job.workspace, dir);
    main = await job.main(inputs).done;
  }, 300_000);
  afterAll(() => {
    const pid = Number(main?.state.service_pid ?? 0);
    if (pid && alive(pid)) process.kill(pid, "SIGKILL");
    rmSync(job.dir, { recursive: true, force: true });
    rmSync(dir, { recursive: true, force: true });
  });

  it("runs the workspace's chainform, says so with its path, and neither installs nor builds anything", async () => {
    expectSucceeded(main);
    expect(main.stdout).toContain(
      `chainform: the workspace's own chainform ${version} (${installed}), run by Node ${process.versions.node}`,
    );
    expect(main.state.bin).toBe(join(installed, "bin", "chainform"));
    expect(main.stdout).not.toMatch(/Installing chainform|npm ci/);
    expect(existsSync(join(checkout, "node_modules"))).toBe(false);
    expect(existsSync(join(checkout, "dist"))).toBe(false);
    expect(existsSync(join(job.dir, "toolcache"))).toBe(false);
    const response = await fetch(main.outputs.mainnet_rpc_url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] }),
    });
    expect(Number(((await response.json()) as { result: string }).result)).toBe(73571);
  });

  it("its post step runs the same copy, destroys the environment and stops the service", async () => {
    const pid = Number(main.state.service_pid);
    expect(alive(pid)).toBe(true);
    const post = await job.post(inputs, main.state).done;
    expectSucceeded(post);
    expect(post.stderr).toContain("✓ terraform destroy");
    expect(alive(pid)).toBe(false);
    expect(existsSync(join(checkout, "node_modules"))).toBe(false);
  }, 180_000);
});
