/** Acceptance: `data.chainform_delivery_channels` through real terraform: the account's channels, by type. */
import { useAcceptanceSuite } from "./helpers/acceptance";
import { applyExample, readDataSources } from "./helpers/hcl-examples";

describe("data.chainform_delivery_channels", () => {
  const suite = useAcceptanceSuite();

  test("lists the seeded channels; type keeps one kind", async () => {
    await readDataSources(
      suite,
      `data "chainform_delivery_channels" "all" {}
data "chainform_delivery_channels" "email" {
  type = "email"
}
output "types" {
  value = sort([for c in data.chainform_delivery_channels.all.channels : c.type])
}
output "email" {
  value = [for c in data.chainform_delivery_channels.email.channels : c.type]
}
`,
      (outputs) => {
        expect(outputs.types!.value).toEqual(["email", "slack"]);
        expect(outputs.email!.value).toEqual(["email"]);
      },
    );
  }, 120_000);

  test("examples/hcl/delivery_channels: the email channels' ids", async () => {
    await applyExample(suite, "delivery_channels", (outputs) => {
      expect(outputs.email_channel_ids!.value).toEqual([expect.any(String)]);
    });
  }, 120_000);
});
