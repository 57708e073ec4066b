import { decode, encode, ExtData } from "@msgpack/msgpack";
import { decodeMsgpack, encodeMsgpack } from "./msgpack";
import { cty, type CtyType } from "./type";
import { isUnknown, Unknown, UnknownValue } from "./unknown";
import { isKnownDeep, TypedValue, type CtyValue } from "./value";

const roundTrip = (value: CtyValue, type: CtyType): CtyValue => decodeMsgpack(encodeMsgpack(value, type), type);
const hex = (text: string): Uint8Array => Buffer.from(text.replace(/\s+/g, ""), "hex");
const hexOf = (bytes: Uint8Array): string => Buffer.from(bytes).toString("hex");

describe("msgpack codec: known values of every type round-trip", () => {
  const rule = cty.object({ name: cty.string, ports: cty.list(cty.number), enabled: cty.bool });
  const cases: [string, CtyType, CtyValue][] = [
    ["string", cty.string, "hello ✓"],
    ["empty string", cty.string, ""],
    ["integer", cty.number, 42],
    ["negative integer", cty.number, -7],
    ["float", cty.number, 1.5],
    ["large integer", cty.number, 2 ** 53],
    ["bool", cty.bool, false],
    ["list", cty.list(cty.string), ["a", "b"]],
    ["empty list", cty.list(cty.string), []],
    ["set", cty.set(cty.number), [1, 2, 3]],
    ["map", cty.map(cty.bool), { a: true, b: false }],
    ["object", rule, { enabled: true, name: "web", ports: [80, 443] }],
    ["tuple", cty.tuple(cty.string, cty.number), ["x", 1]],
    ["list of objects", cty.list(rule), [{ enabled: false, name: "a", ports: [] }]],
    ["map of lists", cty.map(cty.list(cty.number)), { x: [1], y: [] }],
    ["set of objects", cty.set(cty.object({ k: cty.string })), [{ k: "1" }, { k: "2" }]],
  ];
  test.each(cases)("%s", (_name, type, value) => {
    expect(roundTrip(value, type)).toEqual(value);
  });
});

describe("msgpack codec: nulls", () => {
  test("null at the root and inside every container", () => {
    const type = cty.object({
      s: cty.string,
      l: cty.list(cty.string),
      m: cty.map(cty.string),
      nested: cty.object({ n: cty.number }),
      elements: cty.list(cty.string),
    });
    const value = { s: null, l: null, m: { a: null }, nested: { n: null }, elements: ["x", null] };
    expect(roundTrip(value, type)).toEqual(value);
    expect(roundTrip(null, type)).toBeNull();
    expect(encodeMsgpack(null, type)).toEqual(Uint8Array.of(0xc0));
  });

  test("objects are sent with every attribute, absent ones as nil, keys sorted like go-cty", () => {
    const type = cty.object({ b: cty.string, a: cty.number });
    expect(decode(encodeMsgpack({ b: "x" }, type))).toEqual({ a: null, b: "x" });
    expect(Object.keys(decode(encodeMsgpack({ b: "x", a: 1 }, type)) as object)).toEqual(["a", "b"]);
  });
});

