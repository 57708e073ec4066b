/**
 * Acceptance: a CDK app's `Check` through real terraform. A stack with a ChainformProvider (adoptExisting on), an
 * environment and a check on its chain id is synthesized in-process and applied: the assertion that holds is
 * silent, the one that does not is Terraform's "Check block assertion failed" warning with its message.
 */
import { Op, TerraformStack, Testing } from "cdktf";
import { Check, ChainformProvider, Environment, Network } from "../lib/constructs";
import { useAcceptanceSuite } from "./helpers/acceptance";

describe("Check through terraform", () => {
  const suite = useAcceptanceSuite();

  test("a failed assertion is a warning with its message; one that holds says nothing", async () => {
    // GIVEN a synthesized stack
    const stack = new TerraformStack(Testing.app(), "checked");
    new ChainformProvider(stack, "chainform", { adoptExisting: true });
    const env = new Environment(stack, "env", {
      displayName: "Checked",
      slug: "checked",
      networks: [{ networkId: Network.MAINNET, chainId: 73571 }],
    });
    new Check(stack, "chain-id", {
      assertions: [
        { condition: Op.eq(env.vnet(Network.MAINNET).chainId, "73571"), errorMessage: "This one holds." },
        { condition: Op.eq(env.vnet(Network.MAINNET).chainId, "1"), errorMessage: "The fork answers 73571, not 1." },
      ],
    });
    const json = Testing.synth(stack);
    const run = await suite.workspace();
    run.tf.write("main.tf.json", json);
    // WHEN terraform applies it THEN the failing assertion is reported, as a warning
    await run.step({
      name: "apply",
      command: "apply",
      check(_ctx, result) {
        const output = (result.stdout + result.stderr).replace(/\s+/g, " ");
        expect(output).toMatch(/Warning: Check block assertion failed/);
        expect(output).toMatch(/The fork answers 73571, not 1\./);
        expect(output).not.toMatch(/This one holds\./);
      },
    });
  }, 120_000);
});
