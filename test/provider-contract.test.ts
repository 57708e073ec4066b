/**
 * Acceptance: `chainform_contract` as examples/hcl/contract writes it, through real terraform with the token
 * artifact of `npm run build`: apply deploys the token on each network (its runtime code is the artifact's), the plan
 * after it is empty, destroy. test/provider-chainstate.test.ts has the resource inside a whole chain-state table.
 */
import { useAcceptanceSuite } from "./helpers/acceptance";
import { adminClientOf, runChainStateExample } from "./helpers/hcl-examples";
import { artifact } from "./chains-host";

const TOKEN = artifact("ChainformToken");

describe("chainform_contract", () => {
  const suite = useAcceptanceSuite();

  test("examples/hcl/contract: apply, empty plan, destroy", async () => {
    await runChainStateExample(suite, "contract", "contract-example", async (ctx) => {
      const addresses = (await ctx.outputs()).token_addresses!.value as Record<string, `0x${string}`>;
      expect(Object.keys(addresses).sort()).toEqual(["1", "8453"]);
      expect(await (await adminClientOf(suite, "contract-example")).getCode({ address: addresses["1"]! })).toBe(TOKEN.deployedBytecode);
      expect(await (await adminClientOf(suite, "contract-example", 1)).getCode({ address: addresses["8453"]! })).toBe(
        TOKEN.deployedBytecode,
      );
    });
  }, 300_000);
});
