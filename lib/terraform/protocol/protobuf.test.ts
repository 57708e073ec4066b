// Cross-checks our codec against protobufjs (the reference implementation @grpc/proto-loader uses), both ways.
import * as protobufjs from "protobufjs";
import { descriptor } from "./proto/descriptor.generated";
import { protocolRoot } from "./descriptor";

const reference = protobufjs.Root.fromJSON(descriptor as protobufjs.INamespace);
const referenceOptions = { longs: Number, enums: String, bytes: Buffer, defaults: true, oneofs: true };

const samples: [string, object][] = [
  [
    "tfplugin6.GetProviderSchema.Response",
    {
      provider: { version: 0, block: { attributes: [], block_types: [] } },
      resource_schemas: {
        echo_thing: {
          version: 3,
          block: {
            description: "A thing.",
            description_kind: "MARKDOWN",
            attributes: [{ name: "id", type: Buffer.from('"string"'), computed: true, description: "Id." }],
            block_types: [{ type_name: "rule", nesting: "LIST", min_items: 0, max_items: 5, block: { attributes: [], block_types: [] } }],
          },
        },
      },
      diagnostics: [
        {
          severity: "WARNING",
          summary: "s",
          detail: "d",
          attribute: { steps: [{ attribute_name: "a" }, { element_key_int: 0 }, { element_key_string: "k" }] },
        },
      ],
      server_capabilities: { get_provider_schema_optional: true },
    },
  ],
  [
    "tfplugin6.PlanResourceChange.Request",
    {
      type_name: "echo_thing",
      prior_state: { msgpack: Buffer.from([0xc0]) },
      proposed_new_state: { msgpack: Buffer.from([0x81, 0xa1, 0x61, 0x01]) },
      config: { json: Buffer.from("{}") },
      prior_private: Buffer.from("p"),
      client_capabilities: { deferral_allowed: true, write_only_attributes_allowed: false },
    },
  ],
  [
    "tfplugin6.UpgradeResourceState.Request",
    { type_name: "t", version: 2, raw_state: { json: Buffer.from("{}"), flatmap: { a: "1", b: "" } } },
  ],
  [
    "tfplugin6.AttributePath",
    { steps: [{ element_key_int: 0 }, { element_key_string: "" }, { element_key_int: -3 }, { element_key_int: 2 ** 40 }] },
  ],
  ["tfplugin6.PlanResourceChange.Response", { requires_replace: [{ steps: [{ attribute_name: "name" }] }], diagnostics: [] }],
  ["tfplugin6.FunctionError", { text: "t", function_argument: 0 }],
  ["grpc.health.v1.HealthCheckResponse", { status: "SERVING" }],
  ["tfplugin6.StopProvider.Response", { Error: "" }],
];

// protobufjs names the set member of proto3 `optional` fields' synthetic oneofs ("_field": "field"); we do not
// (presence shows as the field being there), so those virtual keys are left out of the comparison.
const withoutSyntheticOneofs = (value: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(value).filter(([key]) => !key.startsWith("_")));

describe("protobuf codec", () => {
  test.each(samples)("%s decodes what protobufjs encodes, as protobufjs would", (typeName, value) => {
    const theirs = reference.lookupType(typeName);
    const bytes = theirs.encode(theirs.fromObject(value)).finish();
    const expected = withoutSyntheticOneofs(theirs.toObject(theirs.decode(bytes), referenceOptions));
    expect(protocolRoot().lookupType(typeName).decode(bytes)).toEqual(expected);
  });

  test.each(samples)("%s encodes what protobufjs decodes to the same message", (typeName, value) => {
    const theirs = reference.lookupType(typeName);
    const ours = protocolRoot().lookupType(typeName).encode(value);
    const expected = theirs.toObject(theirs.decode(theirs.encode(theirs.fromObject(value)).finish()), referenceOptions);
    expect(theirs.toObject(theirs.decode(ours), referenceOptions)).toEqual(expected);
  });

  test("skips fields it does not know (a newer Terraform's additions)", () => {
    // ReadResource.Request field 6 (current_identity) is not in our subset: a message with it must still decode.
    const withIdentity = Buffer.concat([
      protocolRoot().lookupType("tfplugin6.ReadResource.Request").encode({ type_name: "t" }),
      Buffer.from([0x32, 0x02, 0x0a, 0x00]), // field 6, length 2: { identity_data: {} }
      Buffer.from([0x78, 0x01]), // field 15, varint 1
    ]);
    expect(protocolRoot().lookupType("tfplugin6.ReadResource.Request").decode(withIdentity)).toMatchObject({ type_name: "t" });
  });

  test("rejects truncated input", () => {
    const bytes = protocolRoot()
      .lookupType("tfplugin6.DynamicValue")
      .encode({ msgpack: Buffer.alloc(10) });
    expect(() => protocolRoot().lookupType("tfplugin6.DynamicValue").decode(bytes.subarray(0, 5))).toThrow(/length beyond|truncated/);
  });
});
