/**
 * Acceptance: block numbers in decimal or hex, through real terraform. An HCL number variable (which Terraform
 * turns into the decimal string "21400000") is accepted; the state keeps the spelling written, and refreshing
 * against the service's hex answer plans nothing; the same block written in hex is a change of spelling only
 * (an in-place update that calls nothing, as Terraform must show a changed argument), never a replacement;
 * another block plans a replacement naming block_number. The service still answers hex.
 */
import { PROVIDER_BLOCK, useAcceptanceSuite } from "./helpers/acceptance";

const config = (blockNumber: string) => `${PROVIDER_BLOCK}
provider "chainform" {}

variable "block" {
  type    = number
  default = 21400000
}

resource "chainform_environment" "blocks" {
  display_name = "Block numbers"
  network_config {
    network_id   = "1"
    block_number = ${blockNumber}
  }
}
`;

describe("block numbers through terraform", () => {
  const suite = useAcceptanceSuite();

  test("decimal from a number variable, the same block in hex updates only the spelling, another block replaces", async () => {
    const run = await suite.workspace();
    await run.steps([
      {
        name: "a number variable is a block number",
        config: config("var.block"),
        command: "apply",
        async check(ctx) {
          const state = await ctx.resource("chainform_environment.blocks");
          expect((state["network_config"] as { block_number: string }[])[0]!.block_number).toBe("21400000");
          const [environment] = await suite.client.listEnvironments();
          expect(environment!.networks[0]!.block_number).toBe("0x14689c0");
        },
      },
      { name: "the plan after apply is empty", command: "plan", expectNoChanges: true },
      { name: "a refresh keeps the spelling written", command: "apply", args: ["-refresh-only"] },
      { name: "the same block as a decimal string plans nothing", config: config('"21400000"'), command: "plan", expectNoChanges: true },
      {
        name: "the same block in hex is a change of spelling, in place",
        config: config('"0x14689C0"'),
        command: "plan",
        check(_ctx, result) {
          const change = result.plan?.resource_changes?.find((c) => c.address === "chainform_environment.blocks")?.change;
          expect(change?.actions).toEqual(["update"]);
        },
      },
      {
        name: "applying it keeps the environment",
        command: "apply",
        async check(ctx) {
          expect(await suite.client.listEnvironments()).toHaveLength(1);
          const state = await ctx.resource("chainform_environment.blocks");
          expect((state["network_config"] as { block_number: string }[])[0]!.block_number).toBe("0x14689C0");
        },
      },
      { name: "and plans nothing after", command: "plan", expectNoChanges: true },
      {
        name: "another block replaces the environment, naming block_number",
        config: config('"21400001"'),
        command: "plan",
        check(_ctx, result) {
          const change = result.plan?.resource_changes?.find((c) => c.address === "chainform_environment.blocks")?.change;
          expect(change?.actions).toEqual(["delete", "create"]);
          expect(change?.replace_paths).toEqual([["network_config", 0, "block_number"]]);
        },
      },
    ]);
  }, 120_000);
});
