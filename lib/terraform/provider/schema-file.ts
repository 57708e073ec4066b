/**
 * The provider's GetProviderSchema response, protobuf-encoded, as the build writes it beside the bundles
 * (scripts/build/70-provider.mjs) and the provider's entry reads it (main.ts).
 */
import { serviceDefinition } from "../protocol/grpc-service";
import type { ProviderServer } from "../protocol/provider-server";

/** The file's name, in the directory of the provider's bundles. */
export const SCHEMA_FILE = "terraform-provider-chainform.schema.pb";

/**
 * Encodes a server's GetProviderSchema response exactly as the gRPC server would send it.
 * @example
 * writeFileSync(join(outDir, SCHEMA_FILE), await encodeProviderSchema(createChainformServer()));
 */
export async function encodeProviderSchema(server: ProviderServer): Promise<Buffer> {
  const response = await server.getProviderSchema!({}, { signal: new AbortController().signal });
  return serviceDefinition("tfplugin6.Provider").GetProviderSchema!.responseSerialize(response);
}
