import { deployedNetworks } from "./stack-state";

describe("deployedNetworks", () => {
  it("reads every vnet of every chainform_environment, in modules too, with the accounts of its network_config", () => {
    // GIVEN `terraform show -json` of a stack with one environment in the root module and one in a child module
    const environment = (slug: string) => ({
      type: "chainform_environment",
      values: {
        id: `id-${slug}`,
        slug,
        network_config: [
          { network_id: "1", block_number: "0x64", account: [{ address: "0xaa", balance: "0x10" }] },
          { network_id: "8453", account: [] },
        ],
        vnets: [
          { network_id: "1", chain_id: 73571, public_rpc_url: "http://x/rpc/public/1", admin_rpc_url: "http://x/rpc/admin/s1" },
          { network_id: "8453", chain_id: 84530, public_rpc_url: "http://x/rpc/public/2", admin_rpc_url: "http://x/rpc/admin/s2" },
        ],
      },
    });
    const show = {
      values: {
        root_module: {
          resources: [{ type: "terraform_data", values: {} }, environment("pr-1")],
          child_modules: [{ resources: [environment("pr-2")] }],
        },
      },
    };
    // WHEN read
    const networks = deployedNetworks("stack", show);
    // THEN one entry per vnet
    expect(networks.map((n) => `${n.environment}/${n.networkId}/${n.chainId}`)).toEqual([
      "pr-1/1/73571",
      "pr-1/8453/84530",
      "pr-2/1/73571",
      "pr-2/8453/84530",
    ]);
    expect(networks[0]).toEqual({
      stack: "stack",
      environment: "pr-1",
      environmentId: "id-pr-1",
      networkId: "1",
      chainId: 73571,
      publicRpcUrl: "http://x/rpc/public/1",
      adminRpcUrl: "http://x/rpc/admin/s1",
      accounts: [{ address: "0xaa", balance: "0x10" }],
      forkBlock: "0x64",
    });
    expect(networks[1].accounts).toEqual([]);
    expect(networks[1].forkBlock).toBeNull();
  });

  it("an empty state has no networks", () => {
    expect(deployedNetworks("stack", {})).toEqual([]);
  });
});
