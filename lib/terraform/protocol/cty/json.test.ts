import { decodeJson } from "./json";
import { cty } from "./type";
import { TypedValue } from "./value";

describe("decodeJson", () => {
  const type = cty.object({
    id: cty.string,
    count: cty.number,
    enabled: cty.bool,
    tags: cty.map(cty.string),
    rule: cty.list(cty.object({ name: cty.string })),
    extra: cty.dynamic,
  });

  test("reads UTF-8 bytes as TextDecoder does: multi-byte characters, a byte order mark dropped, bad bytes replaced", () => {
    const text = '{"id":"Zürich ✓ 日本 😀","tags":{"k":"\\u00e9"}}';
    const bytes = new TextEncoder().encode(text);
    const inside = new Uint8Array(bytes.length + 6);
    inside.set(bytes, 3); // a view into a larger buffer, as protobuf decoding hands out
    for (const input of [bytes, inside.subarray(3, 3 + bytes.length), Uint8Array.of(0xef, 0xbb, 0xbf, ...bytes)]) {
      expect(decodeJson(input, type)).toMatchObject({ id: "Zürich ✓ 日本 😀", tags: { k: "é" } });
    }
    const bad = Uint8Array.from([...new TextEncoder().encode('{"id":"a'), 0xff, ...new TextEncoder().encode('"}')]);
    expect((decodeJson(bad, type) as { id: string }).id).toBe(JSON.parse(new TextDecoder().decode(bad)).id);
    expect((decodeJson(bad, type) as { id: string }).id).toBe("a\uFFFD");
  });

  test("decodes state JSON against its type, missing attributes as null", () => {
    const json = '{"id":"a","count":2,"enabled":true,"tags":{"k":"v"},"rule":[{"name":"x"}]}';
    expect(decodeJson(json, type)).toEqual({
      id: "a",
      count: 2,
      enabled: true,
      tags: { k: "v" },
      rule: [{ name: "x" }],
      extra: null,
    });
  });

  test("decodes dynamic values in go-cty's {value, type} form", () => {
    const json = Buffer.from('{"extra":{"value":["a"],"type":["list","string"]}}');
    expect((decodeJson(json, type) as Record<string, unknown>).extra).toEqual(new TypedValue(cty.list(cty.string), ["a"]));
  });

  test("rejects attributes the type does not have, unless asked to drop them", () => {
    expect(() => decodeJson('{"gone":1}', type)).toThrow(/unsupported attribute "gone"/);
    expect(decodeJson('{"gone":1,"id":"x"}', type, { ignoreUnknownAttributes: true })).toMatchObject({ id: "x" });
  });

  test("accepts numbers as strings and primitives where a string is expected, as go-cty does", () => {
    expect(decodeJson('{"count":"12","id":5}', type)).toMatchObject({ count: 12, id: "5" });
  });
});
