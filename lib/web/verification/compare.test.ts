import { sameRuntimeCode, withoutMetadata } from "./compare";

/** A CBOR metadata tail: a map header, some bytes, and the two-byte length of both. */
function metadata(fill: string): string {
  const body = `a264${fill.repeat(10)}`;
  return `${body}${(body.length / 2).toString(16).padStart(4, "0")}`;
}

const BODY = "6080604052348015600e575f5ffd5b50";

test("codes that differ only in their metadata match", () => {
  expect(sameRuntimeCode(`${BODY}${metadata("aa")}`, `0x${BODY}${metadata("bb")}`)).toBe(true);
});

test("a different body does not match, nor does an empty or malformed code", () => {
  const other = BODY.replace("6080", "6081");
  expect(sameRuntimeCode(`${BODY}${metadata("aa")}`, `0x${other}${metadata("aa")}`)).toBe(false);
  expect(sameRuntimeCode("", "0x")).toBe(false);
  expect(sameRuntimeCode(BODY, "0xzz")).toBe(false);
  expect(sameRuntimeCode(BODY, `0x${BODY}00`)).toBe(false);
});

test("immutables are compared as the zeros the compiler leaves", () => {
  const compiled = `7f${"00".repeat(32)}${BODY}`;
  const deployed = `0x7f${"12".repeat(32)}${BODY}`;
  expect(sameRuntimeCode(compiled, deployed)).toBe(false);
  expect(sameRuntimeCode(compiled, deployed, { "7": [{ start: 1, length: 32 }] })).toBe(true);
});

test("code without a CBOR tail is kept whole", () => {
  const code = Buffer.from(`${BODY}0003`, "hex");
  expect(withoutMetadata(code)).toEqual(code);
});
