/** Acceptance: `data.chainform_supported_networks` through real terraform: every network, or those with a feature. */
import { useAcceptanceSuite } from "./helpers/acceptance";
import { applyExample, readDataSources } from "./helpers/hcl-examples";

describe("data.chainform_supported_networks", () => {
  const suite = useAcceptanceSuite();

  test("lists the networks with their chain ids and features; feature filters them", async () => {
    await readDataSources(
      suite,
      `data "chainform_supported_networks" "all" {}
data "chainform_supported_networks" "vnets" {
  feature = "virtual_testnet"
}
output "all" {
  value = data.chainform_supported_networks.all.networks
}
output "vnet_chain_ids" {
  value = [for n in data.chainform_supported_networks.vnets.networks : n.chain_id]
}
`,
      (outputs) => {
        const all = outputs.all!.value as { network_name: string; chain_id: string; virtual_testnet: boolean }[];
        expect(all.length).toBeGreaterThanOrEqual(10);
        expect(all).toContainEqual(expect.objectContaining({ chain_id: "8453", network_name: "Base", virtual_testnet: true }));
        expect(outputs.vnet_chain_ids!.value).toEqual(all.filter((n) => n.virtual_testnet).map((n) => n.chain_id));
      },
    );
  }, 120_000);

  test("examples/hcl/supported_networks: the networks with Virtual Environments", async () => {
    await applyExample(suite, "supported_networks", (outputs) => {
      expect(outputs.virtual_testnet_chain_ids!.value).toEqual(expect.arrayContaining(["1", "8453"]));
    });
  }, 120_000);
});
