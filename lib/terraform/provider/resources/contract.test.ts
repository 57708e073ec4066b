import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Diagnostics } from "../../framework";
import { toAbiValues, AbiValueError, fromAbiValue } from "../abi-values";
import { loadArtifact } from "../artifact";
import { ChainRpcError } from "../chain-rpc";
import { keccak256, type Abi } from "../viem";
import { deploymentSource, revertReason } from "./contract";

const TOKEN = join(__dirname, "..", "..", "..", "..", "dist", "contracts", "ChainformToken.json");
const dir = mkdtempSync(join(tmpdir(), "chainform-artifacts-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const write = (name: string, content: unknown) => {
  const path = join(dir, name);
  writeFileSync(path, typeof content === "string" ? content : JSON.stringify(content));
  return path;
};
const ABI: Abi = [
  {
    type: "constructor",
    stateMutability: "nonpayable",
    inputs: [
      { name: "owner", type: "address" },
      { name: "limit", type: "uint8" },
    ],
  },
];

describe("artifacts", () => {
  it("reads Foundry (bytecode.object) and Hardhat (bytecode string) artifacts alike, hashing the bytecode", () => {
    const foundry = loadArtifact(write("foundry.json", { abi: ABI, bytecode: { object: "0x6001", sourceMap: "" } }));
    const hardhat = loadArtifact(write("hardhat.json", { contractName: "X", abi: ABI, bytecode: "0x6001" }));
    expect(foundry).toMatchObject({ bytecode: "0x6001", bytecodeHash: keccak256("0x6001"), contractName: null });
    expect(hardhat).toMatchObject({ bytecode: "0x6001", bytecodeHash: keccak256("0x6001"), contractName: "X" });
  });

  it.each([
    ["a missing file", () => join(dir, "missing.json"), /Cannot read .*missing\.json \(no such file/],
    ["not JSON", () => write("text.json", "{"), /is not JSON/],
    ["no abi", () => write("noabi.json", { bytecode: "0x00" }), /has no "abi" array/],
    ["an interface (no bytecode)", () => write("iface.json", { abi: [], bytecode: "0x" }), /has no bytecode: it is an interface/],
    [
      "unlinked libraries",
      () => write("linked.json", { abi: [], bytecode: { object: `0x60__$${"a".repeat(34)}$__00` } }),
      /needs linked libraries/,
    ],
  ])("explains %s", (_what, path, message) => {
    expect(loadArtifact(path())).toEqual({ error: expect.stringMatching(message) });
  });
});

describe("deploymentSource", () => {
  it("encodes the constructor arguments of the built token", () => {
    const diagnostics = new Diagnostics();
    const source = deploymentSource(
      { artifact_path: TOKEN, bytecode: null, abi: null, constructor_args: ["T", "T", "18", "0x10"] },
      diagnostics,
    );
    expect(diagnostics.all).toEqual([]);
    expect(source?.args).toEqual(["T", "T", 18n, 16n]);
  });

  it.each([
    [["T", "T", "18"], [], /takes 4 argument\(s\) \(string name_, string symbol_, uint8 decimals_, uint256 initialSupply\), got 3/],
    [["T", "T", "256", "1"], [2], /Argument 2 \(uint8 decimals_\) of the constructor: 256 does not fit uint8 \(0 to 255\)/],
    [["T", "T", "1.5", "1"], [2], /expected a whole number/],
  ])("puts %j on constructor_args with the index at fault", (args, index, message) => {
    const diagnostics = new Diagnostics();
    expect(deploymentSource({ artifact_path: TOKEN, bytecode: null, abi: null, constructor_args: args }, diagnostics)).toBeUndefined();
    expect(diagnostics.all).toEqual([
      expect.objectContaining({
        severity: "error",
        detail: expect.stringMatching(message),
        path: [{ attribute: "constructor_args" }, ...index.map((i) => ({ index: i }))],
      }),
    ]);
  });

  it("needs abi with bytecode, and something to deploy", () => {
    const withoutAbi = new Diagnostics();
    deploymentSource({ artifact_path: null, bytecode: "0x6001", abi: null, constructor_args: null }, withoutAbi);
    expect(withoutAbi.all[0]).toMatchObject({ summary: "abi is required with bytecode", path: [{ attribute: "abi" }] });
    const nothing = new Diagnostics();
    deploymentSource({ artifact_path: null, bytecode: null, abi: null, constructor_args: null }, nothing);
    expect(nothing.all[0]).toMatchObject({ summary: "Nothing to deploy", path: [{ attribute: "artifact_path" }] });
  });
});

describe("ABI values", () => {
  it("converts Terraform strings to each ABI type and back", () => {
    const params = [
      { type: "address" },
      { type: "bool" },
      { type: "int8" },
      { type: "bytes2" },
      { type: "uint256[]" },
      {
        type: "tuple",
        components: [
          { name: "a", type: "uint8" },
          { name: "b", type: "string" },
        ],
      },
    ] as const;
    const values = toAbiValues(
      params as never,
      ["0x00000000000000000000000000000000000000Aa", "true", "-128", "0xabcd", '[1, "2"]', '{"a": 1, "b": "x"}'],
      "f",
    );
    expect(values).toEqual(["0x00000000000000000000000000000000000000Aa", true, -128n, "0xabcd", [1n, 2n], { a: 1n, b: "x" }]);
    expect(fromAbiValue({ type: "address" }, "0x00000000000000000000000000000000000000Aa")).toBe(
      "0x00000000000000000000000000000000000000aa",
    );
    expect(fromAbiValue({ type: "uint256[]" }, [1n, 2n])).toBe('["1","2"]');
  });

  it("names the argument that does not fit", () => {
    expect(() => toAbiValues([{ type: "bool", name: "on" }], ["yes"], "f")).toThrow(
      new AbiValueError(0, 'Argument 0 (bool on) of f: expected true or false, got "yes"'),
    );
    expect(() => toAbiValues([{ type: "bytes2" }], ["0xab"], "f")).toThrow(/expected exactly 2 bytes, got 1/);
  });
});

describe("revertReason", () => {
  const abi: Abi = [{ type: "error", name: "TooLow", inputs: [{ name: "limit", type: "uint256" }] }];
  it("decodes Error(string), custom errors, and falls back to the chain's message", () => {
    const errorString =
      "0x08c379a0000000000000000000000000000000000000000000000000000000000000002000000000000000000000000000000000000000000000000000000000000000046e6f706500000000000000000000000000000000000000000000000000000000";
    expect(revertReason(abi, new ChainRpcError(3, "execution reverted: nope", errorString))).toBe('"nope"');
    const custom = `0x${keccak256(`0x${Buffer.from("TooLow(uint256)").toString("hex")}`).slice(2, 10)}${"7".padStart(64, "0")}`;
    expect(revertReason(abi, new ChainRpcError(3, "execution reverted", custom))).toBe("TooLow(7)");
    expect(revertReason(abi, new ChainRpcError(3, "execution reverted: out of gas"))).toBe("out of gas");
  });
});
