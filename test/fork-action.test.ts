/**
 * The GitHub Action's `offline-empty-accounts` input, run as GitHub's runner runs the action
 * (test/helpers/actions-runner.ts): the local service it starts imports a fixture of a fork whose upstream is gone;
 * with the input, ether sent to an address the fork never recorded is mined (the account reads as empty); without it,
 * the same send is answered at once with an error naming the read never recorded. Given with base-url, the input is
 * an input error before anything starts.
 */
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { alive, expectSucceeded, HOSTED_SERVICE_INPUTS, RunnerJob, type StepResult } from "./helpers/actions-runner";
import { assertCliBuilt } from "./helpers/cli";
import { ALICE, startForkUpstream } from "./helpers/fork-upstream";
import { ENVIRONMENTS, exportFixture, type CreatedEnvironment } from "./helpers/fixtures";
import { call } from "./helpers/http";
import { startTestService } from "./helpers/service";

jest.setTimeout(300_000);

/** An address neither the upstream nor the fork's live run ever read. */
const NOBODY = "0x00000000000000000000000000000000000fe5a1";

let job: RunnerJob;
const mains: StepResult[] = [];

beforeAll(async () => {
  assertCliBuilt();
  job = new RunnerJob();
  // A fork recorded live, exported as a fixture; then the upstream is gone for good.
  const upstream = await startForkUpstream();
  const live = await startTestService({ forkUrls: { "1": upstream.url } });
  try {
    const created = await call(live, "POST", ENVIRONMENTS, {
      as: "alice",
      body: {
        display_name: "fork for the action",
        slug: "action-fork",
        network_configs: [{ network_id: "1", accounts: [{ address: ALICE, balance: "0x56bc75e2d63100000" }] }],
      },
    });
    if (created.status !== 200) throw new Error(`create: ${created.status} ${created.text}`);
    writeFileSync(join(job.workspace, "fork.chainform"), await exportFixture(live, (created.body as CreatedEnvironment).id));
  } finally {
    await live.close();
    await upstream.close();
  }
});

afterAll(() => {
  for (const main of mains) {
    const pid = Number(main.state.service_pid ?? 0);
    if (pid && alive(pid)) process.kill(pid, "SIGKILL");
  }
  rmSync(job.dir, { recursive: true, force: true });
});

/** Runs the main step with the fixture, sends ether to NOBODY through the API, and runs the post step. */
async function sendToNobody(inputs: Record<string, string>): Promise<{ status: number; body: any }> {
  const main = await job.main({ fixture: "fork.chainform", ...inputs }).done;
  mains.push(main);
  expectSucceeded(main);
  const [environment] = JSON.parse(main.outputs["fixture-environments"]) as CreatedEnvironment[];
  const vnet = environment!.active_instance.vnets[0]!;
  const { local_base_url: baseUrl, local_access_key: accessKey, local_account: account, local_project: project } = main.state;
  const path = `/public/v1/account/${account}/project/${project}/environments/${environment!.id}/instance/${environment!.active_instance.id}/vnet/${vnet.id}/transactions`;
  const response = await fetch(`${baseUrl}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", "X-Access-Key": accessKey! },
    body: JSON.stringify({ callArgs: { from: ALICE, to: NOBODY, value: "0x2a" } }),
  });
  const sent = { status: response.status, body: await response.json() };
  const post = await job.post(inputs, main.state).done;
  expect(post.code).toBe(0);
  expect(alive(Number(main.state.service_pid))).toBe(false);
  return sent;
}

test("offline-empty-accounts: true lets the imported fork send ether to an address it never recorded; without it, that send is a named error", async () => {
  const empty = await sendToNobody({ "offline-empty-accounts": "true" });
  expect([empty.status, empty.body.status, empty.body.to]).toEqual([200, "success", NOBODY]);
  const strict = await sendToNobody({});
  expect([strict.status, strict.body.error?.message]).toEqual([
    400,
    expect.stringMatching(/^the transaction was not sent: never recorded: eth_get\w+ of account 0x0{35}fe5a1 at block \d+ of network 1/),
  ]);
});

test("offline-empty-accounts with base-url, or not a boolean, is an input error naming it; nothing starts", async () => {
  const remote = await job.main({ "offline-empty-accounts": "true", networks: "1", ...HOSTED_SERVICE_INPUTS }).done;
  expect(remote.code).not.toBe(0);
  expect(remote.stdout + remote.stderr).toMatch(/offline-empty-accounts is a setting of the local service/);
  const typo = await job.main({ "offline-empty-accounts": "yes please", networks: "1" }).done;
  expect(typo.code).not.toBe(0);
  expect(typo.stdout + typo.stderr).toMatch(/input offline-empty-accounts must be true or false, got "yes please"/);
  expect([remote.state.service_pid, typo.state.service_pid]).toEqual([undefined, undefined]);
});