describe("msgpack codec: unknowns", () => {
  test("a plain unknown is go-cty's fixext1 type 0", () => {
    expect(Buffer.from(encodeMsgpack(Unknown, cty.string)).toString("hex")).toBe("d40000");
    expect(isUnknown(decodeMsgpack(hex("d40000"), cty.string))).toBe(true);
  });

  test("unknown at every depth survives a round trip", () => {
    const type = cty.object({
      top: cty.string,
      list: cty.list(cty.string),
      elements: cty.list(cty.string),
      map: cty.map(cty.number),
      block: cty.list(cty.object({ deep: cty.bool, deeper: cty.object({ deepest: cty.string }) })),
    });
    const value = {
      top: Unknown,
      list: Unknown,
      elements: ["a", Unknown],
      map: { k: Unknown },
      block: [{ deep: Unknown, deeper: { deepest: Unknown } }],
    };
    const back = roundTrip(value, type) as Record<string, CtyValue>;
    expect(isUnknown(back.top)).toBe(true);
    expect(isUnknown(back.list)).toBe(true);
    expect(back.elements).toEqual(["a", Unknown]);
    expect(isUnknown((back.map as Record<string, CtyValue>).k)).toBe(true);
    expect(back).toEqual(value);
    expect(isKnownDeep(back)).toBe(false);
    expect(isKnownDeep({ top: "x", list: [null, { a: 1 }] })).toBe(true);
  });

  test("refined unknowns from Terraform (extension 12) decode as unknown with their refinements", () => {
    // What go-cty writes for a string known to start with "pre-" and never be null: ext 12 {1: false, 2: "pre-"}
    const payload = Buffer.concat([Buffer.from([0x82, 0x01, 0xc2, 0x02]), Buffer.from(encode("pre-"))]);
    const wire = encode(new ExtData(12, payload));
    const value = decodeMsgpack(wire, cty.string);
    expect(isUnknown(value)).toBe(true);
    expect((value as UnknownValue).refinement).toEqual({ notNull: true, stringPrefix: "pre-" });
    // and encode back to the same bytes
    expect(Buffer.from(encodeMsgpack(value, cty.string))).toEqual(Buffer.from(wire));
  });

  test("number and length refinements round-trip; refinements that do not fit the type are dropped", () => {
    const number = new UnknownValue({ numberMin: [0, true], numberMax: [10, false] });
    expect(roundTrip(number, cty.number)).toEqual(number);
    const list = new UnknownValue({ notNull: true, lengthMin: 1, lengthMax: 3 });
    expect(roundTrip(list, cty.list(cty.string))).toEqual(list);
    expect(Buffer.from(encodeMsgpack(new UnknownValue({ stringPrefix: "x" }), cty.number)).toString("hex")).toBe("d40000");
  });

  test("an unrecognised or empty extension is still a plain unknown, as in go-cty", () => {
    expect(isUnknown(decodeMsgpack(encode(new ExtData(12, new Uint8Array(0))), cty.bool))).toBe(true);
    expect(isUnknown(decodeMsgpack(encode(new ExtData(5, Uint8Array.of(1))), cty.bool))).toBe(true);
  });
});

describe("msgpack codec: numbers as go-cty writes them", () => {
  test("big numbers arrive as decimal strings", () => {
    expect(decodeMsgpack(encode("123456789012345678901234567890"), cty.number)).toBe(1.2345678901234568e29);
    expect(decodeMsgpack(encode("0.1"), cty.number)).toBe(0.1);
  });

  test("uint64 and float32 encodings decode", () => {
    expect(decodeMsgpack(hex("cf 00 00 00 00 ff ff ff ff"), cty.number)).toBe(0xffffffff);
    expect(decodeMsgpack(hex("ca 3f c0 00 00"), cty.number)).toBe(1.5);
  });

  test("a string that is not a number is rejected with its path", () => {
    expect(() => decodeMsgpack(encode({ n: "abc" }), cty.object({ n: cty.number }))).toThrow(/^n: expected "number"/);
  });
});

describe("msgpack codec: dynamic values", () => {
  test("dynamic values travel as [type JSON bytes, value] and decode to TypedValue", () => {
    const type = cty.object({ anything: cty.dynamic });
    const wire = encodeMsgpack({ anything: new TypedValue(cty.list(cty.string), ["a"]) }, type);
    const raw = decode(wire) as { anything: [Uint8Array, unknown] };
    expect(Buffer.from(raw.anything[0]).toString()).toBe('["list","string"]');
    expect(decodeMsgpack(wire, type)).toEqual({ anything: new TypedValue(cty.list(cty.string), ["a"]) });
  });

  test("plain JS values in a dynamic attribute get their implied type", () => {
    const back = roundTrip({ a: 1, b: ["x", true] }, cty.dynamic);
    expect(back).toEqual(new TypedValue(cty.object({ a: cty.number, b: cty.tuple(cty.string, cty.bool) }), { a: 1, b: ["x", true] }));
  });

  test("unknown and null dynamic values are not wrapped", () => {
    expect(Buffer.from(encodeMsgpack(Unknown, cty.dynamic)).toString("hex")).toBe("d40000");
    expect(roundTrip(null, cty.dynamic)).toBeNull();
    expect(isUnknown(roundTrip(Unknown, cty.dynamic))).toBe(true);
  });

  test("a type sent as a msgpack string (not bytes) is accepted", () => {
    expect(decodeMsgpack(encode(['"number"', 3]), cty.dynamic)).toEqual(new TypedValue(cty.number, 3));
  });
});

