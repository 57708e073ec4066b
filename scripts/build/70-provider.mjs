// Bundles the Terraform provider into one file (Terraform starts it 3-5 times per command, so start-up is what
// counts) and writes the offline filesystem mirror and CLI config (lib/terraform/mirror.ts explains the design).
import { existsSync } from "node:fs";
import { join } from "node:path";
import { createRequire } from "node:module";

export default async function buildProvider({ root }) {
  const entry = join(root, "lib", "terraform", "provider", "main.ts");
  if (!existsSync(entry)) {
    // TODO(issue 5): remove once the provider lands; until then other parts must still build.
    console.error(`build: no provider entry at ${entry} yet; skipping the provider bundle`);
    return;
  }
  const esbuild = await import("esbuild");
  await esbuild.build({
    entryPoints: [entry],
    outfile: join(root, "dist", "provider", "provider.cjs"),
    bundle: true,
    platform: "node",
    target: "node20",
    format: "cjs",
    minify: true,
    sourcemap: "linked",
    legalComments: "none",
    logLevel: "warning",
  });
  const require = createRequire(import.meta.url);
  const { writeProviderMirror } = require(join(root, "dist", "terraform", "mirror.js"));
  writeProviderMirror(root);
}
