/**
 * The chainform provider's executable entry (bundled into dist/provider by scripts/build/70-provider.mjs).
 * Terraform starts the provider 3-5 times per command and waits for each handshake, so the handshake comes first:
 * this bundle holds only the wire layer, and the provider (framework, client, schemas) is a second bundle
 * (`./dispatcher`, see `lazyImports` in the build step), read on the first RPC that needs it. The schema answer is
 * a file the build writes beside the bundles (`SCHEMA_FILE`), so the process that only asks for it never loads it.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { exitIfUnsupportedNode } from "../../node-support";
import { lazyProviderServer } from "../protocol/lazy-server";
import { servePlugin } from "../protocol/serve";
import { SCHEMA_FILE } from "./schema-file";

exitIfUnsupportedNode();
const server = lazyProviderServer(() => (require("./dispatcher") as typeof import("./dispatcher")).createChainformServer(), {
  encodedSchema: () => {
    try {
      return readFileSync(join(__dirname, SCHEMA_FILE));
    } catch {
      return undefined; // not built (a test run from sources): the provider answers itself
    }
  },
});
void servePlugin(server);
