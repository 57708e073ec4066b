/**
 * The Foundry fork-test suite of test/foundry-suite (32 tests reading and writing a token and a vault, each reading
 * 250 accounts the fork has never seen) passes with `forge test --fork-url` against a vnet's anvil and against its
 * Public RPC URL. How long each takes is bench/rpc.ts's business.
 */
import { forgeProject, type ForgeProject } from "./helpers/forge";
import { foundrySuiteSources, SUITE_TESTS } from "./foundry-suite/load";
import type { BackendChainEngine } from "../lib/service/chains";
import type { Environment } from "../lib/api";
import { startTestService, type TestService } from "./helpers/service";

let service: TestService;
let project: ForgeProject;
let environment: Environment;

beforeAll(async () => {
  service = await startTestService();
  const response = await fetch(`${service.baseUrl}/public/v1/account/acme/project/demo/environments`, {
    method: "POST",
    headers: { ...service.headersOf("alice"), "content-type": "application/json" },
    body: JSON.stringify({
      display_name: "foundry suite",
      network_configs: [
        { network_id: "1", accounts: [{ address: "0x00000000000000000000000000000000000a11ce", balance: "0x56bc75e2d63100000" }] },
      ],
    }),
  });
  environment = (await response.json()) as Environment;
  project = await forgeProject(foundrySuiteSources());
  await project.forge(["build"]);
}, 120_000);
afterAll(async () => {
  await project?.close();
  await service?.close();
});

const publicUrl = () => environment.active_instance.vnets[0].rpcs.find((r) => r.name === "Public RPC")!.url;

test("forge test --fork-url passes through the Public RPC URL and against the vnet's anvil", async () => {
  const through = await project.forge(["test", "--fork-url", publicUrl()]);
  expect(through.stdout).toContain(`${SUITE_TESTS} tests passed, 0 failed`);
  const anvil = (service.app.service.engine as BackendChainEngine).runningNode(environment.active_instance.vnets[0].id)!.rpc.url;
  const direct = await project.forge(["test", "--fork-url", anvil]);
  expect(direct.stdout).toContain(`${SUITE_TESTS} tests passed, 0 failed`);
}, 180_000);
