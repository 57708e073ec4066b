import fc from "fast-check";
import { abiDecoder, formatValue } from "./decoder";
import { STANDARD_INTERFACES } from "./standard-interfaces";

const viem = require("viem") as typeof import("viem", { with: { "resolution-mode": "import" } });
const { encodeAbiParameters, encodeEventTopics, encodeFunctionData, encodeFunctionResult, parseAbi, toFunctionSelector } = viem;
type Hex = `0x${string}`;

// Checksummed (mixed case), as viem answers addresses: the decoder shows them lowercase.
const A = viem.getAddress(`0x${"ab".repeat(20)}`);
const B = viem.getAddress(`0x${"cd".repeat(20)}`);

/** The ERC-4626 selector chainform's bridge also has: deposit(uint256,address). */
const BRIDGE = parseAbi([
  "function deposit(uint256 destinationChainId, address recipient) payable returns (bytes32 depositId)",
  "event Relayed(bytes32 indexed depositId, uint256 indexed sourceChainId, address indexed recipient, uint256 amount)",
]);
const decoder = abiDecoder(viem, () => [BRIDGE]);

/** A log of `line` (one event) with `args`, as a chain answers it. */
function logOf(line: string, args: Record<string, unknown>, data: Hex = "0x") {
  const abi = parseAbi([line] as [string]);
  const topics = encodeEventTopics({ abi, args } as never) as Hex[];
  return { address: "0x00000000000000000000000000000000000000Cc", topics, data };
}

