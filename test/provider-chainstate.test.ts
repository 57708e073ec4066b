/**
 * Acceptance: declarative chain state through real terraform and the offline mirror, against the local service.
 * A 2-network environment, an ERC-20 token deployed on each network from the artifact compiled at build time
 * (dist/contracts/ChainformToken.json), balances for two holders on each network, a snapshot per network, and a
 * `check` block calling the token through chainform_contract_call. Then: an empty second plan; a balance changed
 * out of band plans an in-place update; a changed artifact plans a replacement; an environment deleted out of band
 * is re-created with its contracts; bad input fails with the attribute at fault and leaves nothing in state;
 * destroy leaves nothing.
 */
import { copyFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Client, Environment } from "../lib/client";
import { acceptance, PROVIDER_BLOCK, providerEnv, type Acceptance, type StepResult } from "./helpers/acceptance";
import { clientFor, startTestService, type TestService } from "./helpers/service";
import { createPublicClient, http } from "./helpers/viem";
import { artifact } from "./chains-host";

const ALICE = "0x00000000000000000000000000000000000a11ce";
const BOB = "0x0000000000000000000000000000000000000b0b";
const TOKEN = artifact("ChainformToken");

const config = (extra = "") => `${PROVIDER_BLOCK}
provider "chainform" {}

resource "chainform_environment" "seeded" {
  display_name = "Chain state"
  slug         = "acc-chainstate"
  network_config {
    network_id = "1"
    chain_id   = 73581
  }
  network_config {
    network_id = "8453"
    chain_id   = 84531
  }
}

locals {
  holders = { alice = "${ALICE}", bob = "${BOB}" }
  # (network index, holder) pairs: keys known at plan time.
  balances = { for pair in setproduct([0, 1], ["alice", "bob"]) : "\${pair[0]}-\${pair[1]}" => pair }
}

resource "chainform_contract" "token" {
  count            = 2
  environment_id   = chainform_environment.seeded.id
  vnet_id          = chainform_environment.seeded.vnets[count.index].id
  artifact_path    = "token.json"
  constructor_args = ["Chainform Token", "CFT", 18, 1000000]
}

resource "chainform_erc20_balance" "holders" {
  for_each       = local.balances
  environment_id = chainform_environment.seeded.id
  vnet_id        = chainform_environment.seeded.vnets[each.value[0]].id
  token          = chainform_contract.token[each.value[0]].address
  holder         = local.holders[each.value[1]]
  amount         = each.value[1] == "alice" ? "1000000000000000000000" : "0x3635c9adc5dea00000"
}

resource "chainform_snapshot" "seeded" {
  count          = 2
  environment_id = chainform_environment.seeded.id
  vnet_id        = chainform_environment.seeded.vnets[count.index].id
  triggers       = { token = chainform_contract.token[count.index].id }
  depends_on     = [chainform_erc20_balance.holders]
}

data "chainform_contract_call" "alice" {
  environment_id = chainform_environment.seeded.id
  vnet_id        = chainform_environment.seeded.vnets[1].id
  address        = chainform_contract.token[1].address
  abi            = chainform_contract.token[1].abi
  function       = "balanceOf"
  args           = [local.holders.alice]
  depends_on     = [chainform_erc20_balance.holders]
}

# A data source nested in the check block would be read again on every plan ("config will be reloaded to verify a
# check block"), so no plan would be empty: the check asserts on top-level calls instead.
data "chainform_contract_call" "symbol" {
  environment_id = chainform_environment.seeded.id
  vnet_id        = chainform_environment.seeded.vnets[0].id
  address        = chainform_contract.token[0].address
  function       = "symbol() view returns (string)"
}

check "token" {
  assert {
    condition     = data.chainform_contract_call.symbol.result[0] == "CFT" && data.chainform_contract_call.alice.result[0] == "1000000000000000000000"
    error_message = "The token's symbol is not CFT, or alice does not hold 1000 CFT on Base."
  }
}

output "alice_on_base" {
  value = data.chainform_contract_call.alice.result[0]
}

output "revert" {
  value = [for s in chainform_snapshot.seeded : s.revert_request]
}
${extra}`;

