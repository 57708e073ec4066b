import { decodeTokenText } from "./token-metadata";

const word = (n: number) => n.toString(16).padStart(64, "0");
const text = (s: string) => Buffer.from(s).toString("hex").padEnd(64, "0");

test("a token's name decodes from an ABI string or a bytes32; anything else is not a name", () => {
  expect(decodeTokenText(`0x${word(32)}${word(12)}${text("Probe Dollar")}`)).toBe("Probe Dollar");
  expect(decodeTokenText(`0x${text("MKR")}`)).toBe("MKR"); // bytes32, zero-padded
  expect(decodeTokenText("0x")).toBeUndefined(); // no such function
  expect(decodeTokenText(`0x${word(32)}${word(1000)}${text("short")}`)).toBeUndefined(); // length past the data
  expect(decodeTokenText(`0x${word(4096)}${word(1)}`)).toBeUndefined(); // offset past the data
  expect(decodeTokenText(`0x${word(32)}${word(300)}${"61".repeat(300).padEnd(640, "0")}`)).toBe(`${"a".repeat(200)}…`);
});
