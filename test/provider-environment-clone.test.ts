/**
 * `clone_from` of a source with chain-id overrides, as docs/fixtures.md writes it (network_config names the networks,
 * no chain_id), through the real terraform binary and the CLI against the local service on real anvil chains: the
 * clone answers with its source's chain ids and state says so (known after apply, then kept), so the plan after the
 * apply is empty, `chainform deploy` passes its chain-id check and `chainform outputs` gives the source's chain ids.
 * A chain_id written that is not the source's is an error at plan time naming the one to write.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { acceptance, PROVIDER_BLOCK, providerEnv, type Acceptance } from "./helpers/acceptance";
import { assertCliBuilt, runCli, serviceEnv } from "./helpers/cli";
import { call, rpc } from "./helpers/http";
import { ENVIRONMENTS, createEnvironment, type CreatedEnvironment } from "./helpers/fixtures";
import { startTestService, type TestService } from "./helpers/service";
import type { PlannedChange } from "./helpers/terraform";

jest.setTimeout(300_000);

let service: TestService;
let tf: Acceptance;
let source: CreatedEnvironment;

/** The docs' clone: the source's networks in its order, and mainnet's chain id as an output of its own. */
const config = (chainIds: { mainnet?: string; base?: string } = {}) => `${PROVIDER_BLOCK}
provider "chainform" {}

resource "chainform_environment" "clone" {
  display_name = "Clone with chain ids"
  clone_from   = "${source.id}"
  network_config {
    network_id = "1"${chainIds.mainnet ? `\n    chain_id   = "${chainIds.mainnet}"` : ""}
  }
  network_config {
    network_id = "8453"${chainIds.base ? `\n    chain_id   = "${chainIds.base}"` : ""}
  }
}

output "clone_rpc_url" {
  value = one([for vnet in chainform_environment.clone.vnets : vnet.public_rpc_url if vnet.network_id == "1"])
}
output "clone_chain_id" {
  value = one([for vnet in chainform_environment.clone.vnets : vnet.chain_id if vnet.network_id == "1"])
}
`;

const chainIdOf = async (url: string) => BigInt(await rpc<string>(url, "eth_chainId", [])).toString();

beforeAll(async () => {
  assertCliBuilt();
  service = await startTestService();
  // Mainnet answers 73571 (an override); Base keeps its own id.
  source = await createEnvironment(service, "Clone source with chain ids", [
    { network_id: "1", chain_id: "73571" },
    { network_id: "8453" },
  ]);
  tf = await acceptance({ env: providerEnv(service) });
});

afterAll(async () => {
  tf?.dispose();
  await service?.close();
});

test("a clone takes its source's chain ids: state, vnets and outputs say them, and the next plan is empty", async () => {
  await tf.steps([
    {
      name: "the plan leaves the clone's chain ids to the apply",
      config: config(),
      command: "plan",
      check(_ctx, result) {
        const change = result.plan!.resource_changes!.find((c: PlannedChange) => c.address === "chainform_environment.clone")!.change;
        const unknown = change.after_unknown.network_config as { chain_id?: boolean }[];
        expect(unknown.map((n) => n.chain_id === true)).toEqual([true, true]);
      },
    },
    {
      name: "apply",
      command: "apply",
      async check(ctx) {
        const state = await ctx.resource("chainform_environment.clone");
        const networks = state.network_config as { network_id: string; chain_id: string | null }[];
        expect(networks.map((n) => [n.network_id, n.chain_id])).toEqual([
          ["1", "73571"],
          ["8453", null],
        ]);
        const vnets = state.vnets as { network_id: string; chain_id: string; public_rpc_url: string }[];
        expect(vnets.map((v) => [v.network_id, v.chain_id])).toEqual([
          ["1", "73571"],
          ["8453", "8453"],
        ]);
        for (const vnet of vnets) expect(await chainIdOf(vnet.public_rpc_url)).toBe(vnet.chain_id);
        expect((await ctx.outputs()).clone_chain_id.value).toBe("73571");
      },
    },
    { name: "the plan after the apply is empty", command: "plan", expectNoChanges: true },
    { name: "a refresh keeps it so", command: "refresh" },
    { name: "and the plan after the refresh is empty too", command: "plan", expectNoChanges: true },
    {
      name: "the source's chain id written out is the same plan",
      config: config({ mainnet: "73571" }),
      command: "plan",
      expectNoChanges: true,
    },
    {
      name: "another chain id written is an error at plan time naming the one to write",
      config: config({ base: "84530" }),
      command: "plan",
      expectError: /A clone answers with its source's chain id[\s\S]*answers chain id 8453[\s\S]*write chain_id = "8453"/,
    },
    { name: "destroy", config: config(), command: "destroy" },
  ]);
});

test("a new clone with another chain_id than its source's is refused at plan time: nothing is created", async () => {
  const fresh = await acceptance({ env: providerEnv(service) });
  try {
    await fresh.step({
      name: "apply with a chain_id the source does not answer",
      config: config({ mainnet: "5" }),
      command: "apply",
      expectError:
        /network_config\[0\] writes chain_id = "5"\. Remove chain_id from that network_config \(state then holds 73571\) or write chain_id = "73571"/,
    });
    const listed = (await call(service, "GET", `${ENVIRONMENTS}?perPage=100`, { as: "alice" })).body.environments as { slug: string }[];
    expect(listed.map((e) => e.slug)).not.toContain("clone-with-chain-ids");
  } finally {
    fresh.dispose();
  }
});

test("chainform deploy of the docs' clone passes its chain-id check, and outputs give the source's chain ids", async () => {
  const app = mkdtempSync(join(tmpdir(), "chainform-clone-app-"));
  const env = serviceEnv(service);
  try {
    writeFileSync(join(app, "main.tf"), config());
    const deployed = await runCli(["deploy", app], { env, timeoutMs: 240_000 });
    expect(deployed.code === 0 ? 0 : `${deployed.stdout}\n${deployed.stderr}`).toBe(0);
    expect(deployed.stderr + deployed.stdout).not.toMatch(/answered eth_chainId/);
    const outputs = await runCli(["outputs", app], { env, timeoutMs: 120_000 });
    expect(outputs.code).toBe(0);
    const values = JSON.parse(outputs.stdout) as Record<string, unknown>;
    expect([values.mainnet_chain_id, values.base_chain_id, values.clone_chain_id]).toEqual([73571, 8453, "73571"]);
    const again = await runCli(["deploy", app], { env, timeoutMs: 240_000 });
    expect(again.code).toBe(0);
    // The second deploy changed nothing: the clone is not replaced, so its id is the first deploy's.
    expect(JSON.parse((await runCli(["outputs", app], { env })).stdout).mainnet_environment_id).toBe(values.mainnet_environment_id);
    expect((await runCli(["destroy", app], { env, timeoutMs: 240_000 })).code).toBe(0);
  } finally {
    rmSync(app, { recursive: true, force: true });
  }
});
