/**
 * Acceptance: examples/hcl/environment, chainform_environment's example, works as written, with the provider
 * configured only by environment variables (as its comments say), through the offline mirror: apply, empty plan,
 * destroy. The other examples run in their types' own tests (test/provider-<type>.test.ts).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { useAcceptanceSuite } from "./helpers/acceptance";

const example = (name: string) => readFileSync(join(__dirname, "..", "examples", "hcl", name, "main.tf"), "utf8");

describe("examples/hcl through terraform", () => {
  const suite = useAcceptanceSuite();

  test("environment: apply, outputs, empty plan, destroy", async () => {
    const run = await suite.workspace();
    await run.steps([
      {
        name: "apply the example",
        config: example("environment"),
        command: "apply",
        async check(ctx) {
          const outputs = await ctx.outputs();
          expect(Object.keys(outputs.public_rpc_urls!.value as object).sort()).toEqual(["1", "42161", "8453"]);
          expect(outputs.admin_rpc_urls!.sensitive).toBe(true);
          expect(outputs.chain_ids!.value).toEqual({ "1": "73571", "8453": "84530", "42161": "42161" });
          expect(outputs.bridge_address!.value).toBe("0x00000000000000000000000000000000c4a1b71d");
          const env = (await suite.client.listEnvironments()).find((e) => e.slug === "ci-example");
          expect(env?.networks.map((n) => n.network_id)).toEqual(["1", "8453", "42161"]);
        },
      },
      { name: "plan is empty", command: "plan", expectNoChanges: true },
      { name: "destroy", command: "destroy", check: async () => expect(await suite.client.listEnvironments()).toEqual([]) },
    ]);
  }, 60_000);
});
