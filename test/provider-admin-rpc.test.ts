/**
 * Acceptance: Admin RPC URLs that never touch Terraform state, through real terraform and the offline mirror,
 * against the local service (docs/secrets.md).
 *
 * 1. The ephemeral `chainform_admin_rpc` of an environment made outside Terraform feeds a `local-exec`
 *    provisioner that sends a transaction with Foundry's `cast` through it; the transaction lands, and neither the
 *    state file, `terraform show -json` of the state, nor `terraform show -json` of a saved plan holds an Admin RPC
 *    URL. Bad arguments fail with the attribute at fault; a read-only key gets an error naming what to use.
 * 2. A whole environment with a contract, balances and a snapshot, first with the provider's default (Admin RPC
 *    URLs in state: the grep finds them, so the check can fail), then with `admin_rpc_urls_in_state = false`: one
 *    apply removes them from state, the chain-state resources keep working, the Public RPC outputs still work,
 *    and nothing in state or in a saved plan holds an Admin RPC URL.
 * 3. examples/hcl/admin_rpc applies as written.
 */
import { copyFileSync, existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Client, Environment } from "../lib/client";
import { acceptance, PROVIDER_BLOCK, providerEnv, type Acceptance, type StepContext } from "./helpers/acceptance";
import { clientFor, startTestService, type TestService } from "./helpers/service";
import { createPublicClient, http } from "./helpers/viem";

const ALICE = "0x00000000000000000000000000000000000a11ce";
const BOB = "0x0000000000000000000000000000000000000b0b";
const CAST = join(__dirname, "..", "node_modules", ".bin", "cast");
// Every Admin RPC URL of the local service (HTTP and WebSocket) has this in its path; Public RPC URLs do not.
const ADMIN_PATH = "/rpc/admin/";

/** A provisioner that sends 1 ether from Alice to Bob through the Admin RPC (which may send as any address). */
const castSend = (admin: string) => `
resource "terraform_data" "send" {
  provisioner "local-exec" {
    command     = "${CAST} send --unlocked --from ${ALICE} ${BOB} --value 1ether --rpc-url \\"$ADMIN_RPC_URL\\""
    environment = { ADMIN_RPC_URL = ${admin} }
  }
}
`;

/**
 * What Terraform keeps: the state file and `terraform show -json` of the state, and with `plan`, `terraform show
 * -json` of the plan file the last plan step saved (its entries are compressed, so the file itself is not grepped).
 */
async function keptText(ctx: StepContext, plan = false): Promise<string> {
  const stateFile = join(ctx.tf.dir, "terraform.tfstate");
  const parts = [existsSync(stateFile) ? readFileSync(stateFile, "utf8") : "", (await ctx.tf.expect(["show", "-json"])).stdout];
  if (plan) parts.push((await ctx.tf.expect(["show", "-json", "tfplan"])).stdout);
  return parts.join("\n");
}

const adminUrlsOf = (environment: Environment) =>
  environment.active_instance.vnets.flatMap((vnet) => vnet.rpcs.filter((rpc) => rpc.name.startsWith("Admin")).map((rpc) => rpc.url));

