/**
 * The fleet on one machine (docs/oci-store.md), with the real CLI, a real registry, real anvils and forge:
 * 1. One job forks network 1 at a pinned block with the upstream live, runs a Foundry fork suite against its RPC URL
 *    (recording, and publishing to the fleet's shared fork cache, what the suite reads) and pushes its environment
 *    as a fixture. Then 12 jobs start in parallel from that fixture and the shared recordings with the upstream
 *    stopped (an endpoint that counts what it is asked and never answers): every job's `forge test --fork-url`
 *    against its own RPC URL passes, and none asked an upstream.
 * 2. A cold fleet against a live upstream that counts: 12 jobs at once, then 12 more; the second wave asks it
 *    nothing, the first well under 12 times what one job asks alone.
 * Heavy on 2 cores (12 services, 12 anvils, 12 forges at once): each job's suite is two small tests, and every wait
 * has a generous deadline.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { assertCliBuilt, runCli, serviceEnv } from "./helpers/cli";
import { forgeProject, type ForgeProject } from "./helpers/forge";
import { runFleetJob } from "./helpers/fleet-job";
import { ALICE, BOB, DEPLOYER, startForkUpstream, type ForkUpstream } from "./helpers/fork-upstream";
import { startRegistry, type TestRegistry } from "./helpers/registry";
import { viem } from "./helpers/viem";

jest.setTimeout(900_000);

const FLEET = 12;
let upstream: ForkUpstream;
let registry: TestRegistry;
let project: ForgeProject;
let block: string;

/** Two fork tests of the upstream's token: balances as the upstream's history left them, and a transfer. */
function suite(token: string): Record<string, string> {
  const at = (address: string) => viem.getAddress(address);
  return {
    "src/IToken.sol": `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
interface IToken {
    function totalSupply() external view returns (uint256);
    function balanceOf(address who) external view returns (uint256);
    function transfer(address to, uint256 value) external returns (bool);
}
`,
    "test/Fleet.t.sol": `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;
import {IToken} from "../src/IToken.sol";
interface Vm { function prank(address who) external; }
contract FleetForkTest {
    Vm internal constant vm = Vm(address(uint160(uint256(keccak256("hevm cheat code")))));
    IToken internal constant TOKEN = IToken(${at(token)});
    address internal constant DEPLOYER = ${at(DEPLOYER)};
    address internal constant ALICE = ${at(ALICE)};
    address internal constant BOB = ${at(BOB)};

    function test_balancesAreTheForkedNetworks() public view {
        uint256 alice = TOKEN.balanceOf(ALICE);
        uint256 bob = TOKEN.balanceOf(BOB);
        require(bob > 0 && alice == 6 * bob, "ALICE holds 300 and BOB 50 at the fork point");
        require(TOKEN.balanceOf(DEPLOYER) + alice + bob == TOKEN.totalSupply(), "the holders hold the supply");
    }

    function test_aliceCanPayBob() public {
        uint256 before = TOKEN.balanceOf(BOB);
        vm.prank(ALICE);
        TOKEN.transfer(BOB, 1);
        require(TOKEN.balanceOf(BOB) == before + 1, "BOB got it");
    }
}
`,
  };
}

const registryEnv = () => ({
  CHAINFORM_CA_FILE: registry.caFile,
  CHAINFORM_OCI_USERNAME: registry.username,
  CHAINFORM_OCI_PASSWORD: registry.password,
});

/** forge's own fork cache is off: every state read must reach the job's RPC URL. */
const forkSuite = (rpc: string) => project.forge(["test", "--fork-url", rpc, "--no-storage-caching"]);

beforeAll(async () => {
  assertCliBuilt();
  [upstream, registry] = await Promise.all([startForkUpstream(), startRegistry({ auth: "htpasswd" })]);
  block = `0x${upstream.history.aliceTopped.toString(16)}`;
  project = await forgeProject(suite(upstream.history.token));
  await project.forge(["build"]);
});

