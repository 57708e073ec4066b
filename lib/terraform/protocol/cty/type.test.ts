import { cty, typeEquals, typeFromJson, typeToJson } from "./type";

describe("cty type JSON", () => {
  test("every kind of type converts to go-cty's JSON and back", () => {
    const type = cty.object({
      s: cty.string,
      n: cty.number,
      b: cty.bool,
      d: cty.dynamic,
      l: cty.list(cty.string),
      st: cty.set(cty.number),
      m: cty.map(cty.list(cty.bool)),
      t: cty.tuple(cty.string, cty.number),
    });
    const json = typeToJson(type);
    expect(json).toEqual([
      "object",
      {
        s: "string",
        n: "number",
        b: "bool",
        d: "dynamic",
        l: ["list", "string"],
        st: ["set", "number"],
        m: ["map", ["list", "bool"]],
        t: ["tuple", ["string", "number"]],
      },
    ]);
    expect(typeEquals(typeFromJson(JSON.parse(JSON.stringify(json))), type)).toBe(true);
  });

  test("rejects what is not a type", () => {
    expect(() => typeFromJson(["list"])).toThrow(/not a cty type/);
    expect(() => typeFromJson("integer")).toThrow(/not a cty type/);
  });
});
