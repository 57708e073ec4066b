/** Acceptance: `data.chainform_projects` through real terraform: the account's projects the key may see. */
import { useAcceptanceSuite } from "./helpers/acceptance";
import { readDataSources } from "./helpers/hcl-examples";

describe("data.chainform_projects", () => {
  const suite = useAcceptanceSuite();

  test("lists the seeded account's projects", async () => {
    await readDataSources(
      suite,
      `data "chainform_projects" "all" {}
output "slugs" {
  value = sort([for p in data.chainform_projects.all.projects : p.slug])
}
`,
      (outputs) => {
        expect(outputs.slugs!.value).toEqual(["demo", "secret-sauce"]);
      },
    );
  }, 120_000);
});
