import { encode, ExtData } from "@msgpack/msgpack";
import { decodeMsgpack, encodeMsgpack } from "./msgpack";
import { encodeRefinement } from "./refinement";
import { cty } from "./type";
import { isUnknown, type UnknownValue } from "./unknown";

// go-cty frames the payload as a map with integer keys; @msgpack/msgpack (the reference here) writes only string
// keys, so the test frames the map by hand as go-cty's bytes are laid out.
const payload = (entries: [number, unknown][]) =>
  Buffer.concat([Uint8Array.of(0x80 | entries.length), ...entries.flatMap(([key, value]) => [Uint8Array.of(key), encode(value)])]);

// A payload as Terraform sends it: an unknown string, msgpack extension 12.
const decodeRefinement = (bytes: Uint8Array) => {
  const value = decodeMsgpack(encode(new ExtData(12, bytes)), cty.string);
  expect(isUnknown(value)).toBe(true);
  return (value as UnknownValue).refinement;
};

describe("refinement payloads (msgpack extension 12)", () => {
  test("encode as go-cty does: a fixmap of integer keys, each value in its smallest msgpack form", () => {
    const number = encodeRefinement({ notNull: true, numberMin: [0, true], numberMax: [10.5, false] }, cty.number, encodeMsgpack);
    expect(Buffer.from(number!).toString("hex")).toBe(
      payload([
        [1, false],
        [3, [0, true]],
        [4, [10.5, false]],
      ]).toString("hex"),
    );
    const list = encodeRefinement({ lengthMin: 2, lengthMax: 70_000 }, cty.list(cty.string), encodeMsgpack);
    expect(Buffer.from(list!).toString("hex")).toBe(
      payload([
        [5, 2],
        [6, 70_000],
      ]).toString("hex"),
    );
    const text = encodeRefinement({ stringPrefix: "prefix-é" }, cty.string, encodeMsgpack);
    expect(Buffer.from(text!).toString("hex")).toBe(payload([[2, "prefix-é"]]).toString("hex"));
  });

  test("decode what they understand and skip other keys, whatever their values", () => {
    const bytes = payload([
      [7, { nested: [1, "two", null, 3.25] }],
      [1, false],
      [9, new ExtData(3, Uint8Array.of(1, 2, 3))],
      [2, "pre-"],
      [8, Buffer.alloc(300, 7)],
      [3, ["-12345678901234567890", true]], // a bound beyond 2^53 arrives as a decimal string
      [4, [-1e300, false]],
      [6, 4],
    ]);
    expect(decodeRefinement(bytes)).toEqual({
      notNull: true,
      stringPrefix: "pre-",
      numberMin: [-12345678901234567890, true],
      numberMax: [-1e300, false],
      lengthMax: 4,
    });
  });

  test("an empty, truncated, overlong or non-map payload is no refinement (a plain unknown)", () => {
    const good = payload([
      [1, false],
      [2, "pre-"],
    ]);
    expect(decodeRefinement(good)).toEqual({ notNull: true, stringPrefix: "pre-" });
    expect(decodeRefinement(new Uint8Array(0))).toBeUndefined();
    expect(decodeRefinement(good.subarray(0, good.length - 1))).toBeUndefined();
    expect(decodeRefinement(Buffer.concat([good, Uint8Array.of(0xc0)]))).toBeUndefined();
    expect(decodeRefinement(encode([1, false]))).toBeUndefined();
    expect(decodeRefinement(Uint8Array.of(0x81, 0x01, 0xc1))).toBeUndefined(); // 0xc1: a format msgpack never uses
  });
});