describe("msgpack codec: type errors point at the value", () => {
  test("decoding a value of the wrong type", () => {
    expect(() => decodeMsgpack(encode({ tags: { a: 1 } }), cty.object({ tags: cty.map(cty.string) }))).toThrow(
      /^tags\["a"\]: expected "string", got number/,
    );
  });

  test("decoding an object with an attribute the type lacks", () => {
    expect(() => decodeMsgpack(encode({ a: "x", b: "y" }), cty.object({ a: cty.string }))).toThrow(/unsupported attribute "b"/);
  });

  test("encoding a value that does not conform", () => {
    expect(() => encodeMsgpack({ list: [1, "two"] }, cty.object({ list: cty.list(cty.number) }))).toThrow(
      /^list\[1\]: expected "number", got string/,
    );
    expect(() => encodeMsgpack({ extra: 1 }, cty.object({}))).toThrow(/unsupported attribute "extra"/);
  });
});

describe("msgpack codec: the bytes are what @msgpack/msgpack (and go-cty) read and write", () => {
  const sizes = [0, 1, 31, 32, 255, 256, 65_535, 65_536];

  test("numbers at every width boundary encode exactly as @msgpack/msgpack encodes them, and decode back", () => {
    const numbers = [
      0,
      1,
      127,
      128,
      255,
      256,
      65_535,
      65_536,
      2 ** 32 - 1,
      2 ** 32,
      2 ** 53 - 1,
      2 ** 53,
      -1,
      -32,
      -33,
      -128,
      -129,
      -32_768,
      -32_769,
      -(2 ** 31),
      -(2 ** 31) - 1,
      -(2 ** 53) + 1,
      1.5,
      -0.25,
      1e300,
      Infinity,
      -Infinity,
    ];
    for (const n of numbers) {
      const bytes = encodeMsgpack(n, cty.number);
      expect([n, Buffer.from(bytes).toString("hex")]).toEqual([n, Buffer.from(encode(n)).toString("hex")]);
      expect(decodeMsgpack(bytes, cty.number)).toBe(n);
    }
  });

  test("short strings, ASCII or not, as strings or as a dynamic value's type bytes, match @msgpack/msgpack", () => {
    // Below 64 characters the writer tries ASCII first and falls back at the first other character.
    const texts = [
      "",
      "a",
      "x".repeat(31),
      "x".repeat(32),
      "x".repeat(63),
      "x".repeat(64),
      "é",
      "abcé",
      "é" + "x".repeat(40),
      "x".repeat(62) + "é",
      "日本",
      "a\u007f\u0080",
    ];
    for (const text of texts) {
      expect([text, hexOf(encodeMsgpack(text, cty.string))]).toEqual([text, hexOf(encode(text))]);
      expect(decodeMsgpack(encodeMsgpack(text, cty.string), cty.string)).toBe(text);
      const map = { [text]: text };
      expect([text, hexOf(encodeMsgpack(map, cty.map(cty.string)))]).toEqual([text, hexOf(encode(map))]);
    }
    // A dynamic value's type goes as bin (its JSON's UTF-8 bytes), short enough here for the ASCII path.
    const bytes = encodeMsgpack(new TypedValue(cty.string, "v"), cty.dynamic);
    expect(hexOf(bytes)).toBe(hexOf(encode([Buffer.from('"string"'), "v"])));
  });

  test("strings, lists and maps of every header size match @msgpack/msgpack byte for byte", () => {
    for (const size of sizes) {
      const text = "é".repeat(size >> 1) + "x".repeat(size & 1); // multi-byte characters: byte length, not length
      expect(hexOf(encodeMsgpack(text, cty.string))).toBe(hexOf(encode(text)));
      expect(decodeMsgpack(encode(text), cty.string)).toBe(text);
    }
    for (const size of [0, 15, 16, 65_535, 65_536]) {
      const list = Array.from({ length: size }, (_, i) => i % 200);
      expect(hexOf(encodeMsgpack(list, cty.list(cty.number)))).toBe(hexOf(encode(list)));
      expect(JSON.stringify(decodeMsgpack(encode(list), cty.list(cty.number)))).toBe(JSON.stringify(list));
      const map = Object.fromEntries(list.map((v, i) => [`k${i}`, v % 2 === 0]));
      expect(hexOf(encodeMsgpack(map, cty.map(cty.bool)))).toBe(hexOf(encode(map)));
      expect(JSON.stringify(decodeMsgpack(encode(map), cty.map(cty.bool)))).toBe(JSON.stringify(map));
    }
  });

  test("a nested object with unknowns and a dynamic value is the same as @msgpack/msgpack's encoding of go-cty's form", () => {
    const type = cty.object({
      name: cty.string,
      count: cty.number,
      tags: cty.map(cty.string),
      rules: cty.list(cty.object({ port: cty.number, open: cty.bool })),
      extra: cty.dynamic,
      id: cty.string,
    });
    const value = { name: "n", count: 3, tags: { b: "2", a: "1" }, rules: [{ port: 80, open: true }], extra: "x", id: Unknown };
    const goCtyForm = {
      count: 3,
      extra: [new TextEncoder().encode('"string"'), "x"],
      id: new ExtData(0, Uint8Array.of(0)),
      name: "n",
      rules: [{ open: true, port: 80 }],
      tags: { b: "2", a: "1" },
    };
    expect(hexOf(encodeMsgpack(value, type))).toBe(hexOf(encode(goCtyForm)));
    expect(roundTrip(value, type)).toEqual({ ...value, extra: new TypedValue(cty.string, "x") });
  });

  test("wider headers than needed (as other encoders may write) decode too", () => {
    // str8 "ab", array16 of one fixint, map32 of one entry, uint8 5, int16 -3
    expect(decodeMsgpack(hex("d9 02 61 62"), cty.string)).toBe("ab");
    expect(decodeMsgpack(hex("dc 00 01 07"), cty.list(cty.number))).toEqual([7]);
    expect(decodeMsgpack(hex("df 00 00 00 01 a1 6b c3"), cty.map(cty.bool))).toEqual({ k: true });
    expect(decodeMsgpack(hex("cc 05"), cty.number)).toBe(5);
    expect(decodeMsgpack(hex("d1 ff fd"), cty.number)).toBe(-3);
    expect(decodeMsgpack(hex("d3 ff ff ff ff ff ff ff fe"), cty.number)).toBe(-2);
  });

  test("decoded objects list every attribute in declaration order, absent ones as null", () => {
    const type = cty.object({ z: cty.string, a: cty.string, m: cty.number });
    expect(Object.entries(decodeMsgpack(encode({ a: "x" }), type) as object)).toEqual([
      ["z", null],
      ["a", "x"],
      ["m", null],
    ]);
  });

  test("a map key of __proto__ is an ordinary key", () => {
    const decoded = decodeMsgpack(hex("81 a9 5f 5f 70 72 6f 74 6f 5f 5f a1 76"), cty.map(cty.string)) as Record<string, CtyValue>;
    expect(Object.getPrototypeOf(decoded)).toBe(Object.prototype);
    expect(Object.keys(decoded)).toEqual(["__proto__"]);
  });
});

