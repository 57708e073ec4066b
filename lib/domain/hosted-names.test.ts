import fc from "fast-check";
import { hostedGatewayUrl, hostedVnetRpcUrl, isHostedHostName, parseHostedHost } from "./hosted-names";

describe("parseHostedHost", () => {
  test.each([
    ["api.tenderly.co", { kind: "api" }],
    ["API.Tenderly.co:443", { kind: "api" }],
    ["rpc.tenderly.co", { kind: "rpc" }],
    ["virtual.mainnet.rpc.tenderly.co", { kind: "vnet", network: "mainnet" }],
    ["virtual.mainnet.eu.rpc.tenderly.co.", { kind: "vnet", network: "mainnet", region: "eu" }],
    ["base-sepolia.gateway.tenderly.co", { kind: "gateway", network: "base-sepolia" }],
  ])("%s", (host, expected) => expect(parseHostedHost(host)).toEqual(expected));

  test.each([
    "127.0.0.1:8787",
    "localhost",
    "tenderly.co",
    "dashboard.tenderly.co",
    "virtual.rpc.tenderly.co",
    "a.b.virtual.mainnet.rpc.tenderly.co",
    "evil-tenderly.co",
    "api.tenderly.co.evil.example",
    "mainnet.gateway.tenderly.co.evil.example",
    "-bad.gateway.tenderly.co",
  ])("%s is not a hosted name", (host) => expect(parseHostedHost(host)).toBeNull());

  test("the URLs it builds read back as the hosts they name", () => {
    expect(parseHostedHost(new URL(hostedVnetRpcUrl("base", "k")).host)).toEqual({ kind: "vnet", network: "base" });
    expect(parseHostedHost(new URL(hostedGatewayUrl("mainnet", "k")).host)).toEqual({ kind: "gateway", network: "mainnet" });
  });

  test("any string: never throws, and only names under tenderly.co are hosted", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (host) => {
        const parsed = parseHostedHost(host);
        if (parsed !== null) expect(host.toLowerCase()).toContain("tenderly.co");
        expect(isHostedHostName(host)).toBe(parsed !== null);
      }),
      { numRuns: 300 },
    );
  });
});
