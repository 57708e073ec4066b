/**
 * Acceptance: a CDK app with a mistyped network id, through real terraform. The plan fails at that network (not
 * another of the environment's), with the networks that can be forked listed. (A mistyped network *name* fails
 * at construction: lib/constructs/environment.test.ts.)
 */
import { TerraformStack, Testing } from "cdktf";
import { ChainformProvider, Environment, Network } from "../lib/constructs";
import { useAcceptanceSuite } from "./helpers/acceptance";

describe("a mistyped network through terraform", () => {
  const suite = useAcceptanceSuite();

  test("the plan names the mistyped network and lists the supported ones", async () => {
    const stack = new TerraformStack(Testing.app(), "typo");
    new ChainformProvider(stack, "chainform");
    new Environment(stack, "env", {
      displayName: "Typo",
      networks: [{ networkId: Network.MAINNET, chainId: 73571 }, { networkId: "84533", chainId: 84530 }, { networkId: Network.ARBITRUM }],
    });
    const run = await suite.workspace();
    run.tf.write("main.tf.json", Testing.synth(stack));
    await run.step({
      name: "plan",
      command: "plan",
      check(_ctx, result) {
        const output = (result.stdout + result.stderr).replace(/\s+/g, " ");
        expect(output).toMatch(
          /Error: Unsupported network .*network_config\[1\]: \d+: "network_id": "84533" Network 84533 is not supported by the service\. Networks with Virtual Environments: 1 \(Mainnet\), .*8453 \(Base\)/,
        );
        expect(output.match(/Error:/g)).toHaveLength(1);
      },
      expectError: /Unsupported network/,
    });
  }, 120_000);
});
