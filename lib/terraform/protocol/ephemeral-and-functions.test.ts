/**
 * The ephemeral-resource and function RPCs over real gRPC (grpc-js as the client, as Terraform's go-plugin would
 * be): field numbers, proto3 `optional` presence (argument 0 of a FunctionError, an empty private), the
 * google.protobuf.Timestamp of renew_at, and what a throwing handler answers.
 */
import * as grpc from "@grpc/grpc-js";
import { createPluginServer } from "./grpc-server";
import { serviceDefinition } from "./grpc-service";
import type { UnaryGrpcServer } from "./h2-grpc";
import { protocolRoot } from "./descriptor";
import type { ProviderServer } from "./provider-server";

type UnaryClient = grpc.Client &
  Record<string, (request: object, callback: (error: grpc.ServiceError | null, response: any) => void) => void>;
const call = (client: UnaryClient, rpc: string, request: object = {}): Promise<any> =>
  new Promise((resolve, reject) => client[rpc]!(request, (error, response) => (error ? reject(error) : resolve(response))));

function serve(provider: ProviderServer): Promise<{ client: UnaryClient; close(): void }> {
  const { server } = createPluginServer(provider, { onShutdown: () => {}, log: () => {} });
  return (server as UnaryGrpcServer).listen(0, "127.0.0.1").then((port) => {
    const Provider = grpc.makeClientConstructor(serviceDefinition("tfplugin6.Provider"), "Provider");
    const client = new Provider(`127.0.0.1:${port}`, grpc.credentials.createInsecure()) as unknown as UnaryClient;
    return { client, close: () => (client.close(), server.close()) };
  });
}

describe("ephemeral resources and functions on the wire", () => {
  const seen: Record<string, any> = {};
  let open: Awaited<ReturnType<typeof serve>>;
  let bare: Awaited<ReturnType<typeof serve>>;

  beforeAll(async () => {
    open = await serve({
      async getMetadata() {
        return { ephemeral_resources: [{ type_name: "x_lease" }], functions: [{ name: "half" }], resources: [], data_sources: [] };
      },
      async getProviderSchema() {
        const type = Buffer.from('"string"');
        return {
          ephemeral_resource_schemas: {
            x_lease: { version: 0, block: { attributes: [{ name: "secret", type, computed: true, sensitive: true }], block_types: [] } },
          },
          functions: { half: { parameters: [{ name: "n", type: Buffer.from('"number"') }], return: { type }, summary: "Half." } },
        };
      },
      async validateEphemeralResourceConfig(request) {
        seen.validate = request;
        return { diagnostics: [{ severity: "WARNING", summary: "checked" }] };
      },
      async openEphemeralResource(request) {
        seen.open = request;
        return {
          result: { msgpack: Buffer.from([0x81, 0xa1, 0x61, 0x01]) },
          private: Buffer.from("lease-1"),
          renew_at: { seconds: 1_700_000_000, nanos: 5 },
        };
      },
      async renewEphemeralResource(request) {
        seen.renew = request;
        return { private: Buffer.alloc(0) };
      },
      async closeEphemeralResource(request) {
        seen.close = request;
        return { diagnostics: [] };
      },
      async callFunction(request) {
        seen.call = request;
        if (request.name === "boom") throw new Error("kaboom");
        return { error: { text: "bad first argument", function_argument: 0 } };
      },
    });
    bare = await serve({});
  });
  afterAll(() => {
    open.close();
    bare.close();
  });

  test("GetMetadata lists ephemeral resources (field 6) and functions", async () => {
    const response = await call(open.client, "GetMetadata");
    expect(response.ephemeral_resources).toEqual([{ type_name: "x_lease" }]);
    expect(response.functions).toEqual([{ name: "half" }]);
  });

  test("GetProviderSchema carries ephemeral resource schemas (field 8) and functions (field 7)", async () => {
    const response = await call(open.client, "GetProviderSchema");
    expect(response.ephemeral_resource_schemas.x_lease.block.attributes[0]).toMatchObject({
      name: "secret",
      computed: true,
      sensitive: true,
    });
    expect(Buffer.from(response.functions.half.parameters[0].type).toString()).toBe('"number"');
    expect(response.functions.half.summary).toBe("Half.");
  });

  test("ValidateEphemeralResourceConfig and OpenEphemeralResource requests arrive whole, with client capabilities", async () => {
    const config = { msgpack: Buffer.from([0x80]) };
    expect(await call(open.client, "ValidateEphemeralResourceConfig", { type_name: "x_lease", config })).toEqual({
      diagnostics: [expect.objectContaining({ severity: "WARNING", summary: "checked" })],
    });
    expect(seen.validate).toMatchObject({ type_name: "x_lease", config: { msgpack: Buffer.from([0x80]) } });
    const response = await call(open.client, "OpenEphemeralResource", {
      type_name: "x_lease",
      config,
      client_capabilities: { deferral_allowed: true, write_only_attributes_allowed: true },
    });
    expect(seen.open.client_capabilities).toEqual({ deferral_allowed: true, write_only_attributes_allowed: true });
    expect(Buffer.from(response.result.msgpack)).toEqual(Buffer.from([0x81, 0xa1, 0x61, 0x01]));
    expect(Buffer.from(response.private).toString()).toBe("lease-1");
    expect(response.renew_at).toEqual({ seconds: 1_700_000_000, nanos: 5 });
  });

  test("Renew and Close get the private bytes back; an empty private is still present (proto3 optional)", async () => {
    const renewed = await call(open.client, "RenewEphemeralResource", { type_name: "x_lease", private: Buffer.from("lease-1") });
    expect(Buffer.from(seen.renew.private).toString()).toBe("lease-1");
    expect(Buffer.from(renewed.private)).toEqual(Buffer.alloc(0));
    expect(renewed.renew_at ?? null).toBeNull();
    await call(open.client, "CloseEphemeralResource", { type_name: "x_lease", private: Buffer.from("lease-1") });
    expect(seen.close.type_name).toBe("x_lease");
  });

  test("a FunctionError at argument 0 keeps its index on the wire (proto3 optional presence)", async () => {
    const response = await call(open.client, "CallFunction", { name: "half", arguments: [{ msgpack: Buffer.from([0x02]) }] });
    expect(response.error).toEqual({ text: "bad first argument", function_argument: 0 });
    expect(Buffer.from(seen.call.arguments[0].msgpack)).toEqual(Buffer.from([0x02]));
    const bytes = protocolRoot()
      .lookupType("tfplugin6.CallFunction.Response")
      .encode({ error: { text: "t", function_argument: 0 } });
    expect(Buffer.from(bytes).toString("hex")).toBe("12050a01741000"); // field 2 { 1: "t", 2: 0 }: the zero is written
  });

  test("a CallFunction handler that throws answers a FunctionError (CallFunction has no diagnostics)", async () => {
    const response = await call(open.client, "CallFunction", { name: "boom", arguments: [] });
    expect(response.error.text).toMatch(/^Provider error in CallFunction: [\s\S]*kaboom/);
    expect(response.error.function_argument ?? null).toBeNull();
  });

  test("a provider without them answers UNIMPLEMENTED", async () => {
    for (const rpc of [
      "ValidateEphemeralResourceConfig",
      "OpenEphemeralResource",
      "RenewEphemeralResource",
      "CloseEphemeralResource",
      "CallFunction",
    ]) {
      await expect(call(bare.client, rpc, {})).rejects.toMatchObject({ code: grpc.status.UNIMPLEMENTED });
    }
  });
});