describe("the domain's decoder", () => {
  test("tells an ERC-20 Transfer from an ERC-721 one by how many topics it indexes", () => {
    const erc20 = decoder.decodeLog(
      logOf(
        "event Transfer(address indexed from, address indexed to, uint256 value)",
        { from: A, to: B },
        encodeAbiParameters([{ type: "uint256" }], [100n]),
      ),
    );
    expect(erc20.name).toBe("Transfer");
    expect(erc20.inputs).toEqual([
      { name: "from", type: "address", value: A.toLowerCase() },
      { name: "to", type: "address", value: B.toLowerCase() },
      { name: "value", type: "uint256", value: "100" },
    ]);
    expect(erc20.raw.address).toBe("0x00000000000000000000000000000000000000cc");
    const erc721 = decoder.decodeLog(
      logOf("event Transfer(address indexed from, address indexed to, uint256 indexed tokenId)", { from: A, to: B, tokenId: 7n }),
    );
    expect(erc721.inputs.map((input) => [input.name, input.value])).toEqual([
      ["from", A.toLowerCase()],
      ["to", B.toLowerCase()],
      ["tokenId", "7"],
    ]);
  });

  test("tells WETH's Deposit from ERC-4626's by how many topics it indexes", () => {
    const weth = decoder.decodeLog(
      logOf("event Deposit(address indexed dst, uint256 wad)", { dst: A }, encodeAbiParameters([{ type: "uint256" }], [5n])),
    );
    expect([weth.name, weth.inputs.map((input) => input.name)]).toEqual(["Deposit", ["dst", "wad"]]);
    const vault = decoder.decodeLog(
      logOf(
        "event Deposit(address indexed sender, address indexed owner, uint256 assets, uint256 shares)",
        { sender: A, owner: B },
        encodeAbiParameters([{ type: "uint256" }, { type: "uint256" }], [3n, 2n]),
      ),
    );
    expect(vault.inputs.map((input) => [input.name, input.value])).toEqual([
      ["sender", A.toLowerCase()],
      ["owner", B.toLowerCase()],
      ["assets", "3"],
      ["shares", "2"],
    ]);
    // A topic count no shape has is no event.
    const odd = logOf("event Deposit(address indexed dst, uint256 wad)", { dst: A });
    expect(decoder.decodeLog({ ...odd, topics: [...odd.topics, odd.topics[1]!, odd.topics[1]!] }).name).toBe("");
  });

  test("the contract's own ABI comes before the standard interfaces, which come before the extra ABIs", () => {
    const input = encodeFunctionData({ abi: BRIDGE, functionName: "deposit", args: [10n, A] });
    // Without its own ABI, the bridge's deposit reads as ERC-4626's (same selector, the standard comes first).
    const standard = decoder.decodeCall(input, undefined, false);
    expect([standard.method, standard.args.map((a) => a.name)]).toEqual(["deposit", ["assets", "receiver"]]);
    const own = decoder.decodeCall(input, `0x${"ab".repeat(32)}`, true, { abi: BRIDGE });
    expect(own.args).toEqual([
      { name: "destinationChainId", type: "uint256", value: "10" },
      { name: "recipient", type: "address", value: A.toLowerCase() },
    ]);
    expect(own.results).toEqual([{ name: "depositId", type: "bytes32", value: `0x${"ab".repeat(32)}` }]);
    const ownTransfer = parseAbi(["event Transfer(address indexed src, address indexed dst, uint256 wad)"]);
    const log = logOf(
      "event Transfer(address indexed from, address indexed to, uint256 value)",
      { from: A, to: B },
      encodeAbiParameters([{ type: "uint256" }], [1n]),
    );
    expect(decoder.decodeLog(log, { abi: ownTransfer }).inputs.map((input) => input.name)).toEqual(["src", "dst", "wad"]);
    // The extra ABI fills in what the standard interfaces lack.
    const relayed = logOf(
      "event Relayed(bytes32 indexed depositId, uint256 indexed sourceChainId, address indexed recipient, uint256 amount)",
      { depositId: `0x${"01".repeat(32)}`, sourceChainId: 1n, recipient: A },
      encodeAbiParameters([{ type: "uint256" }], [9n]),
    );
    expect(decoder.decodeLog(relayed).name).toBe("Relayed");
  });

  test("where two definitions share a selector, the first one wins", () => {
    const extra = parseAbi([
      "function transfer(address dst, uint256 wad) returns (bool ok)",
      "function poke(uint256 first)",
      "function poke(uint256 second)",
    ]);
    const later = abiDecoder(viem, () => [extra]);
    const transfer = later.decodeCall(encodeFunctionData({ abi: extra, functionName: "transfer", args: [A, 1n] }), undefined, false);
    expect(transfer.args.map((a) => a.name)).toEqual(["to", "value"]);
    const poke = later.decodeCall(`${toFunctionSelector("poke(uint256)")}${"0".repeat(63)}4`, undefined, false);
    expect(poke.args).toEqual([{ name: "first", type: "uint256", value: "4" }]);
    // ERC-20's approve and balanceOf come before ERC-721's and ERC-1155's functions.
    expect(
      later.decodeCall(encodeFunctionData({ abi: parseAbi(["function approve(address, uint256)"]), args: [A, 1n] }), undefined, false)
        .args[1],
    ).toEqual({
      name: "value",
      type: "uint256",
      value: "1",
    });
  });

  test("calldata that does not fit its signature keeps the method's name, with no arguments", () => {
    const short = decoder.decodeCall(`${toFunctionSelector("transfer(address,uint256)")}0000`, undefined, true);
    expect(short).toEqual({ method: "transfer", args: [], results: [] });
    expect(decoder.decodeCall("0x12345678", undefined, true)).toEqual({ method: "0x12345678", args: [], results: [] });
    expect(decoder.decodeCall("0xABCDEF01aa", undefined, true).method).toBe("0xabcdef01");
    expect(decoder.decodeCall("0x", undefined, true)).toEqual({ method: "", args: [], results: [] });
  });

  test("the output is decoded only when the call succeeded, with the outputs' names", () => {
    const abi = parseAbi(["function balanceOf(address) view returns (uint256)"]);
    const input = encodeFunctionData({ abi, args: [A] });
    const output = encodeFunctionResult({ abi, functionName: "balanceOf", result: 42n });
    expect(decoder.decodeCall(input, output, true).results).toEqual([{ name: "balance", type: "uint256", value: "42" }]);
    expect(decoder.decodeCall(input, output, false).results).toEqual([]);
    expect(decoder.decodeCall(input, "0x", true).results).toEqual([]);
    expect(decoder.decodeCall(input, "0x01", true)).toMatchObject({ method: "balanceOf", results: [] });
  });

  test("an event with an unnamed input (a V2 factory's PairCreated) decodes every input", () => {
    const created = decoder.decodeLog(
      logOf(
        "event PairCreated(address indexed token0, address indexed token1, address pair, uint256)",
        { token0: A, token1: B },
        encodeAbiParameters([{ type: "address" }, { type: "uint256" }], [B, 1n]),
      ),
    );
    expect(created.inputs.map((input) => [input.name, input.value])).toEqual([
      ["token0", A.toLowerCase()],
      ["token1", B.toLowerCase()],
      ["pair", B.toLowerCase()],
      ["", "1"],
    ]);
  });

  test("one way to show a value: decimal integers, lowercase addresses inside lists and tuples, booleans kept", () => {
    expect(formatValue({ type: "bool" }, false)).toBe(false);
    expect(formatValue({ type: "uint256" }, 10n ** 30n)).toBe("1000000000000000000000000000000");
    expect(formatValue({ type: "uint8" }, 18)).toBe("18");
    expect(formatValue({ type: "address" }, A)).toBe(A.toLowerCase());
    expect(formatValue({ type: "address[]" }, [A, B])).toBe(JSON.stringify([A.toLowerCase(), B.toLowerCase()]));
    const approvals = {
      type: "tuple[]",
      components: [
        { name: "token", type: "address" },
        { name: "amount", type: "uint160" },
        { name: "label", type: "string" },
      ],
    };
    expect(formatValue(approvals, [{ token: A, amount: 5n, label: B }])).toBe(
      JSON.stringify([{ token: A.toLowerCase(), amount: "5", label: B }]),
    );
    expect(formatValue({ type: "tuple", components: [{ type: "address" }, { type: "bool" }] }, [B, true])).toBe(
      JSON.stringify([B.toLowerCase(), true]),
    );
    expect(formatValue({ type: "bytes" }, "0xAB")).toBe("0xAB");
  });

  test("arbitrary calldata, topics and data never throw: a known name, the selector, or nothing", () => {
    const standard = parseAbi(STANDARD_INTERFACES as string[]);
    const functionNames = new Set([...standard, ...BRIDGE].filter((item) => item.type === "function").map((item) => item.name));
    const eventNames = new Set([...standard, ...BRIDGE].filter((item) => item.type === "event").map((item) => item.name));
    const selectors = [...standard, ...BRIDGE].filter((item) => item.type === "function").map((item) => toFunctionSelector(item));
    const topics = [...standard, ...BRIDGE].filter((item) => item.type === "event").map((item) => viem.toEventSelector(item));
    const hex = fc.uint8Array({ maxLength: 200 }).map((bytes) => `0x${Buffer.from(bytes).toString("hex")}`);
    const word = fc.uint8Array({ minLength: 32, maxLength: 32 }).map((bytes) => `0x${Buffer.from(bytes).toString("hex")}`);
    fc.assert(
      fc.property(fc.oneof(fc.constantFrom(...selectors), hex), hex, hex, fc.boolean(), (head, rest, output, succeeded) => {
        const input = head.length >= 10 ? head + rest.slice(2) : head;
        const call = decoder.decodeCall(input, output, succeeded);
        if (input.length < 10) expect(call.method).toBe("");
        else expect(functionNames.has(call.method) || call.method === input.slice(0, 10).toLowerCase()).toBe(true);
        if (!succeeded) expect(call.results).toEqual([]);
      }),
      { numRuns: 300 },
    );
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.constantFrom(...topics), word), { maxLength: 5 }), hex, (logTopics, data) => {
        const log = decoder.decodeLog({ address: A, topics: logTopics, data });
        expect(log.name === "" || eventNames.has(log.name)).toBe(true);
        expect(log.raw).toEqual({ address: A.toLowerCase(), topics: logTopics, data });
      }),
      { numRuns: 300 },
    );
  });
});
