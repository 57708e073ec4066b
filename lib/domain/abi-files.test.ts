import fc from "fast-check";
import { parseAbiFile } from "./abi-files";

const PING = { type: "function", name: "ping", inputs: [{ name: "to", type: "address" }], outputs: [] };

test("takes a plain ABI, a Foundry artifact and a Hardhat artifact, with the contract's name", () => {
  expect(parseAbiFile(JSON.stringify([PING]))).toEqual({ abi: [PING], name: "" });
  expect(parseAbiFile(JSON.stringify({ abi: [PING], bytecode: { object: "0x" } }), "out/Pinger.sol/Pinger.json")).toEqual({
    abi: [PING],
    name: "Pinger",
  });
  expect(parseAbiFile(JSON.stringify({ contractName: "Pinger", abi: [PING] }))).toEqual({ abi: [PING], name: "Pinger" });
  const tuple = { type: "function", name: "f", inputs: [{ type: "tuple[2][]", components: [{ name: "a", type: "bytes32" }] }] };
  expect(parseAbiFile(JSON.stringify([tuple]))).toEqual({ abi: [tuple], name: "" });
});

test("names the entry at fault", () => {
  const bad = (entry: unknown) => parseAbiFile(JSON.stringify([PING, entry]));
  expect(bad({ type: "function", name: "f", inputs: [{ type: "uint257" }] })).toEqual({
    error: "abi[1]: inputs[0]: type uint257 has no such size",
  });
  expect(bad({ type: "function", name: "f", inputs: [{ type: "tuple" }] })).toEqual({
    error: "abi[1]: inputs[0]: a tuple needs its components",
  });
  expect(bad({ type: "event", name: "" })).toEqual({ error: "abi[1]: name must be a Solidity identifier" });
  expect(bad("x")).toEqual({ error: "abi[1]: each entry must be an object" });
  expect(parseAbiFile("{")).toEqual({ error: expect.stringContaining("not JSON") });
  expect(parseAbiFile('{"abi": 1}')).toEqual({ error: expect.stringContaining("must be a JSON array") });
});

test("any input gets an answer, never a throw; deep tuples stop at a bound", () => {
  fc.assert(
    fc.property(
      fc.oneof(
        fc.string(),
        fc.json(),
        fc.jsonValue().map((v) => JSON.stringify({ abi: [v] })),
      ),
      (text) => {
        const result = parseAbiFile(text);
        expect("abi" in result || typeof result.error === "string").toBe(true);
      },
    ),
    { numRuns: 300 },
  );
  let param: Record<string, unknown> = { type: "uint8" };
  for (let i = 0; i < 40; i++) param = { type: "tuple", components: [param] };
  expect(parseAbiFile(JSON.stringify([{ type: "function", name: "f", inputs: [param] }]))).toEqual({
    error: expect.stringContaining("nest deeper than 16 levels"),
  });
});
