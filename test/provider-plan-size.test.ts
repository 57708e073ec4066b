/**
 * Acceptance: plans of contracts stay readable. An ABI is hundreds of lines once Terraform expands its JSON in a
 * plan; the first deploy of an app with a few contracts and contract calls printed over a thousand lines. The
 * plans of the contract examples show no ABI, and stay short; the figures are printed for the record.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { useAcceptanceSuite } from "./helpers/acceptance";

const example = (name: string) => readFileSync(join(__dirname, "..", "examples", "hcl", name, "main.tf"), "utf8");
const artifact = `-var=artifact_path=${join(__dirname, "..", "dist", "contracts", "ChainformToken.json")}`;

describe("plan size through terraform", () => {
  const suite = useAcceptanceSuite();

  test.each(["contract", "contract_call"])(
    "the first plan of examples/hcl/%s shows no ABI",
    async (name) => {
      const run = await suite.workspace();
      await run.step({
        name: "plan",
        config: example(name),
        command: "plan",
        args: [artifact],
        check(_ctx, result) {
          const lines = result.stdout.split("\n").length;
          process.stdout.write(`plan of examples/hcl/${name}: ${lines} lines\n`);
          expect(result.stdout).not.toMatch(/stateMutability/);
          expect(lines).toBeLessThan(150);
        },
      });
    },
    120_000,
  );
});
