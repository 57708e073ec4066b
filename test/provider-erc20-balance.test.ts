/**
 * Acceptance: `chainform_erc20_balance` as examples/hcl/erc20_balance writes it, through real terraform with the
 * token artifact of `npm run build`: apply sets each holder's balance, the plan after it is empty, destroy.
 * test/provider-chainstate.test.ts has the resource inside a whole chain-state table (drift, replacement, bad input).
 */
import { useAcceptanceSuite } from "./helpers/acceptance";
import { adminClientOf, runChainStateExample } from "./helpers/hcl-examples";
import { artifact } from "./chains-host";

const TOKEN = artifact("ChainformToken");

describe("chainform_erc20_balance", () => {
  const suite = useAcceptanceSuite();

  test("examples/hcl/erc20_balance: apply, empty plan, destroy", async () => {
    await runChainStateExample(suite, "erc20_balance", "erc20-balance-example", async (ctx) => {
      const outputs = await ctx.outputs();
      const chain = await adminClientOf(suite, "erc20-balance-example");
      const token = outputs.token!.value as `0x${string}`;
      const balance = (holder: string) => chain.readContract({ address: token, abi: TOKEN.abi, functionName: "balanceOf", args: [holder] });
      expect(await balance("0x00000000000000000000000000000000000a11ce")).toBe(1_000_000_000n);
      expect(await balance("0x0000000000000000000000000000000000000b0b")).toBe(250_000_000n);
    });
  }, 300_000);
});
