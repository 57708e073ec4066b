import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { protocolRoot } from "../descriptor";
import type { NamespaceJson } from "../protobuf";
import { descriptor } from "./descriptor.generated";

const root = join(__dirname, "..", "..", "..", "..");

describe("generated protocol descriptor", () => {
  test("is up to date with the .proto files (run `node scripts/build.mjs tfplugin` after editing them)", () => {
    const script = `import(${JSON.stringify(join(root, "scripts", "build", "40-tfplugin-descriptor.mjs"))}).then((m) => process.stdout.write(m.render(${JSON.stringify(root)})))`;
    const expected = execFileSync(process.execPath, ["-e", script], { encoding: "utf8" });
    expect(readFileSync(join(__dirname, "descriptor.generated.ts"), "utf8")).toBe(expected);
  });

  test("keeps the published field numbers of the messages Terraform relies on most", () => {
    const fieldIds = (type: string) => Object.fromEntries(Object.values(protocolRoot().lookupType(type).fields).map((f) => [f.name, f.id]));
    expect(fieldIds("tfplugin6.DynamicValue")).toEqual({ msgpack: 1, json: 2 });
    expect(fieldIds("tfplugin6.Schema.Attribute")).toMatchObject({ name: 1, type: 2, nested_type: 10, sensitive: 7 });
    expect(fieldIds("tfplugin6.GetProviderSchema.Response")).toMatchObject({ functions: 7, server_capabilities: 6 });
    expect(fieldIds("tfplugin6.PlanResourceChange.Response")).toMatchObject({ requires_replace: 2, diagnostics: 4 });
    expect(fieldIds("tfplugin6.GetProviderSchema.Response")).toMatchObject({ ephemeral_resource_schemas: 8 });
    expect(fieldIds("tfplugin6.GetMetadata.Response")).toMatchObject({ functions: 5, ephemeral_resources: 6 });
    expect(fieldIds("tfplugin6.OpenEphemeralResource.Response")).toEqual({
      diagnostics: 1,
      renew_at: 2,
      result: 3,
      private: 4,
      deferred: 5,
    });
    expect(fieldIds("tfplugin6.CallFunction.Response")).toEqual({ result: 1, error: 2 });
    expect(fieldIds("google.protobuf.Timestamp")).toEqual({ seconds: 1, nanos: 2 });
    expect(fieldIds("tfplugin6.ServerCapabilities")).toEqual({
      plan_destroy: 1,
      get_provider_schema_optional: 2,
      move_resource_state: 3,
      generate_resource_config: 4,
    });
  });

  test("every message type and every method's request and response resolve (types are built on first use)", () => {
    const messages: string[] = [];
    const services: [string, string[]][] = [];
    const visit = (namespace: NamespaceJson, name: string) => {
      if (namespace.fields) messages.push(name);
      if (namespace.methods) services.push([name, Object.keys(namespace.methods)]);
      for (const [child, nested] of Object.entries(namespace.nested ?? {})) visit(nested, name ? `${name}.${child}` : child);
    };
    visit(descriptor as NamespaceJson, "");
    expect(messages.length).toBeGreaterThan(50);
    for (const name of messages) {
      const type = protocolRoot().lookupType(name);
      for (const field of type.fields) {
        if (/^[A-Z]/.test(field.type.split(".").pop()!))
          expect([name, field.name, field.resolved]).toEqual([name, field.name, expect.anything()]);
      }
    }
    expect(services.map(([name]) => name).sort()).toEqual(["grpc.health.v1.Health", "plugin.GRPCController", "tfplugin6.Provider"]);
    for (const [name, methods] of services) {
      const service = protocolRoot().lookupService(name);
      expect(service.methods.map((method) => method.name)).toEqual(methods);
      for (const method of service.methods) expect([method.request.fullName, method.response.fullName]).not.toContain(undefined);
    }
  });
});
