/**
 * Acceptance: the chain-state examples in examples/hcl (contract, erc20_balance, snapshot, contract_call) work as
 * written, with the provider configured by environment variables and the token artifact of `npm run build`:
 * apply, what each promises, empty plan, destroy.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { useAcceptanceSuite } from "./helpers/acceptance";
import { createPublicClient, http } from "./helpers/viem";
import { artifact } from "./chains-host";

const example = (name: string) => readFileSync(join(__dirname, "..", "examples", "hcl", name, "main.tf"), "utf8");
const ARTIFACT = `-var=artifact_path=${join(__dirname, "..", "dist", "contracts", "ChainformToken.json")}`;
const TOKEN = artifact("ChainformToken");

describe("chain-state examples through terraform", () => {
  const suite = useAcceptanceSuite();
  const adminClient = async (slug: string, index = 0) => {
    const env = (await suite.client.listEnvironments()).find((e) => e.slug === slug)!;
    return createPublicClient({ transport: http(env.active_instance.vnets[index]!.rpcs.find((r) => r.name === "Admin RPC")!.url) });
  };

  test.each([
    ["contract", "contract-example"],
    ["erc20_balance", "erc20-balance-example"],
    ["snapshot", "snapshot-example"],
    ["contract_call", "contract-call-example"],
  ])(
    "%s: apply, empty plan, destroy",
    async (name, slug) => {
      const run = await suite.workspace();
      await run.steps([
        {
          name: `apply examples/hcl/${name}`,
          config: example(name),
          command: "apply",
          args: [ARTIFACT],
          async check(ctx, result) {
            expect(result.stdout + result.stderr).not.toMatch(/Warning|assertion/i);
            const outputs = await ctx.outputs();
            const chain = await adminClient(slug);
            if (name === "contract") {
              const addresses = outputs.token_addresses!.value as Record<string, `0x${string}`>;
              expect(Object.keys(addresses).sort()).toEqual(["1", "8453"]);
              expect(await chain.getCode({ address: addresses["1"]! })).toBe(TOKEN.deployedBytecode);
              expect(await (await adminClient(slug, 1)).getCode({ address: addresses["8453"]! })).toBe(TOKEN.deployedBytecode);
            }
            if (name === "erc20_balance") {
              const token = outputs.token!.value as `0x${string}`;
              const balance = (holder: string) =>
                chain.readContract({ address: token, abi: TOKEN.abi, functionName: "balanceOf", args: [holder] });
              expect(await balance("0x00000000000000000000000000000000000a11ce")).toBe(1_000_000_000n);
              expect(await balance("0x0000000000000000000000000000000000000b0b")).toBe(250_000_000n);
            }
            if (name === "snapshot") {
              // The recipe works: spend the balance, revert, and it is back.
              const { id } = (await ctx.resource("chainform_contract.token")) as { id: string };
              const token = id.split("/")[1] as `0x${string}`;
              const alice = "0x00000000000000000000000000000000000a11ce";
              await chain.request({ method: "tenderly_setErc20Balance" as "eth_chainId", params: [token, alice, "0x0"] as never });
              const request = JSON.parse(outputs.revert_request!.value as string) as { method: string; params: unknown[] };
              expect(await chain.request({ method: request.method as "eth_chainId", params: request.params as never })).toBe(true);
              expect(await chain.readContract({ address: token, abi: TOKEN.abi, functionName: "balanceOf", args: [alice] })).toBe(
                5000n * 10n ** 18n,
              );
            }
            if (name === "contract_call") {
              expect(outputs.owner!.value).toBe("0x0000000000000000000000000000000000c4a1f0");
            }
          },
        },
        { name: "plan is empty", command: "plan", args: [ARTIFACT], expectNoChanges: true },
        {
          name: "destroy",
          command: "destroy",
          args: [ARTIFACT],
          check: async () => expect((await suite.client.listEnvironments()).filter((e) => e.slug === slug)).toEqual([]),
        },
      ]);
    },
    300_000,
  );
});