const changeOf = (result: StepResult, address: string) => result.plan?.resource_changes?.find((c) => c.address === address)?.change;

describe("chain state through terraform", () => {
  let service: TestService;
  let client: Client;
  let run: Acceptance;

  beforeAll(async () => {
    service = await startTestService();
    client = clientFor(service);
    run = await acceptance({ env: providerEnv(service) });
    copyFileSync(join(__dirname, "..", "dist", "contracts", "ChainformToken.json"), join(run.tf.dir, "token.json"));
  }, 60_000);

  afterAll(async () => {
    await run?.tf.run("destroy", "-auto-approve", "-input=false");
    run?.dispose();
    await client?.close();
    await service?.close();
  }, 120_000);

  const environment = async (ctx: { resource(a: string): Promise<Record<string, unknown>> }) =>
    client.getEnvironment({ environmentId: (await ctx.resource("chainform_environment.seeded")).id as string });
  const chainOf = (env: Environment, index: number) =>
    createPublicClient({ transport: http(env.active_instance.vnets[index]!.rpcs.find((r) => r.name === "Admin RPC")!.url) });
  const balanceOf = (env: Environment, index: number, token: string, holder: string) =>
    chainOf(env, index).readContract({
      address: token as `0x${string}`,
      abi: TOKEN.abi,
      functionName: "balanceOf",
      args: [holder],
    }) as Promise<bigint>;

  test("deploy, fund, snapshot, check; drift; replacement; re-creation; bad input; destroy", async () => {
    let firstTokens: string[] = [];
    await run.steps([
      {
        name: "create the seeded environment",
        config: config(),
        command: "apply",
        async check(ctx, result) {
          expect(result.stdout + result.stderr).not.toMatch(/Check block assertion|assertion failed/i);
          const env = await environment(ctx);
          const tokens = await Promise.all([0, 1].map((i) => ctx.resource(`chainform_contract.token[${i}]`)));
          firstTokens = tokens.map((t) => t.address as string);
          for (const [i, token] of tokens.entries()) {
            expect(token).toMatchObject({
              vnet_id: env.active_instance.vnets[i]!.id,
              address: expect.stringMatching(/^0x[0-9a-f]{40}$/),
              transaction_hash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
              block_number: expect.any(Number),
              bytecode_hash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
              from: "0x0000000000000000000000000000000000c4a1f0",
            });
            expect(await chainOf(env, i).getCode({ address: token.address as `0x${string}` })).toBe(TOKEN.deployedBytecode);
            expect(await balanceOf(env, i, token.address as string, ALICE)).toBe(10n ** 21n);
            expect(await balanceOf(env, i, token.address as string, BOB)).toBe(10n ** 21n);
            // The deployer keeps the initial supply: balances were written, not transferred.
            expect(await balanceOf(env, i, token.address as string, token.from as string)).toBe(1_000_000n);
          }
          const snapshots = await Promise.all([0, 1].map((i) => ctx.resource(`chainform_snapshot.seeded[${i}]`)));
          expect(snapshots.map((s) => s.id)).toEqual([expect.stringMatching(/^0x[0-9a-f]+$/), expect.stringMatching(/^0x[0-9a-f]+$/)]);
          const outputs = await ctx.outputs();
          expect(outputs.alice_on_base!.value).toBe("1000000000000000000000");
          expect(outputs.revert!.value).toEqual(
            snapshots.map((s) => JSON.stringify({ jsonrpc: "2.0", id: 1, method: "evm_revert", params: [s.id] })),
          );
          // The Admin RPC URLs are in state only where the environment keeps them (sensitive), never in chain state.
          const secrets = env.active_instance.vnets.map((v) =>
            v.rpcs
              .find((r) => r.name === "Admin RPC")!
              .url.split("/")
              .pop()!,
          );
          const chainState = JSON.stringify((await ctx.state()).filter((r) => r.type !== "chainform_environment"));
          for (const secret of secrets) expect(chainState).not.toContain(secret);
        },
      },
      { name: "the second plan is empty", command: "plan", expectNoChanges: true },
      {
        name: "a balance set out of band plans an in-place update",
        async before(ctx) {
          const env = await environment(ctx);
          await chainOf(env, 0).request({
            method: "tenderly_setErc20Balance" as "eth_chainId",
            params: [firstTokens[0], BOB, "0x5"] as never,
          });
        },
        command: "plan",
        check(_ctx, result) {
          expect(changeOf(result, 'chainform_erc20_balance.holders["0-bob"]')).toMatchObject({
            actions: ["update"],
            before: { amount: "5" },
            after: { amount: "0x3635c9adc5dea00000" },
          });
          const others = result.plan!.resource_changes!.filter(
            (c) =>
              c.address !== 'chainform_erc20_balance.holders["0-bob"]' &&
              !c.change.actions.includes("no-op") &&
              !c.change.actions.includes("read"),
          );
          expect(others).toEqual([]);
        },
      },
      {
        name: "apply sets it again",
        command: "apply",
        async check(ctx) {
          expect(await balanceOf(await environment(ctx), 0, firstTokens[0]!, BOB)).toBe(10n ** 21n);
        },
      },
      { name: "and the plan is empty again", command: "plan", expectNoChanges: true },
      {
        name: "a changed artifact's bytecode plans a replacement of the contracts",
        before(ctx) {
          const changed = { ...TOKEN, bytecode: `${TOKEN.bytecode.slice(0, -4)}0034` };
          writeFileSync(join(ctx.tf.dir, "token.json"), JSON.stringify(changed));
        },
        command: "plan",
        check(_ctx, result) {
          for (const i of [0, 1]) {
            expect(changeOf(result, `chainform_contract.token[${i}]`)).toMatchObject({
              actions: ["delete", "create"],
              replace_paths: [["bytecode_hash"]],
            });
          }
        },
      },
      {
        name: "an environment deleted out of band is re-created, and its contracts re-deployed",
        async before(ctx) {
          copyFileSync(join(__dirname, "..", "dist", "contracts", "ChainformToken.json"), join(ctx.tf.dir, "token.json"));
          await client.deleteEnvironment({
            environmentId: (await ctx.resource("chainform_environment.seeded")).id as string,
            ensureDeleted: true,
          });
        },
        command: "apply",
        async check(ctx) {
          const env = await environment(ctx);
          for (const i of [0, 1]) {
            const token = await ctx.resource(`chainform_contract.token[${i}]`);
            expect(token.vnet_id).toBe(env.active_instance.vnets[i]!.id);
            expect(await chainOf(env, i).getCode({ address: token.address as `0x${string}` })).toBe(TOKEN.deployedBytecode);
            expect(await balanceOf(env, i, token.address as string, ALICE)).toBe(10n ** 21n);
          }
        },
      },
      { name: "the plan after re-creation is empty", command: "plan", expectNoChanges: true },
      {
        name: "verify = true without a verification API or compiler input: deployed, with a warning saying why",
        config: config(`
resource "chainform_contract" "verified" {
  environment_id   = chainform_environment.seeded.id
  vnet_id          = chainform_environment.seeded.vnets[0].id
  artifact_path    = "token.json"
  constructor_args = ["Verified", "VER", 18, 1]
  verify           = true
}
`),
        command: "apply",
        async check(ctx, result) {
          const output = (result.stdout + result.stderr).replace(/\s+/g, " ");
          expect(output).toMatch(/Warning: The contract was deployed but not verified/);
          expect(output).toMatch(/no verification API at http:\/\/127\.0\.0\.1:\d+\/explorer\/[0-9a-f-]+\/api|carries no compiler input/);
          expect((await ctx.resource("chainform_contract.verified")).address).toMatch(/^0x[0-9a-f]{40}$/);
        },
      },
      {
        name: "bad input at plan time: a missing artifact, one without bytecode, arguments that do not fit",
        before(ctx) {
          writeFileSync(join(ctx.tf.dir, "interface.json"), JSON.stringify({ abi: TOKEN.abi, bytecode: "0x" }));
        },
        config: config(`
resource "chainform_contract" "missing" {
  environment_id = chainform_environment.seeded.id
  vnet_id        = chainform_environment.seeded.vnets[0].id
  artifact_path  = "nowhere/Token.json"
}
resource "chainform_contract" "no_bytecode" {
  environment_id = chainform_environment.seeded.id
  vnet_id        = chainform_environment.seeded.vnets[0].id
  artifact_path  = "interface.json"
}
resource "chainform_contract" "bad_args" {
  environment_id   = chainform_environment.seeded.id
  vnet_id          = chainform_environment.seeded.vnets[0].id
  artifact_path    = "token.json"
  constructor_args = ["Chainform Token", "CFT", 300, 1]
}
`),
        command: "plan",
        expectError: /Cannot use the contract artifact[\s\S]*artifact_path\s*=\s*"nowhere\/Token\.json"/,
        check(_ctx, result) {
          const output = (result.stdout + result.stderr).replace(/\s+/g, " ");
          expect(output).toMatch(/Cannot read nowhere\/Token\.json \(no such file/);
          expect(output).toMatch(/artifact_path = "interface\.json" interface\.json has no bytecode/);
          expect(output).toMatch(
            /constructor_args = \["Chainform Token", "CFT", 300, 1\] Argument 2 \(uint8 decimals_\) of the constructor: 300 does not fit uint8/,
          );
        },
      },
      {
        name: "bad input at apply time: a reverting constructor, a token that is not ERC-20, a vnet of another environment",
        config: config(`
resource "chainform_contract" "reverts" {
  environment_id   = chainform_environment.seeded.id
  vnet_id          = chainform_environment.seeded.vnets[0].id
  artifact_path    = "token.json"
  constructor_args = ["", "CFT", 18, 1]
}
resource "chainform_erc20_balance" "not_a_token" {
  environment_id = chainform_environment.seeded.id
  vnet_id        = chainform_environment.seeded.vnets[0].id
  token          = "${ALICE}"
  holder         = "${BOB}"
  amount         = "1"
}
resource "chainform_snapshot" "elsewhere" {
  environment_id = chainform_environment.seeded.id
  vnet_id        = "00000000-0000-4000-8000-000000000000"
}
`),
        command: "apply",
        expectError: /The constructor reverted[\s\S]*"ChainformToken: empty name"/,
        async check(ctx, result) {
          const output = (result.stdout + result.stderr).replace(/\s+/g, " ");
          expect(output).toMatch(/token = "0x0+a11ce" 0x0+a11ce is not an ERC-20 token: it has no code/);
          expect(output).toMatch(
            /vnet_id = "00000000-0000-4000-8000-000000000000" Environment [0-9a-f-]+ has no Virtual Environment 00000000-0000-4000-8000-000000000000/,
          );
          expect(output).toMatch(/constructor_args = \["", "CFT", 18, 1\] Deploying would revert: "ChainformToken: empty name"/);
          const addresses = (await ctx.state()).map((r) => r.address);
          expect(addresses).not.toContain("chainform_contract.reverts");
          expect(addresses).not.toContain("chainform_erc20_balance.not_a_token");
          expect(addresses).not.toContain("chainform_snapshot.elsewhere");
        },
      },
      {
        name: "destroy leaves nothing",
        config: config(),
        command: "destroy",
        async check(ctx) {
          expect(await ctx.state()).toEqual([]);
          expect((await client.listEnvironments({ perPage: 100 })).filter((e) => e.slug === "acc-chainstate")).toEqual([]);
        },
      },
    ]);
  }, 900_000);
});
