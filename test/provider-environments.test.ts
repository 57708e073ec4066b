/** Acceptance: `data.chainform_environments` through real terraform: the project's environments, by slug prefix. */
import { useAcceptanceSuite } from "./helpers/acceptance";
import { applyExample, readDataSources } from "./helpers/hcl-examples";

describe("data.chainform_environments", () => {
  const suite = useAcceptanceSuite();

  test("lists the project's environments; slug_prefix keeps those whose slug starts with it", async () => {
    await suite.client.createEnvironment({ display_name: "pr-7", network_configs: [{ network_id: "8453" }] });
    await suite.client.createEnvironment({ display_name: "nightly", network_configs: [{ network_id: "8453" }] });
    await readDataSources(
      suite,
      `data "chainform_environments" "all" {}
data "chainform_environments" "pr" {
  slug_prefix = "pr-"
}
output "all" {
  value = sort([for e in data.chainform_environments.all.environments : e.slug])
}
output "pr" {
  value = [for e in data.chainform_environments.pr.environments : e.slug]
}
`,
      (outputs) => {
        expect(outputs.all!.value).toEqual(["nightly", "pr-7"]);
        expect(outputs.pr!.value).toEqual(["pr-7"]);
      },
    );
  }, 120_000);

  test("examples/hcl/environments: the pull requests' environments", async () => {
    // The environments the test above created: pr-7 and nightly.
    await applyExample(suite, "environments", (outputs) => {
      expect(outputs.pull_request_environments!.value).toEqual(["pr-7"]);
    });
  }, 120_000);
});