describe("Admin RPC URLs kept out of state", () => {
  let service: TestService;
  let client: Client;

  beforeAll(async () => {
    service = await startTestService();
    client = clientFor(service);
  }, 60_000);

  afterAll(async () => {
    await client?.close();
    await service?.close();
  });

  const balance = async (environment: Environment, address: string) =>
    createPublicClient({
      transport: http(environment.active_instance.vnets[0]!.rpcs.find((r) => r.name === "Public RPC")!.url),
    }).getBalance({
      address: address as `0x${string}`,
    });

  describe("the ephemeral chainform_admin_rpc", () => {
    let run: Acceptance;
    let environment: Environment;

    beforeAll(async () => {
      environment = await client.createEnvironment({
        display_name: "Ephemeral admin",
        slug: "acc-ephemeral-admin",
        network_configs: [{ network_id: "1", accounts: [{ address: ALICE, balance: "0x56bc75e2d63100000" }] }],
      });
      run = await acceptance({ env: providerEnv(service) });
    }, 60_000);

    afterAll(async () => {
      await run?.tf.run("destroy", "-auto-approve", "-input=false");
      run?.dispose();
    }, 120_000);

    const config = (rpc: string) => `${PROVIDER_BLOCK}
provider "chainform" {}

ephemeral "chainform_admin_rpc" "main" {
  ${rpc}
}
${castSend("ephemeral.chainform_admin_rpc.main.url")}
`;

    test("feeds a provisioner that sends a transaction, and stays out of state and plan files", async () => {
      const urls = adminUrlsOf(environment);
      expect(urls).toHaveLength(2); // HTTP and WebSocket
      await run.steps([
        {
          name: "both network_id and vnet_id",
          config: config(
            `environment_id = "${environment.id}"\n  network_id = "1"\n  vnet_id = "${environment.active_instance.vnets[0]!.id}"`,
          ),
          command: "plan",
          expectError: /Conflicting arguments[\s\S]*vnet_id = [\s\S]*Set network_id or vnet_id, not both/,
        },
        {
          name: "an environment that does not exist",
          config: config(`environment_id = "00000000-0000-4000-8000-000000000000"\n  network_id = "1"`),
          command: "plan",
          expectError: /No such environment[\s\S]*environment_id = [\s\S]*has no environment 00000000-0000-4000-8000-000000000000/,
        },
        {
          name: "a network the environment does not fork",
          config: config(`environment_id = "${environment.id}"\n  network_id = "8453"`),
          command: "plan",
          expectError: /No such Virtual Environment[\s\S]*network 8453[\s\S]*network 1/,
        },
        {
          name: "apply: the provisioner sends 1 ether through the Admin RPC",
          config: config(`environment_id = "${environment.id}"\n  network_id = "1"`),
          command: "apply",
          async check(ctx, result) {
            expect(result.stdout).toContain("terraform_data.send: Creation complete");
            // cast send waited for the receipt: the transfer is on the chain.
            expect(await balance(environment, BOB)).toBe(10n ** 18n);
            const kept = await keptText(ctx);
            expect(kept).toContain("ephemeral.chainform_admin_rpc.main"); // the grep looks at the right text
            expect(kept).not.toContain(ADMIN_PATH);
            for (const url of urls) expect(kept).not.toContain(url);
            expect(result.stdout + result.stderr).not.toContain(ADMIN_PATH);
          },
        },
        {
          name: "a saved plan opens it again (by vnet_id now) and holds no Admin RPC URL either",
          config: config(`vnet_id = "${environment.active_instance.vnets[0]!.id}"\n  environment_id = "${environment.id}"`),
          command: "plan",
          async check(ctx, result) {
            expect(result.plan).toBeDefined();
            const kept = await keptText(ctx, true);
            expect(kept).toContain("terraform_data.send");
            expect(kept).not.toContain(ADMIN_PATH);
            for (const url of urls) expect(kept).not.toContain(url);
          },
        },
        {
          name: "a read-only key gets no Admin RPC: the plan fails saying what to use, without any URL",
          async check(ctx) {
            const plan = await ctx.tf.withEnv({ CHAINFORM_ACCESS_KEY: service.keys.bob }).run("plan", "-input=false", "-no-color");
            expect(plan.code).toBe(1);
            expect(plan.stderr.replace(/\s+/g, " ")).toMatch(
              /The service did not give the Admin RPC .*leaves it out for credentials that may not write/,
            );
            expect(plan.stdout + plan.stderr).not.toContain(ADMIN_PATH);
          },
          command: "validate",
        },
      ]);
    }, 300_000);
  });

  describe("admin_rpc_urls_in_state = false", () => {
    let run: Acceptance;

    beforeAll(async () => {
      run = await acceptance({ env: providerEnv(service) });
      copyFileSync(join(__dirname, "..", "dist", "contracts", "ChainformToken.json"), join(run.tf.dir, "token.json"));
    }, 60_000);

    afterAll(async () => {
      await run?.tf.run("destroy", "-auto-approve", "-input=false");
      run?.dispose();
    }, 120_000);

    const config = (setting: string) => `${PROVIDER_BLOCK}
provider "chainform" {
  ${setting}
}

resource "chainform_environment" "whole" {
  display_name = "Whole environment"
  network_config {
    network_id = "1"
    account {
      address = "${ALICE}"
      balance = provider::chainform::ether("100")
    }
  }
}

resource "chainform_contract" "token" {
  environment_id   = chainform_environment.whole.id
  vnet_id          = chainform_environment.whole.vnets[0].id
  artifact_path    = "token.json"
  constructor_args = ["Chainform Token", "CFT", 18, 1000000]
}

resource "chainform_erc20_balance" "bob" {
  environment_id = chainform_environment.whole.id
  vnet_id        = chainform_environment.whole.vnets[0].id
  token          = chainform_contract.token.address
  holder         = "${BOB}"
  amount         = provider::chainform::parse_units("2.5", 18)
}

resource "chainform_snapshot" "seeded" {
  environment_id = chainform_environment.whole.id
  vnet_id        = chainform_environment.whole.vnets[0].id
  triggers       = { token = chainform_contract.token.id }
  depends_on     = [chainform_erc20_balance.bob]
}

data "chainform_environment" "same" {
  id = chainform_environment.whole.id
}

ephemeral "chainform_admin_rpc" "main" {
  environment_id = chainform_environment.whole.id
  network_id     = "1"
}
${castSend("ephemeral.chainform_admin_rpc.main.url")}

output "public_rpc_url" {
  value = chainform_environment.whole.public_rpc_urls["1"]
}

output "public_rpc_url_of_vnet" {
  value = chainform_environment.whole.vnets[0].public_rpc_url
}
`;

    test("a whole environment with contracts, balances and snapshots keeps no Admin RPC URL, and Public RPC outputs work", async () => {
      let environment: Environment | undefined;
      const lookUp = async (ctx: StepContext) =>
        (environment = await client.getEnvironment({ environmentId: (await ctx.resource("chainform_environment.whole")).id as string }));
      await run.steps([
        {
          name: "with the default, state keeps the Admin RPC URLs (what the setting is for)",
          config: config(""),
          command: "apply",
          async check(ctx) {
            const env = await lookUp(ctx);
            expect(await keptText(ctx)).toContain(adminUrlsOf(env)[0]);
          },
        },
        {
          name: "admin_rpc_urls_in_state = false: one apply takes them out; everything else keeps working",
          config: config("admin_rpc_urls_in_state = false"),
          command: "apply",
          async check(ctx) {
            const env = environment!;
            const state = await ctx.resource("chainform_environment.whole");
            expect(state.admin_rpc_urls).toEqual({});
            expect((state.vnets as { admin_rpc_url: unknown }[])[0]!.admin_rpc_url).toBeNull();
            const outputs = await ctx.outputs();
            expect(outputs.public_rpc_url!.value).toBe(env.active_instance.vnets[0]!.rpcs.find((r) => r.name === "Public RPC")!.url);
            expect(outputs.public_rpc_url_of_vnet!.value).toBe(outputs.public_rpc_url!.value);
            const kept = await keptText(ctx);
            expect(kept).toContain("/rpc/public/");
            expect(kept).not.toContain(ADMIN_PATH);
            for (const url of adminUrlsOf(env)) expect(kept).not.toContain(url);
          },
        },
        {
          name: "the plan after that is empty, and the saved plan holds no Admin RPC URL",
          command: "plan",
          expectNoChanges: true,
          async check(ctx) {
            const kept = await keptText(ctx, true);
            expect(kept).toContain("chainform_snapshot.seeded");
            expect(kept).not.toContain(ADMIN_PATH);
          },
        },
        {
          name: "the chain state is there: the token balance, and the provisioner's transfer",
          async before() {
            const chain = createPublicClient({
              transport: http(environment!.active_instance.vnets[0]!.rpcs.find((r) => r.name === "Public RPC")!.url),
            });
            expect(await balance(environment!, BOB)).toBe(10n ** 18n);
            expect(await chain.getBalance({ address: ALICE })).toBeLessThan(99n * 10n ** 18n);
          },
          command: "plan",
          expectNoChanges: true,
        },
        {
          name: "a replacement of the balance (through the Admin RPC, not state) plans and applies",
          config: config("admin_rpc_urls_in_state = false").replace('parse_units("2.5", 18)', 'parse_units("3", 18)'),
          command: "apply",
          async check(ctx) {
            expect(await keptText(ctx)).not.toContain(ADMIN_PATH);
            expect((await ctx.resource("chainform_erc20_balance.bob")).amount).toBe("3000000000000000000");
          },
        },
      ]);
    }, 600_000);
  });

  describe("examples/hcl/admin_rpc", () => {
    let run: Acceptance;

    beforeAll(async () => {
      run = await acceptance({ env: providerEnv(service) });
    }, 60_000);

    afterAll(async () => {
      await run?.tf.run("destroy", "-auto-approve", "-input=false", `-var=cast=${CAST}`);
      run?.dispose();
    }, 120_000);

    test("applies as written: Bob is paid through the Admin RPC, which nothing kept holds", async () => {
      await run.steps([
        {
          name: "apply the example",
          config: readFileSync(join(__dirname, "..", "examples", "hcl", "admin_rpc", "main.tf"), "utf8"),
          command: "apply",
          args: [`-var=cast=${CAST}`],
          async check(ctx) {
            const env = await client.getEnvironment({ environmentId: (await ctx.resource("chainform_environment.this")).id as string });
            expect(await balance(env, BOB)).toBe(10n ** 18n);
            expect((await ctx.outputs()).public_rpc_url!.value).toMatch(/\/rpc\/public\//);
            const kept = await keptText(ctx);
            expect(kept).toContain("/rpc/public/");
            expect(kept).not.toContain(ADMIN_PATH);
          },
        },
        {
          name: "plan is empty, and the saved plan holds no Admin RPC URL",
          command: "plan",
          args: [`-var=cast=${CAST}`],
          expectNoChanges: true,
          check: async (ctx) => expect(await keptText(ctx, true)).not.toContain(ADMIN_PATH),
        },
      ]);
    }, 300_000);
  });
});
