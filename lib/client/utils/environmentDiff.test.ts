import type { Environment } from "../../api";
import { diffEnvironment } from "./environmentDiff";

// The documented Environment: no network_configs, bridge_config or chain_config (docs/api.md "Resources").
const existing: Environment = {
  id: "00000000-0000-4000-8000-000000000001",
  display_name: "Staging",
  slug: "staging",
  created_at: "2025-01-01T00:00:00.000Z",
  networks: [{ id: "00000000-0000-4000-8000-000000000003", network_id: "1", network_name: "Mainnet", block_number: "0x1234" }],
  active_instance: {
    id: "00000000-0000-4000-8000-000000000002",
    vnets: [
      {
        id: "00000000-0000-4000-8000-000000000004",
        display_name: "Staging Mainnet",
        slug: "staging-mainnet",
        status: "running",
        rpcs: [{ name: "Public RPC", url: "https://rpc.example/1" }],
        fork_config: { network_id: 1, block_number: "0x1234" },
      },
    ],
  },
};

describe("diffEnvironment", () => {
  it("takes a decimal block number for the same block as the service's hex (adopt_existing, issue 42 item 9)", () => {
    const spec = (block_number: string) => ({
      display_name: "Staging",
      slug: "staging",
      network_configs: [{ network_id: "1", block_number }],
    });
    expect(diffEnvironment(spec(String(0x1234)), existing)).toEqual([]);
    expect(diffEnvironment(spec("4661"), existing)).toEqual([
      { path: "/network_configs/0/block_number", expected: "0x1235", actual: "0x1234" },
    ]);
  });

  it("matches what the documented response shows, with hex normalized", () => {
    expect(
      diffEnvironment(
        {
          display_name: "Staging",
          slug: "staging",
          network_configs: [
            {
              network_id: "1",
              block_number: "0x01234",
              accounts: [{ address: "0x00000000000000000000000000000000000000AA", balance: "0x0DE0B6B3A7640000" }],
            },
          ],
          bridge_config: { enabled: true },
        },
        existing,
      ),
    ).toEqual([]);
  });

  it("reports each differing documented field with a JSON pointer", () => {
    expect(
      diffEnvironment(
        { display_name: "Staging 2", slug: "other", network_configs: [{ network_id: "1", block_number: "0x1" }, { network_id: "8453" }] },
        existing,
      ),
    ).toEqual([
      { path: "/display_name", expected: "Staging 2", actual: "Staging" },
      { path: "/slug", expected: "other", actual: "staging" },
      { path: "/network_configs/length", expected: 2, actual: 1 },
      { path: "/network_configs/0/block_number", expected: "0x1", actual: "0x1234" },
      { path: "/network_configs/1/network_id", expected: "8453", actual: undefined },
    ]);
  });

  it("reads the networks from the vnets' fork_config when networks[] is empty", () => {
    const vnetsOnly = { ...existing, networks: [] };
    expect(diffEnvironment({ display_name: "Staging", network_configs: [{ network_id: "1", block_number: "0x1234" }] }, vnetsOnly)).toEqual(
      [],
    );
    expect(diffEnvironment({ display_name: "Staging", network_configs: [{ network_id: "10" }] }, vnetsOnly).map((d) => d.path)).toEqual([
      "/network_configs/0/network_id",
    ]);
  });
});
