/**
 * The GitHub Action's `fixture` input, run as GitHub's runner runs the action (test/helpers/actions-runner.ts): the
 * local service it starts imports the file before its ready line, so the job begins from the deployed environment
 * (no app needed); the outputs name the imported environments and the first network's RPC URL; the post step stops
 * the service. A fixture that is not there, or one given with base-url, is an input error before anything starts.
 */
import { copyFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { alive, expectSucceeded, HOSTED_SERVICE_INPUTS, RunnerJob, type StepResult } from "./helpers/actions-runner";
import { assertCliBuilt } from "./helpers/cli";
import { rpc } from "./helpers/http";

jest.setTimeout(240_000);

let job: RunnerJob;
let main: StepResult | undefined;

beforeAll(() => {
  assertCliBuilt();
  job = new RunnerJob();
  // test/data/fixture-v1.chainform: network 10 with the Store contract (test/helpers/fixtures.ts) set to 1.
  copyFileSync(join(__dirname, "data", "fixture-v1.chainform"), join(job.workspace, "app.chainform"));
});

afterAll(() => {
  const pid = Number(main?.state.service_pid ?? 0);
  if (pid && alive(pid)) process.kill(pid, "SIGKILL");
  rmSync(job.dir, { recursive: true, force: true });
});

test("fixture: the local service imports it as it starts; the job's steps find the environment's state", async () => {
  const inputs = { fixture: "app.chainform" };
  main = await job.main(inputs).done;
  expectSucceeded(main);
  const environments = JSON.parse(main.outputs["fixture-environments"]) as { slug: string; active_instance: { vnets: unknown[] } }[];
  expect(environments.map((e) => e.slug)).toEqual(["version-one"]);
  expect(main.outputs["fixture-environments"]).not.toContain("/rpc/admin/");
  const url = main.outputs.eth_rpc_url;
  expect(await rpc(url, "eth_chainId")).toBe("0xa");
  expect(await rpc(url, "eth_getStorageAt", ["0x6b182f1488e8efeb2eb298155ed5bd7ff8a14042", "0x0", "latest"])).toBe(`0x${"0".repeat(63)}1`);
  expect(main.env.CHAINFORM_BASE_URL).toBe(main.outputs["base-url"]);
  const post = await job.post(inputs, main.state).done;
  expect(post.code).toBe(0);
  expect(alive(Number(main.state.service_pid))).toBe(false);
});

test("a fixture that is not in the workspace, or one given with base-url, is an input error naming it", async () => {
  const missing = await job.main({ fixture: "nothing.chainform" }).done;
  expect(missing.code).not.toBe(0);
  expect(missing.stdout + missing.stderr).toMatch(/fixture.*names nothing\.chainform, which is not in the workspace/);
  expect(missing.state.service_pid).toBeUndefined();
  const remote = await job.main({ fixture: "app.chainform", ...HOSTED_SERVICE_INPUTS }).done;
  expect(remote.code).not.toBe(0);
  expect(remote.stdout + remote.stderr).toMatch(/fixture.*with base-url, run `npx chainform import FILE`/);
});
