/**
 * Acceptance: what import and refresh recover, through real terraform. The chain id comes from the chain itself
 * (`eth_chainId`), not from the configuration: after importing an environment whose chain answers 73571, a
 * configuration saying 73572 plans a replacement. And the taken-slug warning at plan holds after an import, an
 * out-of-band delete and a re-create.
 */
import { PROVIDER_BLOCK, useAcceptanceSuite, type StepResult } from "./helpers/acceptance";

const config = ({ name = "ci", slug, chainId }: { name?: string; slug: string; chainId?: string }) => `
resource "chainform_environment" "${name}" {
  display_name = "Import ${slug}"
  slug         = "${slug}"
  network_config {
    network_id = "1"
${chainId === undefined ? "" : `    chain_id   = "${chainId}"\n`}  }
}
`;
const withProvider = (...resources: string[]) => `${PROVIDER_BLOCK}\nprovider "chainform" {}\n${resources.join("")}`;

const actionsOf = (result: StepResult, address: string) => result.plan?.resource_changes?.find((c) => c.address === address)?.change;

/** eth_chainId through a Public RPC URL. */
async function chainIdOf(url: string): Promise<string> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] }),
  });
  return BigInt(((await response.json()) as { result: string }).result).toString();
}

describe("import flows through terraform", () => {
  const suite = useAcceptanceSuite();

  test("import reads the chain id from the chain: a configuration saying another plans a replacement", async () => {
    // GIVEN an environment created outside this configuration, whose chain answers 73571
    const created = await suite.client.createEnvironment({
      display_name: "Import imp-chain",
      slug: "imp-chain",
      network_configs: [{ network_id: "1", chain_config_overrides: { chain_id: "73571" } }],
    });
    const publicUrl = created.active_instance.vnets[0]!.rpcs.find((r) => r.name === "Public RPC")!.url;
    expect(await chainIdOf(publicUrl)).toBe("73571");
    const run = await suite.workspace();
    await run.steps([
      {
        name: "import with a configuration saying 73572",
        config: withProvider(config({ slug: "imp-chain", chainId: "73572" })),
        importId: "imp-chain",
        resource: "chainform_environment.ci",
        async check(ctx) {
          const state = await ctx.resource("chainform_environment.ci");
          expect((state["network_config"] as { chain_id: string | null }[])[0]!.chain_id).toBe("73571");
          expect((state["vnets"] as { chain_id: string }[])[0]!.chain_id).toBe("73571");
        },
      },
      {
        name: "the plan replaces it, naming chain_id",
        command: "plan",
        check(_ctx, result) {
          const change = actionsOf(result, "chainform_environment.ci");
          expect(change?.actions).toEqual(["delete", "create"]);
          expect(change?.replace_paths).toEqual([["network_config", 0, "chain_id"]]);
        },
      },
      {
        name: "with the chain's own chain id the plan is empty",
        config: withProvider(config({ slug: "imp-chain", chainId: "73571" })),
        command: "plan",
        expectNoChanges: true,
      },
      {
        name: "without a chain id it replaces too (the configuration wants the network's own)",
        config: withProvider(config({ slug: "imp-chain" })),
        command: "plan",
        check(_ctx, result) {
          expect(actionsOf(result, "chainform_environment.ci")?.actions).toEqual(["delete", "create"]);
        },
      },
    ]);
  }, 120_000);

  test("the taken-slug warning at plan holds after import, an out-of-band delete and a re-create", async () => {
    const run = await suite.workspace();
    const other = config({ name: "other", slug: "imp-taken" });
    await run.steps([
      { name: "apply two environments", config: withProvider(config({ slug: "imp-mine" }), other), command: "apply" },
      {
        name: "state rm and import the first",
        importId: () => "imp-mine",
        resource: "chainform_environment.ci",
      },
      {
        name: "delete it out of band, apply re-creates it",
        async before() {
          const mine = await suite.client.getEnvironmentBySlug({ slug: "imp-mine" });
          await suite.client.deleteEnvironment({ environmentId: mine!.id, ensureDeleted: true });
        },
        command: "apply",
        async check() {
          expect(await suite.client.getEnvironmentBySlug({ slug: "imp-mine" })).not.toBeNull();
        },
      },
      {
        name: "its slug changed to the other's: the plan warns that apply will fail",
        config: withProvider(config({ slug: "imp-taken" }), other),
        command: "plan",
        check(_ctx, result) {
          expect(result.stdout + result.stderr).toMatch(/Warning: An environment with this slug already exists: apply will fail/);
          expect(result.stdout + result.stderr).toMatch(/slug "imp-taken"/);
        },
      },
      { name: "and apply fails", command: "apply", expectError: /An environment with this slug already exists/ },
    ]);
  }, 180_000);
});
