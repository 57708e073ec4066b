/** The entry point of a provider binary. */
import { servePlugin, type ServePluginOptions } from "../protocol/serve";
import { createProviderServer, type ProviderSource } from "./dispatcher";

/**
 * Serves a provider to Terraform: the whole `main` of a provider binary. Pass a loader function to answer
 * Terraform's handshake before the provider's modules (API client and all) are loaded: Terraform starts the
 * provider 3-5 times per command and waits for each handshake.
 * @example
 * // bin/terraform-provider-echo.ts
 * serveProvider(() => import("./provider").then((m) => m.provider));
 */
export function serveProvider(source: ProviderSource, options?: ServePluginOptions): Promise<void> {
  return servePlugin(createProviderServer(source), options);
}
