import type { Environment } from "../../spec";
import { diffEnvironment } from "./environmentDiff";

const existing = {
  id: "00000000-0000-4000-8000-000000000001",
  display_name: "Staging",
  slug: "staging",
  created_at: "2025-01-01T00:00:00.000Z",
  networks: [],
  active_instance: { id: "00000000-0000-4000-8000-000000000002", vnets: [] },
  network_configs: [
    {
      network_id: "1",
      block_number: "0x1234",
      chain_config_overrides: { chain_id: "73571" },
      explorer_config: { enabled: false, verification_visibility: "bytecode" },
      accounts: [{ address: "0x00000000000000000000000000000000000000aa", balance: "0xde0b6b3a7640000" }],
    },
  ],
  bridge_config: { enabled: false, relay_mode: "autoRelay", delay_seconds: 0 },
} as Environment;

describe("diffEnvironment", () => {
  it("matches what the spec states, with hex and address case normalized", () => {
    expect(
      diffEnvironment(
        {
          display_name: "Staging",
          network_configs: [
            {
              network_id: "1",
              block_number: "0x01234",
              accounts: [{ address: "0x00000000000000000000000000000000000000AA", balance: "0x0DE0B6B3A7640000" }],
            },
          ],
        },
        existing,
      ),
    ).toEqual([]);
  });

  it("reports each differing field with a JSON pointer", () => {
    expect(
      diffEnvironment(
        {
          display_name: "Staging 2",
          network_configs: [{ network_id: "1", block_number: "0x1" }, { network_id: "8453" }],
          bridge_config: { enabled: true },
        },
        existing,
      ),
    ).toEqual([
      { path: "/display_name", expected: "Staging 2", actual: "Staging" },
      { path: "/network_configs/length", expected: 2, actual: 1 },
      { path: "/network_configs/0/block_number", expected: "0x1", actual: "0x1234" },
      { path: "/network_configs/1/network_id", expected: "8453", actual: undefined },
      { path: "/bridge_config/enabled", expected: true, actual: false },
    ]);
  });

  it("compares an omitted bridge config with the service defaults", () => {
    const bridged = { ...existing, bridge_config: { enabled: true, relay_mode: "delayedRelay", delay_seconds: 30 } } as Environment;
    expect(diffEnvironment({ display_name: "Staging", network_configs: [{ network_id: "1" }] }, bridged).map((d) => d.path)).toEqual([
      "/bridge_config/enabled",
      "/bridge_config/relay_mode",
      "/bridge_config/delay_seconds",
    ]);
  });
});
