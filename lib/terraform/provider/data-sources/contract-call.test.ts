import { resolveFunction } from "./contract-call";

const ABI = JSON.stringify([
  {
    type: "function",
    name: "balanceOf",
    stateMutability: "view",
    inputs: [{ name: "a", type: "address" }],
    outputs: [{ type: "uint256" }],
  },
  { type: "function", name: "owner", stateMutability: "view", inputs: [], outputs: [{ type: "address" }] },
]);

describe("chainform_contract_call functions", () => {
  it("finds a function by name in the ABI", () => {
    expect(resolveFunction("balanceOf", ABI, 1)).toMatchObject({ name: "balanceOf", inputs: [{ type: "address" }] });
  });

  it("parses a signature without an ABI, with or without the function keyword", () => {
    expect(resolveFunction("owner() view returns (address)", null, 0)).toMatchObject({ name: "owner", outputs: [{ type: "address" }] });
    expect(resolveFunction("function totalSupply() view returns (uint256)", null, 0)).toMatchObject({ name: "totalSupply" });
  });

  it.each([
    ["transfer", ABI, /The ABI has no function transfer; it has balanceOf, owner/, "function"],
    ["owner()", null, /declares no outputs/, "function"],
    ["not a signature", null, /is not a function signature/, "function"],
    ["owner", "{}", /abi must be a JSON array/, "abi"],
  ])("explains %j", (fn, abi, message, path) => {
    expect(resolveFunction(fn, abi, 0)).toEqual({ error: expect.stringMatching(message), path });
  });
});