describe("msgpack codec: malformed msgpack is an error naming where, never a crash or a wrong value", () => {
  test("truncated input", () => {
    const whole = encodeMsgpack({ name: "abcdef", ports: [1, 2] }, cty.object({ name: cty.string, ports: cty.list(cty.number) }));
    for (let cut = 1; cut < whole.length; cut++) {
      expect(() => decodeMsgpack(whole.subarray(0, cut), cty.object({ name: cty.string, ports: cty.list(cty.number) }))).toThrow(
        /ends early/,
      );
    }
    expect(() => decodeMsgpack(hex("92 01"), cty.list(cty.number))).toThrow(/^\[1\]: the msgpack value ends early/);
  });

  test("bytes after the value", () => {
    expect(() => decodeMsgpack(hex("01 02"), cty.number)).toThrow(/1 byte\(s\) left over/);
  });

  test("a map key that is not a string, bytes where a string belongs, an invalid byte", () => {
    expect(() => decodeMsgpack(hex("81 01 a1 78"), cty.map(cty.string))).toThrow(/map keys must be strings/);
    expect(() => decodeMsgpack(hex("c4 01 78"), cty.string)).toThrow(/expected "string", got object/);
    expect(() => decodeMsgpack(hex("c1"), cty.bool)).toThrow(/got an invalid msgpack byte/);
  });
});
