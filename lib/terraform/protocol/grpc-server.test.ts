import * as grpc from "@grpc/grpc-js";
import { createPluginServer } from "./grpc-server";
import { serviceDefinition } from "./grpc-service";
import type { UnaryGrpcServer } from "./h2-grpc";
import type { ProviderServer } from "./provider-server";

type UnaryClient = grpc.Client &
  Record<string, (request: object, callback: (error: grpc.ServiceError | null, response: any) => void) => void>;
const call = (client: UnaryClient, rpc: string, request: object = {}): Promise<any> =>
  new Promise((resolve, reject) => client[rpc]!(request, (error, response) => (error ? reject(error) : resolve(response))));

describe("createPluginServer", () => {
  let server: UnaryGrpcServer;
  let client: UnaryClient;
  let shutdowns = 0;
  const provider: ProviderServer = {
    // Waits like a long create would, until Terraform sends StopProvider.
    async readResource(_request, { signal }) {
      await new Promise((resolve) => signal.addEventListener("abort", resolve, { once: true }));
      return { diagnostics: [{ severity: "ERROR", summary: "Interrupted", detail: String(signal.reason) }] };
    },
    async getProviderSchema() {
      throw new Error("boom");
    },
    async validateResourceConfig(request) {
      return { diagnostics: [{ severity: "WARNING", summary: "echo", detail: request.type_name.toUpperCase() }] };
    },
  };

  beforeAll(async () => {
    const plugin = createPluginServer(provider, { onShutdown: () => shutdowns++, log: () => {} });
    server = plugin.server;
    const port = await server.listen(0, "127.0.0.1");
    const Provider = grpc.makeClientConstructor(serviceDefinition("tfplugin6.Provider"), "Provider");
    client = new Provider(`127.0.0.1:${port}`, grpc.credentials.createInsecure()) as unknown as UnaryClient;
  });
  afterAll(() => {
    client.close();
    server.close();
  });

  test("a handler that throws answers with an error diagnostic instead of breaking the call", async () => {
    const response = await call(client, "GetProviderSchema");
    expect(response.diagnostics[0]).toMatchObject({ severity: "ERROR", summary: "Provider error in GetProviderSchema" });
    expect(response.diagnostics[0].detail).toContain("boom");
  });

  test("RPCs the provider does not implement answer UNIMPLEMENTED", async () => {
    await expect(call(client, "MoveResourceState")).rejects.toMatchObject({ code: grpc.status.UNIMPLEMENTED });
    await expect(call(client, "ApplyResourceChange")).rejects.toMatchObject({ code: grpc.status.UNIMPLEMENTED });
  });

  test("large messages travel both ways (many HTTP/2 frames)", async () => {
    const name = "x".repeat(3 * 1024 * 1024);
    const response = await call(client, "ValidateResourceConfig", { type_name: name });
    expect(response.diagnostics[0].detail).toBe(name.toUpperCase());
  });

  test("StopProvider aborts the signal of in-flight handlers", async () => {
    const inFlight = call(client, "ReadResource", { type_name: "x" });
    await new Promise((resolve) => setTimeout(resolve, 50));
    await expect(call(client, "StopProvider")).resolves.toEqual({ Error: "" });
    const response = await inFlight;
    expect(response.diagnostics[0]).toMatchObject({ summary: "Interrupted" });
    expect(response.diagnostics[0].detail).toContain("Terraform asked the provider to stop");
    expect(shutdowns).toBe(0);
  });
});