afterAll(async () => {
  await Promise.all([upstream?.close(), registry?.stop(), project?.close()]);
});

/** An upstream that is down: it counts the connections it is asked on and closes each without an answer. */
async function stoppedUpstream(): Promise<{ url: string; asked: () => number; close: () => Promise<void> }> {
  let asked = 0;
  const server: Server = createServer((request) => {
    asked += 1;
    request.socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v2/stopped`,
    asked: () => asked,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

test(`${FLEET} jobs from one pushed fixture and the shared recordings, with the upstream stopped, pass their Foundry fork suites`, async () => {
  const env = registryEnv();
  const cache = `oci://${registry.host}/acme/fleet-cache:suite`;
  const fixture = `oci://${registry.host}/acme/fixtures:fleet-base`;
  // The job that makes the fixture: the suite passes against the live fork, and what it read is published.
  const maker = await runFleetJob({
    serveArgs: ["--fork", `1=${upstream.url}`, "--fork-cache", cache],
    block,
    token: upstream.history.token,
    env,
    work: async (rpc, ready) => {
      const tested = await forkSuite(rpc);
      const environments = `${ready.baseUrl}/public/v1/account/${ready.accountSlug}/project/${ready.projectSlug}/environments`;
      const listed = (await (await fetch(environments, { headers: { "X-Access-Key": ready.accessKey } })).json()) as {
        environments: { slug: string }[];
      };
      const exported = await runCli(["export", listed.environments[0]!.slug, "--output", fixture], {
        env: { ...serviceEnv(ready), ...env },
      });
      if (exported.code !== 0) throw new Error(`export failed: ${exported.stderr}`);
      return tested.stdout;
    },
  });
  expect(maker.work).toMatch(/2 passed; 0 failed/);

  const stopped = await stoppedUpstream();
  try {
    const jobs = await Promise.all(
      Array.from({ length: FLEET }, () =>
        runFleetJob({
          serveArgs: ["--import", fixture, "--fork", `1=${stopped.url}`, "--fork-cache", cache],
          token: upstream.history.token,
          env,
          work: async (rpc) => (await forkSuite(rpc)).stdout,
        }),
      ),
    );
    for (const job of jobs) {
      expect(job.work).toMatch(/2 passed; 0 failed/);
      expect(job.answers).toEqual(maker.answers);
    }
    expect(stopped.asked()).toBe(0);
  } finally {
    await stopped.close();
  }
});

test(`a cold fleet of ${FLEET} at once shares what it asks the live upstream, and the next ${FLEET} ask it nothing`, async () => {
  const env = registryEnv();
  const job = (cache: string) =>
    runFleetJob({ serveArgs: ["--fork", `1=${upstream.url}`, "--fork-cache", cache], block, token: upstream.history.token, env });
  // One job alone, cold (a repository of its own): what a job of the fleet would ask without sharing.
  let mark = upstream.methods.length;
  await job(`oci://${registry.host}/acme/alone:suite`);
  const alone = upstream.methods.length - mark;

  const cache = `oci://${registry.host}/acme/cold-fleet:suite`;
  mark = upstream.methods.length;
  const first = await Promise.all(Array.from({ length: FLEET }, () => job(cache)));
  const firstWave = upstream.methods.length - mark;
  mark = upstream.methods.length;
  const second = await Promise.all(Array.from({ length: FLEET }, () => job(cache)));
  const secondWave = upstream.methods.length - mark;
  console.log(
    `cold fleet of ${FLEET}: one job alone asked the upstream ${alone} times; the first wave ${firstWave} (${(firstWave / FLEET).toFixed(1)} a job), the second ${secondWave}`,
  );
  for (const run of [...first, ...second]) expect(run.answers).toEqual(first[0]!.answers);
  expect(secondWave).toBe(0);
  // Well under 12 times one job's: the wave shares what its first jobs recorded.
  expect(firstWave).toBeLessThan((FLEET * alone) / 2);
});
