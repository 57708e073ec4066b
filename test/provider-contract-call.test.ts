/**
 * Acceptance: the `chainform_contract_call` data source as examples/hcl/contract_call writes it, through real
 * terraform with the token artifact of `npm run build`: the call reads the deployed token's owner, the plan after the
 * apply is empty, destroy. test/provider-chainstate.test.ts has it inside a whole chain-state table.
 */
import { useAcceptanceSuite } from "./helpers/acceptance";
import { runChainStateExample } from "./helpers/hcl-examples";

describe("data.chainform_contract_call", () => {
  const suite = useAcceptanceSuite();

  test("examples/hcl/contract_call: apply, empty plan, destroy", async () => {
    await runChainStateExample(suite, "contract_call", "contract-call-example", async (ctx) => {
      expect((await ctx.outputs()).owner!.value).toBe("0x0000000000000000000000000000000000c4a1f0");
    });
  }, 300_000);
});
