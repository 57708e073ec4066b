import { Unknown } from "../protocol/cty/unknown";
import { at, diag } from "./diagnostics";
import { attr, block, defineSchema } from "./schema";
import { validateConfig } from "./validate";
import { between, lengthBetween, oneOf, regex, validator } from "./validators";

describe("validators", () => {
  test("oneOf", () => {
    expect(oneOf(["eu", "us"]).validate("eu", [])).toEqual([]);
    expect(oneOf(["eu", "us"]).validate("mars", at("region"))).toEqual([
      diag.error("Invalid attribute value", '"mars" is not allowed: expected one of "eu", "us".', at("region")),
    ]);
  });

  test("regex", () => {
    const slug = regex(/^[a-z-]+$/, "a slug");
    expect(slug.validate("ok-slug", [])).toEqual([]);
    expect(slug.validate("Not OK", [])[0]?.detail).toBe('"Not OK" does not match: expected a slug.');
  });

  test("between is inclusive", () => {
    expect(between(1, 10).validate(1, [])).toEqual([]);
    expect(between(1, 10).validate(10, [])).toEqual([]);
    expect(between(1, 10).validate(11, [])[0]?.detail).toBe("11 is out of range: expected a number from 1 to 10.");
  });

  test("lengthBetween counts strings, lists and maps", () => {
    expect(lengthBetween(1, 2).validate("ab", [])).toEqual([]);
    expect(lengthBetween(1, 2).validate([], [])).toHaveLength(1);
    expect(lengthBetween(1, 2).validate({ a: "1", b: "2", c: "3" }, [])).toHaveLength(1);
  });

  test("custom validators from a function", () => {
    const even = validator("an even number", (n: number) => (n % 2 === 0 ? undefined : `${n} is odd`));
    expect(even.validate(4, [])).toEqual([]);
    expect(even.validate(3, [])[0]?.detail).toBe("3 is odd: expected an even number.");
  });

  test("a problem that already names the expectation says it once", () => {
    const range = validator("a whole number from 1 to 9007199254740991", (n: number) =>
      n >= 1 ? undefined : `${n} is not a whole number from 1 to 9007199254740991`,
    );
    expect(range.validate(0, [])[0]?.detail).toBe("0 is not a whole number from 1 to 9007199254740991.");
  });
});

describe("validateConfig", () => {
  const schema = defineSchema({
    description: "t",
    attributes: {
      region: attr.string({ description: "r", required: true, validators: [oneOf(["eu", "us"])] }),
      size: attr.number({ description: "s", optional: true, validators: [between(1, 10)] }),
    },
    blocks: {
      rule: block.list({
        description: "r",
        attributes: { port: attr.number({ description: "p", required: true, validators: [between(1, 65535)] }) },
      }),
    },
  });

  test("reports each problem with the attribute's path, nested blocks included", () => {
    const problems = validateConfig(schema, { region: "mars", size: 11, rule: [{ port: 80 }, { port: 0 }] });
    expect(problems.map((d) => d.path)).toEqual([at("region"), at("size"), at("rule", 1, "port")]);
    expect(problems.every((d) => d.severity === "error")).toBe(true);
  });

  test("skips unknown and null values: they are checked once known", () => {
    expect(validateConfig(schema, { region: Unknown, size: null, rule: [{ port: Unknown }] })).toEqual([]);
    expect(validateConfig(schema, { region: "eu", size: null, rule: Unknown })).toEqual([]);
  });
});
