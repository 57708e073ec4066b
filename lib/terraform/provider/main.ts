/**
 * The chainform provider's executable entry (bundled into dist/provider by scripts/build/70-provider.mjs).
 * Terraform starts the provider 3-5 times per command and waits for each handshake, so the handshake comes first
 * and the provider (client, undici, schemas) loads only when Terraform's first call arrives.
 */
import { serveProvider } from "../framework/serve";

void serveProvider(async () => (await import("./provider.js")).chainformProvider);
