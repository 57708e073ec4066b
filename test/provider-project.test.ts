/** Acceptance: `data.chainform_project` through real terraform: a project by slug, and a clear error for none. */
import { PROVIDER_BLOCK, useAcceptanceSuite } from "./helpers/acceptance";
import { applyExample, readDataSources } from "./helpers/hcl-examples";

describe("data.chainform_project", () => {
  const suite = useAcceptanceSuite();

  test("reads the project by slug; a slug that names none fails, naming slug", async () => {
    await readDataSources(
      suite,
      `data "chainform_project" "demo" {
  slug = "demo"
}
output "project" {
  value = data.chainform_project.demo
}
`,
      (outputs) => {
        expect(outputs.project!.value).toMatchObject({ slug: "demo", id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
      },
    );
    const run = await suite.workspace();
    await run.step({
      name: "a project that does not exist fails, naming slug",
      config: `${PROVIDER_BLOCK}\nprovider "chainform" {}\n\ndata "chainform_project" "x" {\n  slug = "nope"\n}\n`,
      command: "plan",
      expectError: /No such project[\s\S]*slug = "nope"/,
    });
  }, 120_000);

  test("examples/hcl/project: the project's id", async () => {
    await applyExample(suite, "project", (outputs) => {
      expect(outputs.project_id!.value).toMatch(/^[0-9a-f-]{36}$/);
    });
  }, 120_000);
});
