import type { Environment } from "../../../client";
import { normalizeBalance, parseBalance, sameBalance, sameQuantity } from "../../../domain/amounts";
import { environmentFieldPath } from "../errors";
import { createRequest, slugFromPrefix, toState, type EnvironmentState } from "./environment";

const vnet = (networkId: number, n: number) => ({
  id: `00000000-0000-4000-8000-00000000000${n}`,
  display_name: `env (${networkId})`,
  slug: `env-${networkId}`,
  status: "running",
  rpcs: [
    { name: "Admin RPC", url: `http://svc/rpc/admin/secret${n}` },
    { name: "Public RPC", url: `http://svc/rpc/public/${n}` },
  ],
  fork_config: { network_id: networkId, block_number: "0x10" },
});

// The documented Environment: no network_configs, bridge_config or chain_config.
const service: Environment = {
  id: "11111111-1111-4111-8111-111111111111",
  display_name: "Env",
  slug: "env",
  created_at: "2026-01-01T00:00:00.000Z",
  networks: [
    { id: "33333333-3333-4333-8333-333333333331", network_id: "1", network_name: "Ethereum Mainnet", block_number: "0x10" },
    { id: "33333333-3333-4333-8333-333333333332", network_id: "8453", network_name: "Base", block_number: "0xa" },
  ],
  active_instance: { id: "22222222-2222-4222-8222-222222222222", vnets: [vnet(1, 1), vnet(8453, 2)] },
};

describe("balances", () => {
  it.each([
    ["0x56bc75e2d63100000", "0x56bc75e2d63100000"],
    ["0x056BC75E2D63100000", "0x56bc75e2d63100000"],
    ["100000000000000000000", "0x56bc75e2d63100000"],
    ["100ether", "0x56bc75e2d63100000"],
    ["100 ether", "0x56bc75e2d63100000"],
    ["0.5ether", "0x6f05b59d3b20000"],
    ["5gwei", "0x12a05f200"],
    ["42wei", "0x2a"],
    ["0", "0x0"],
  ])("normalizes %s to %s", (text, hex) => {
    expect(normalizeBalance(text)).toBe(hex);
  });

  it.each(["", "lots", "-1", "1.5", "0x", "0xZZ", "1e18", "0.0000000000000000001ether", "5 parsecs", `0x${"f".repeat(65)}`])(
    "rejects %j with a message",
    (text) => {
      const parsed = parseBalance(text);
      expect("error" in parsed && parsed.error).toMatch(/balance|wei/);
    },
  );

  it("compares by amount, not by spelling", () => {
    expect(sameBalance("100ether", "0x56BC75E2D63100000")).toBe(true);
    expect(sameBalance("1gwei", "1000000000")).toBe(true);
    expect(sameBalance("1gwei", "1ether")).toBe(false);
    expect(sameBalance("nonsense", "nonsense")).toBe(false);
    expect(sameQuantity("0x00A", "0xa")).toBe(true);
    expect(sameQuantity("0xa", "0xb")).toBe(false);
  });
});

