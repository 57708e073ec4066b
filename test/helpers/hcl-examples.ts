/**
 * The HCL examples (examples/hcl/<type>/main.tf) run as written by real terraform against an acceptance suite's
 * service: apply, the test's own checks, an empty plan, destroy. Each resource's test file (test/provider-<type>.test.ts)
 * runs its example with it.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { PROVIDER_BLOCK, type AcceptanceSuite, type StepContext } from "./acceptance";
import { createPublicClient, http } from "./viem";

/** The text of examples/hcl/<name>/main.tf. */
export const hclExample = (name: string): string => readFileSync(join(__dirname, "..", "..", "examples", "hcl", name, "main.tf"), "utf8");

/** The chain-state examples' variable: the token artifact `npm run build` compiles. */
export const ARTIFACT_VAR = `-var=artifact_path=${join(__dirname, "..", "..", "dist", "contracts", "ChainformToken.json")}`;

/** A viem client on the Admin RPC of the `index`th network of the environment with `slug`. */
export async function adminClientOf(suite: AcceptanceSuite, slug: string, index = 0) {
  const env = (await suite.client.listEnvironments()).find((e) => e.slug === slug)!;
  return createPublicClient({ transport: http(env.active_instance.vnets[index]!.rpcs.find((r) => r.name === "Admin RPC")!.url) });
}

/**
 * Applies examples/hcl/<name> (with the artifact variable), runs `check`, then expects an empty plan, and destroys,
 * expecting no environment with `slug` left.
 */
export async function runChainStateExample(
  suite: AcceptanceSuite,
  name: string,
  slug: string,
  check: (ctx: StepContext) => Promise<void>,
): Promise<void> {
  const run = await suite.workspace();
  await run.steps([
    {
      name: `apply examples/hcl/${name}`,
      config: hclExample(name),
      command: "apply",
      args: [ARTIFACT_VAR],
      async check(ctx, result) {
        expect(result.stdout + result.stderr).not.toMatch(/Warning|assertion/i);
        await check(ctx);
      },
    },
    { name: "plan is empty", command: "plan", args: [ARTIFACT_VAR], expectNoChanges: true },
    {
      name: "destroy",
      command: "destroy",
      args: [ARTIFACT_VAR],
      check: async () => expect((await suite.client.listEnvironments()).filter((e) => e.slug === slug)).toEqual([]),
    },
  ]);
}

/**
 * Applies a configuration of data sources (the provider block added), runs `check` on its outputs, and expects the
 * plan after it to be empty: what a data source's own acceptance test does.
 */
export async function readDataSources(
  suite: AcceptanceSuite,
  body: string,
  check: (outputs: Record<string, { value: unknown; sensitive: boolean }>) => Promise<void> | void,
): Promise<void> {
  const run = await suite.workspace();
  await run.steps([
    {
      name: "apply reads the data sources",
      config: `${PROVIDER_BLOCK}\nprovider "chainform" {}\n\n${body}`,
      command: "apply",
      check: async (ctx) => check(await ctx.outputs()),
    },
    { name: "plan is empty", command: "plan", expectNoChanges: true },
  ]);
}

/** Applies examples/hcl/<name> as written, runs `check` on its outputs, and expects the plan after it to be empty. */
export async function applyExample(
  suite: AcceptanceSuite,
  name: string,
  check: (outputs: Record<string, { value: unknown; sensitive: boolean }>) => Promise<void> | void,
): Promise<void> {
  const run = await suite.workspace();
  await run.steps([
    { name: `apply examples/hcl/${name}`, config: hclExample(name), command: "apply", check: async (ctx) => check(await ctx.outputs()) },
    { name: "plan is empty", command: "plan", expectNoChanges: true },
  ]);
}
