import { execFileSync } from "node:child_process";
import { join } from "node:path";
import fc from "fast-check";
import { decodeCallData, decodeEvent } from "./book";
import signatureTable from "./signatures.json";

const TRANSFER_TOPIC = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef";
const word = (hex: string) => hex.replace(/^0x/, "").padStart(64, "0");

test("names calls from the signature table and the standard interfaces, without any ABI", () => {
  const swap = decodeCallData(
    `0x7ff36ab5${word("1")}${word("80")}${word("beef")}${word("ff")}${word("1")}${word("aa")}`,
    undefined,
    true,
    undefined,
  );
  expect(swap.method).toBe("swapExactETHForTokens");
  expect(swap.args.map((a) => a.name)).toEqual(["amountOutMin", "path", "to", "deadline"]);
  expect(decodeCallData("0xd0e30db0", undefined, true, undefined).method).toBe("deposit");
  expect(decodeCallData("0x12345678", undefined, true, undefined).method).toBe("0x12345678");
  expect(decodeCallData("0x", undefined, true, undefined).method).toBe("");
});

test("tells ERC-20 from ERC-721 Transfer, and WETH from ERC-4626 Deposit, by their topic count", () => {
  const erc20 = decodeEvent(
    { address: "0xA", topics: [TRANSFER_TOPIC, `0x${word("1")}`, `0x${word("2")}`], data: `0x${word("64")}` },
    undefined,
  );
  expect(erc20.inputs.map((i) => [i.name, i.value])).toEqual([
    ["from", "0x0000000000000000000000000000000000000001"],
    ["to", "0x0000000000000000000000000000000000000002"],
    ["value", "100"],
  ]);
  const erc721 = decodeEvent(
    { address: "0xa", topics: [TRANSFER_TOPIC, `0x${word("1")}`, `0x${word("2")}`, `0x${word("7")}`], data: "0x" },
    undefined,
  );
  expect(erc721.inputs.map((i) => i.name)).toEqual(["from", "to", "tokenId"]);
  const wethDeposit = Object.entries(signatureTable.events).find(([, shapes]) =>
    shapes.some((s) => s.includes("Deposit(address indexed dst")),
  )!;
  const weth = decodeEvent({ address: "0xa", topics: [wethDeposit[0], `0x${word("1")}`], data: `0x${word("5")}` }, undefined);
  expect([weth.name, weth.inputs.map((i) => i.name)]).toEqual(["Deposit", ["dst", "wad"]]);
});

test("hostile calldata and logs decode to something or nothing, never a throw", () => {
  const hex = fc.uint8Array({ maxLength: 300 }).map((b) => `0x${Buffer.from(b).toString("hex")}`);
  const selector = fc.constantFrom(...Object.keys(signatureTable.functions), "0xa9059cbb", "0x00000000");
  fc.assert(
    fc.property(selector, hex, (sel, rest) => {
      const call = decodeCallData(sel + rest.slice(2), rest, true, undefined);
      expect(typeof call.method).toBe("string");
    }),
    { numRuns: 300 },
  );
  const topic = fc.constantFrom(...Object.keys(signatureTable.events), TRANSFER_TOPIC);
  fc.assert(
    fc.property(topic, fc.array(fc.uint8Array({ minLength: 32, maxLength: 32 }), { maxLength: 4 }), hex, (t, extra, data) => {
      const topics = [t, ...extra.map((b) => `0x${Buffer.from(b).toString("hex")}`)];
      expect(typeof decodeEvent({ address: "0xa", topics, data }, undefined).name).toBe("string");
    }),
    { numRuns: 300 },
  );
});

test("the committed signature table is what the generator writes from the installed packages", () => {
  const root = join(__dirname, "..", "..", "..");
  expect(execFileSync(process.execPath, [join(root, "scripts", "gen-signatures.mjs"), "--check"], { encoding: "utf8" })).toContain(
    "up to date",
  );
});