describe("toState", () => {
  it("takes what the service shows from the answer and the rest from the plan, keeping equal spellings", () => {
    // GIVEN a plan with settings the service does not return, and the block number padded
    const state = toState(service, {
      slug_prefix: null,
      network_config: [
        {
          network_id: "1",
          block_number: null,
          chain_id: "73571",
          explorer: [{ enabled: true, verification_visibility: null }],
          account: [{ address: "0xABCDEF0000000000000000000000000000000001", balance: "100ether" }],
        },
        { network_id: "8453", block_number: "0x000A", chain_id: null, explorer: [], account: [] },
      ],
      bridge: [{ enabled: true, relay_mode: null, delay_seconds: null }],
    });
    // THEN state holds the plan's settings, the service's values of what it shows, and the known spellings
    expect(state).toEqual<EnvironmentState>({
      id: service.id,
      display_name: "Env",
      slug: "env",
      slug_prefix: null,
      clone_from: null,
      created_at: "2026-01-01T00:00:00.000Z",
      instance_id: service.active_instance.id,
      network_config: [
        {
          network_id: "1",
          block_number: "0x10",
          chain_id: "73571",
          explorer: [{ enabled: true, verification_visibility: null }],
          account: [{ address: "0xABCDEF0000000000000000000000000000000001", balance: "100ether" }],
        },
        { network_id: "8453", block_number: "0x000A", chain_id: null, explorer: [], account: [] },
      ],
      bridge: [{ enabled: true, relay_mode: null, delay_seconds: null }],
      vnets: [
        {
          id: service.active_instance.vnets[0]!.id,
          network_id: "1",
          chain_id: "73571",
          slug: "env-1",
          status: "running",
          public_rpc_url: "http://svc/rpc/public/1",
          admin_rpc_url: "http://svc/rpc/admin/secret1",
          bridge_address: "0x00000000000000000000000000000000c4a1b71d",
        },
        {
          id: service.active_instance.vnets[1]!.id,
          network_id: "8453",
          chain_id: "8453",
          slug: "env-8453",
          status: "running",
          public_rpc_url: "http://svc/rpc/public/2",
          admin_rpc_url: "http://svc/rpc/admin/secret2",
          bridge_address: "0x00000000000000000000000000000000c4a1b71d",
        },
      ],
      public_rpc_urls: { "1": "http://svc/rpc/public/1", "8453": "http://svc/rpc/public/2" },
      admin_rpc_urls: { "1": "http://svc/rpc/admin/secret1", "8453": "http://svc/rpc/admin/secret2" },
    });
  });

  it("shows the service's fork block where it means another block (drift)", () => {
    const state = toState(service, { network_config: [{ network_id: "1", block_number: "0x11" }], bridge: [] });
    expect(state.network_config[0]!.block_number).toBe("0x10");
    expect(state.vnets[0]!.bridge_address).toBeNull();
  });

  it("on import (nothing known) recovers the networks and fork blocks, and no settings the service does not show", () => {
    const state = toState(service, null);
    expect(state.network_config).toEqual([
      { network_id: "1", block_number: "0x10", chain_id: null, explorer: [], account: [] },
      { network_id: "8453", block_number: "0xa", chain_id: null, explorer: [], account: [] },
    ]);
    expect(state.bridge).toEqual([]);
    expect(state.vnets.map((v) => v.chain_id)).toEqual(["1", "8453"]);
  });

  it("takes the chain ids the chains answer over what state says, keeping state's spelling when they agree", () => {
    // GIVEN state that says 73572 for mainnet and nothing for base, while the chains answer 73571 and 8453
    const known = {
      network_config: [
        { network_id: "1", chain_id: "73572" },
        { network_id: "8453", chain_id: null },
      ],
      bridge: [],
    };
    const state = toState(
      service,
      known,
      new Map([
        ["1", "73571"],
        ["8453", "8453"],
      ]),
    );
    // THEN state says what the chains answer (no override where the chain answers its network's own id)
    expect(state.network_config.map((n) => n.chain_id)).toEqual(["73571", null]);
    expect(state.vnets.map((v) => v.chain_id)).toEqual(["73571", "8453"]);
    // AND a chain that did not answer leaves state as it was; an import learns the override from the chain
    expect(toState(service, known, new Map()).network_config.map((n) => n.chain_id)).toEqual(["73572", null]);
    expect(toState(service, null, new Map([["1", "73571"]])).network_config.map((n) => n.chain_id)).toEqual(["73571", null]);
  });

  it("copes with a caller who may not write: no Admin RPC entries gives empty admin URLs, not a crash", () => {
    const readOnly: Environment = {
      ...service,
      active_instance: {
        ...service.active_instance,
        vnets: service.active_instance.vnets.map((v) => ({ ...v, rpcs: v.rpcs.filter((r) => r.name !== "Admin RPC") })),
      },
    };
    const state = toState(readOnly, null);
    expect(state.admin_rpc_urls).toEqual({});
    expect(state.vnets.map((v) => v.admin_rpc_url)).toEqual([null, null]);
    expect(state.public_rpc_urls).toEqual({ "1": "http://svc/rpc/public/1", "8453": "http://svc/rpc/public/2" });
  });
});

describe("slugFromPrefix", () => {
  it("joins the prefix and 8 hex digits with one dash", () => {
    expect(slugFromPrefix("ci-", () => "3f9a0c1b")).toBe("ci-3f9a0c1b");
    expect(slugFromPrefix("ci", () => "3f9a0c1b")).toBe("ci-3f9a0c1b");
    expect(slugFromPrefix("ci")).toMatch(/^ci-[0-9a-f]{8}$/);
    expect(slugFromPrefix("ci")).not.toBe(slugFromPrefix("ci"));
  });
});

describe("createRequest", () => {
  it("sends hex wei, canonical block numbers, and only what the configuration set", () => {
    const request = createRequest({
      display_name: "Env",
      slug: "env",
      network_config: [
        {
          network_id: "1",
          block_number: "0x00FF",
          chain_id: "5",
          explorer: [{ enabled: null, verification_visibility: "abi" }],
          account: [{ address: "0x1111111111111111111111111111111111111111", balance: "1ether" }],
        },
        { network_id: "8453", block_number: null, chain_id: null, explorer: [], account: [] },
      ],
      bridge: [{ enabled: true, relay_mode: "delayedRelay", delay_seconds: 30 }],
    });
    expect(request).toEqual({
      display_name: "Env",
      slug: "env",
      network_configs: [
        {
          network_id: "1",
          block_number: "0xff",
          chain_config_overrides: { chain_id: "5" },
          explorer_config: { verification_visibility: "abi" },
          accounts: [{ address: "0x1111111111111111111111111111111111111111", balance: "0xde0b6b3a7640000" }],
        },
        { network_id: "8453" },
      ],
      bridge_config: { enabled: true, relay_mode: "delayedRelay", delay_seconds: 30 },
    });
  });
});

describe("environmentFieldPath", () => {
  it("maps the service's JSON pointers to attribute paths", () => {
    expect(environmentFieldPath("/network_configs/1/accounts/0/balance")).toEqual([
      { attribute: "network_config" },
      { index: 1 },
      { attribute: "account" },
      { index: 0 },
      { attribute: "balance" },
    ]);
    expect(environmentFieldPath("/network_configs/0/chain_config_overrides/chain_id")).toEqual([
      { attribute: "network_config" },
      { index: 0 },
      { attribute: "chain_id" },
    ]);
    expect(environmentFieldPath("/bridge_config/delay_seconds")).toEqual([
      { attribute: "bridge" },
      { index: 0 },
      { attribute: "delay_seconds" },
    ]);
    expect(environmentFieldPath("/slug")).toEqual([{ attribute: "slug" }]);
  });
});
