import { Op, TerraformStack, Testing } from "cdktf";
import { Check } from "./check";
import { Environment } from "./environment";
import { Network } from "./network";
import { ChainformProvider } from "./provider";

Testing.setupJest();

describe("Check", () => {
  it("synthesizes a Terraform check block with one assert per assertion", () => {
    // GIVEN an environment and a check on its vnet's chain id
    const synthesized = JSON.parse(
      Testing.synthScope((scope) => {
        new ChainformProvider(scope, "chainform");
        const env = new Environment(scope, "env", { displayName: "Checked", networks: [{ networkId: Network.MAINNET, chainId: 73571 }] });
        new Check(scope, "chain-id", {
          assertions: [
            { condition: Op.eq(env.vnet(Network.MAINNET).chainId, "73571"), errorMessage: "The fork does not answer 73571." },
            { condition: true, errorMessage: "Always holds." },
          ],
        });
      }),
    ) as { check: Record<string, { assert: { condition: unknown; error_message: string }[] }> };
    // THEN the block is in the JSON, the condition an expression
    const [name, block] = Object.entries(synthesized.check)[0]!;
    expect(name).toMatch(/^chain-id/);
    expect(block.assert).toEqual([
      {
        condition: expect.stringMatching(/^\$\{\(.*chainform_environment\.env.*\.vnets.*== "73571"\)\}$/),
        error_message: "The fork does not answer 73571.",
      },
      { condition: true, error_message: "Always holds." },
    ]);
  });

  it("rejects a check without assertions or with an empty message", () => {
    const stack = new TerraformStack(Testing.app(), "stack");
    expect(() => new Check(stack, "none", { assertions: [] })).toThrow(/\[stack\/none\] assertions must hold at least one assertion/);
    expect(() => new Check(stack, "blank", { assertions: [{ condition: true, errorMessage: " " }] })).toThrow(
      /assertions\[0\]\.errorMessage must say what failed/,
    );
  });
});
