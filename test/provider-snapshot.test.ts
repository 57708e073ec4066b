/**
 * Acceptance: `chainform_snapshot` as examples/hcl/snapshot writes it, through real terraform with the token
 * artifact of `npm run build`: the recipe works (spend a balance, send the revert request, the balance is back), the
 * plan after the apply is empty, destroy. test/provider-chainstate.test.ts has the resource inside a whole
 * chain-state table.
 */
import { useAcceptanceSuite } from "./helpers/acceptance";
import { adminClientOf, runChainStateExample } from "./helpers/hcl-examples";
import { artifact } from "./chains-host";

const TOKEN = artifact("ChainformToken");

describe("chainform_snapshot", () => {
  const suite = useAcceptanceSuite();

  test("examples/hcl/snapshot: apply, revert, empty plan, destroy", async () => {
    await runChainStateExample(suite, "snapshot", "snapshot-example", async (ctx) => {
      const outputs = await ctx.outputs();
      const chain = await adminClientOf(suite, "snapshot-example");
      const { id } = (await ctx.resource("chainform_contract.token")) as { id: string };
      const token = id.split("/")[1] as `0x${string}`;
      const alice = "0x00000000000000000000000000000000000a11ce";
      await chain.request({ method: "tenderly_setErc20Balance" as "eth_chainId", params: [token, alice, "0x0"] as never });
      const request = JSON.parse(outputs.revert_request!.value as string) as { method: string; params: unknown[] };
      expect(await chain.request({ method: request.method as "eth_chainId", params: request.params as never })).toBe(true);
      expect(await chain.readContract({ address: token, abi: TOKEN.abi, functionName: "balanceOf", args: [alice] })).toBe(
        5000n * 10n ** 18n,
      );
    });
  }, 300_000);
});
