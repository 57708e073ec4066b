/**
 * The chainform provider's executable entry (bundled into dist/provider by scripts/build/70-provider.mjs).
 * Terraform starts the provider 3-5 times per command and waits for each handshake, so the handshake comes first:
 * this bundle holds only the wire layer, and the provider (framework, client, undici, schemas) is a second bundle
 * (`./server`, see `lazyImports` in the build step) required when Terraform's first call arrives.
 */
import { exitIfUnsupportedNode } from "../../node-support";
import { lazyProviderServer } from "../protocol/lazy-server";
import { servePlugin } from "../protocol/serve";

exitIfUnsupportedNode();
void servePlugin(lazyProviderServer(() => (require("./server") as typeof import("./server")).createChainformServer()));
