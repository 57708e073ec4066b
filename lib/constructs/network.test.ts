import { Bridge } from "./bridge";
import { Network } from "./network";

describe("Network", () => {
  it("names the well-known networks by their chain ids", () => {
    expect(Network.all()).toEqual({
      MAINNET: "1",
      OPTIMISM: "10",
      BNB: "56",
      GNOSIS: "100",
      POLYGON: "137",
      ZKSYNC: "324",
      BASE: "8453",
      ARBITRUM: "42161",
      AVALANCHE: "43114",
      BASE_SEPOLIA: "84532",
      SEPOLIA: "11155111",
    });
  });

  it("finds the name of a well-known id", () => {
    expect(Network.nameOf("8453")).toBe("BASE");
    expect(Network.nameOf("999999")).toBeUndefined();
  });
});

describe("Bridge", () => {
  it("offers the relay modes as ready-made configurations", () => {
    expect(Bridge.autoRelay()).toEqual({ enabled: true, relayMode: "autoRelay" });
    expect(Bridge.delayedRelay(30)).toEqual({ enabled: true, relayMode: "delayedRelay", delaySeconds: 30 });
    expect(Bridge.disabled()).toEqual({ enabled: false });
  });
});
