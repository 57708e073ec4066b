// Bundles the Terraform provider (lib/terraform/provider/main.ts) into dist/provider with the loader that keeps
// V8's compiled code between starts (Terraform starts the provider 3-5 times per command, so start-up is what
// counts), then writes the offline filesystem mirror and CLI config (lib/terraform/mirror.ts explains the design).
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createRequire } from "node:module";

export default async function buildProvider({ root }) {
  const entry = join(root, "lib", "terraform", "provider", "main.ts");
  if (!existsSync(entry)) throw new Error(`build: the provider entry ${entry} is missing`);
  const require = createRequire(import.meta.url);
  const { bundleProvider } = require(join(root, "dist", "terraform", "protocol", "bundle.js"));
  const { mirrorLayout, writeProviderMirror, PROVIDER_TYPE } = require(join(root, "dist", "terraform", "mirror.js"));
  const { bundlePath } = mirrorLayout(root);
  // Also writes dist/provider/terraform-provider-chainform, a launcher with this node's absolute path, for
  // dev_overrides; the mirror has its own, path-free launcher.
  // Written beside dist/provider and renamed into it file by file: Terraform (another engineer's test run, a
  // user's plan) may start the provider while this build runs, and must never read a half-written bundle.
  const outDir = join(root, "dist", "provider");
  const staging = mkdtempSync(join(root, "dist", ".provider-"));
  try {
    const { bundle } = await bundleProvider({
      entry,
      outDir: staging,
      type: PROVIDER_TYPE,
      lazyImports: {
        // The provider itself, read only after the handshake (see main.ts).
        "./dispatcher": join(root, "lib", "terraform", "provider", "dispatcher.ts"),
        // viem, for contracts and contract calls only (lib/terraform/provider/lazy-viem.ts).
        "./viem": join(root, "lib", "terraform", "provider", "viem.ts"),
      },
      // The provider's HTTP goes through node:http: undici's WebAssembly parser costs each provider process that makes
      // a request ~150 ms of background compiling, which its exit waits for (lib/terraform/provider/node-http-pool.ts).
      substitutes: { undici: join(root, "lib", "terraform", "provider", "node-http-pool.ts") },
    });
    // The schema answer, so that the process that only asks for it never loads the provider (main.ts). Made by
    // the bundle just built, so it cannot differ from what that provider would answer.
    const { SCHEMA_FILE, encodeProviderSchema } = require(join(root, "dist", "terraform", "provider", "schema-file.js"));
    const { createChainformServer } = require(join(staging, "terraform-provider-chainform.lazy-0.js"));
    writeFileSync(join(staging, SCHEMA_FILE), await encodeProviderSchema(createChainformServer()));
    if (join(outDir, bundle.slice(staging.length + 1)) !== bundlePath) {
      throw new Error(`build: the bundle is ${bundle}, but the mirror expects ${bundlePath}`);
    }
    mkdirSync(outDir, { recursive: true });
    for (const file of readdirSync(staging)) renameSync(join(staging, file), join(outDir, file));
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  writeProviderMirror(root);
}
