import { decodeDynamicValue, encodeDynamicValue } from "../protocol/dynamic-value";
import { cty } from "../protocol/cty/type";
import { Unknown } from "../protocol/cty/unknown";
import { at } from "./diagnostics";
import { defineEphemeralResource, type ClientCapabilities } from "./ephemeral-resource";
import { defineFunction, FunctionError } from "./function";
import { defineProvider } from "./provider";
import { attr, defineSchema } from "./schema";
import { blockType } from "./schema-wire";
import { createProviderServer } from "./dispatcher";

const signal = new AbortController().signal;

const leaseSchema = defineSchema({
  description: "A lease.",
  version: 0,
  attributes: {
    name: attr.string({ description: "Name.", required: true }),
    secret: attr.string({ description: "Secret.", computed: true, sensitive: true }),
  },
});
const leaseType = blockType(leaseSchema);
const events: string[] = [];
let seenCapabilities: ClientCapabilities | undefined;
const lease = defineEphemeralResource<typeof leaseSchema, { prefix: string }>({
  typeName: "test_lease",
  schema: leaseSchema,
  validate({ config, diagnostics }) {
    if (config.name === "bad") diagnostics.error("Bad name", "Pick another.", at("name"));
  },
  async open({ config, providerData, diagnostics, clientCapabilities }) {
    seenCapabilities = clientCapabilities;
    if (config.name === "missing") return void diagnostics.error("No such lease", "Gone.", at("name"));
    events.push(`open ${config.name}`);
    return {
      result: { name: config.name, secret: `${providerData.prefix}-${config.name}` },
      private: { lease: config.name },
      renewAt: new Date(1_700_000_000_250),
    };
  },
  async renew({ private: data }) {
    events.push(`renew ${String(data?.["lease"])}`);
    return { renewAt: new Date(1_700_000_060_000) };
  },
  async close({ private: data }) {
    events.push(`close ${String(data?.["lease"])}`);
  },
});

const half = defineFunction({
  name: "half",
  summary: "Half of an even number.",
  description: "`half(4)` is 2.",
  parameters: [
    { name: "label", type: cty.string, description: "A label." },
    { name: "n", type: cty.number, description: "An even number." },
  ],
  returns: cty.string,
  run([label, n]) {
    if ((n as number) % 2 !== 0) throw new FunctionError(`${n} is odd`, 1);
    if (label === "boom") throw new Error("a bug");
    return `${label}: ${(n as number) / 2}`;
  },
});

const providerSchema = defineSchema({ description: "p", attributes: {} });
const server = createProviderServer(() =>
  defineProvider({
    typeName: "test",
    schema: providerSchema,
    configure: () => ({ prefix: "p" }),
    resources: [],
    ephemeralResources: [lease],
    functions: [half],
  }),
);
const str = (text: string) => encodeDynamicValue(text, cty.string);
const num = (n: number) => encodeDynamicValue(n, cty.number);

