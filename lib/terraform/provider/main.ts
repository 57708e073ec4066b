/**
 * The chainform provider's executable entry (bundled into dist/provider by scripts/build/70-provider.mjs).
 * Terraform starts the provider 3-5 times per command and waits for each handshake, so the handshake comes first:
 * this bundle holds only the wire layer, and the provider (framework, client, undici, schemas) is a second bundle
 * (`./server`, see `lazyImports` in the build step), read right after the handshake while Terraform connects.
 */
import { exitIfUnsupportedNode } from "../../node-support";
import { lazyProviderServer } from "../protocol/lazy-server";
import { servePlugin } from "../protocol/serve";

exitIfUnsupportedNode();
const server = lazyProviderServer(() => (require("./server") as typeof import("./server")).createChainformServer());
// Read the provider's code while Terraform connects, once the handshake is out (it never waits for this).
void servePlugin(server).then(() => setImmediate(() => server.preload()));