describe("ephemeral resources", () => {
  beforeAll(async () => {
    await server.configureProvider!(
      { terraform_version: "1.11.4", config: encodeDynamicValue({}, blockType(providerSchema)), client_capabilities: null },
      { signal },
    );
  });

  test("GetProviderSchema and GetMetadata list them; the result's secret is sensitive", async () => {
    const schema = await server.getProviderSchema!({}, { signal });
    const attributes = schema.ephemeral_resource_schemas!.test_lease!.block.attributes;
    expect(attributes.find((a) => a.name === "secret")).toMatchObject({ computed: true, sensitive: true });
    expect(schema.resource_schemas).toEqual({});
    const metadata = await server.getMetadata!({}, { signal });
    expect(metadata.ephemeral_resources).toEqual([{ type_name: "test_lease" }]);
    expect(metadata.functions).toEqual([{ name: "half" }]);
  });

  test("ValidateEphemeralResourceConfig runs validate with the attribute at fault", async () => {
    const response = await server.validateEphemeralResourceConfig!(
      { type_name: "test_lease", config: encodeDynamicValue({ name: "bad", secret: null }, leaseType) },
      { signal },
    );
    expect(response.diagnostics).toEqual([
      { severity: "ERROR", summary: "Bad name", detail: "Pick another.", attribute: { steps: [{ attribute_name: "name" }] } },
    ]);
  });

  test("Open gives the result, private data and renew_at; Renew and Close get the private data back", async () => {
    events.length = 0;
    const opened = await server.openEphemeralResource!(
      {
        type_name: "test_lease",
        config: encodeDynamicValue({ name: "a", secret: null }, leaseType),
        client_capabilities: { deferral_allowed: true, write_only_attributes_allowed: true },
      },
      { signal },
    );
    expect(decodeDynamicValue(opened.result!, leaseType)).toEqual({ name: "a", secret: "p-a" });
    expect(opened.renew_at).toEqual({ seconds: 1_700_000_000, nanos: 250_000_000 });
    expect(seenCapabilities).toEqual({ deferralAllowed: true, writeOnlyAttributesAllowed: true });
    const renewed = await server.renewEphemeralResource!({ type_name: "test_lease", private: opened.private! }, { signal });
    expect(renewed.renew_at).toEqual({ seconds: 1_700_000_060, nanos: 0 });
    expect(Buffer.from(renewed.private!).toString()).toBe(Buffer.from(opened.private!).toString());
    await server.closeEphemeralResource!({ type_name: "test_lease", private: opened.private! }, { signal });
    expect(events).toEqual(["open a", "renew a", "close a"]);
  });

  test("an Open that fails answers its diagnostics and no result", async () => {
    const response = await server.openEphemeralResource!(
      { type_name: "test_lease", config: encodeDynamicValue({ name: "missing", secret: null }, leaseType), client_capabilities: null },
      { signal },
    );
    expect(response.result).toBeUndefined();
    expect(response.diagnostics).toEqual([
      expect.objectContaining({ summary: "No such lease", attribute: { steps: [{ attribute_name: "name" }] } }),
    ]);
    expect(seenCapabilities).toEqual({ deferralAllowed: false, writeOnlyAttributesAllowed: false });
  });

  test("an Open that returns a result still unknown is a provider bug, naming the attribute", async () => {
    const buggy = defineEphemeralResource({
      typeName: "test_buggy",
      schema: leaseSchema,
      open: async ({ config }) => ({ result: { name: config.name, secret: Unknown as never } }),
    });
    const local = createProviderServer(
      defineProvider({ typeName: "test", schema: providerSchema, configure: () => ({}), resources: [], ephemeralResources: [buggy] }),
    );
    const response = await local.openEphemeralResource!(
      { type_name: "test_buggy", config: encodeDynamicValue({ name: "a", secret: null }, leaseType), client_capabilities: null },
      { signal },
    );
    expect(response.result).toBeUndefined();
    expect(response.diagnostics![0]).toMatchObject({ severity: "ERROR", summary: "test_buggy: invalid state for secret" });
  });
});

describe("functions", () => {
  test("GetFunctions and GetProviderSchema describe the signature with cty types as JSON", async () => {
    for (const functions of [
      (await server.getFunctions!({}, { signal })).functions,
      (await server.getProviderSchema!({}, { signal })).functions,
    ]) {
      const fn = functions!.half!;
      expect(fn).toMatchObject({ summary: "Half of an even number.", description_kind: "MARKDOWN" });
      expect(fn.parameters.map((p) => [p.name, Buffer.from(p.type).toString(), p.allow_null_value, p.allow_unknown_values])).toEqual([
        ["label", '"string"', false, false],
        ["n", '"number"', false, false],
      ]);
      expect(Buffer.from(fn.return.type).toString()).toBe('"string"');
    }
  });

  test("CallFunction decodes the arguments by the parameters' types and encodes the result by the return type", async () => {
    const response = await server.callFunction!({ name: "half", arguments: [str("x"), num(8)] }, { signal });
    expect(decodeDynamicValue(response.result!, cty.string)).toBe("x: 4");
    expect(response.error).toBeUndefined();
  });

  test("a FunctionError names the argument by its index", async () => {
    const response = await server.callFunction!({ name: "half", arguments: [str("x"), num(3)] }, { signal });
    expect(response).toEqual({ error: { text: "3 is odd", function_argument: 1 } });
  });

  test("an argument of the wrong type fails at that argument; a wrong count or name fails the call", async () => {
    expect((await server.callFunction!({ name: "half", arguments: [str("x"), str("eight")] }, { signal })).error).toMatchObject({
      function_argument: 1,
    });
    expect((await server.callFunction!({ name: "half", arguments: [str("x")] }, { signal })).error).toEqual({
      text: "half takes 2 argument(s), got 1",
    });
    expect((await server.callFunction!({ name: "nope", arguments: [] }, { signal })).error).toEqual({
      text: 'this provider has no function "nope"',
    });
  });

  test("a function that throws anything else is a bug, left to the gRPC layer to report", async () => {
    await expect(server.callFunction!({ name: "half", arguments: [str("boom"), num(2)] }, { signal })).rejects.toThrow("a bug");
  });
});
