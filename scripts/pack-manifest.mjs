// The package.json that goes into the tarball: this repository's, without `scripts` and `allowScripts`. Every script
// runs files of scripts/ (build, prepare, bench, gen:bindings), which the package does not ship, and an installed
// package needs none: a published `prepare` would only promise a build that cannot run. `allowScripts` approves the
// install scripts of this repository's own dependencies; npm reads it only in the project being installed. npm packs package.json as it is on disk,
// so `prepack` (after the build) strips it, keeping the original beside it, and `postpack` puts the original back.
//
//   node scripts/pack-manifest.mjs strip     # prepack, after the build
//   node scripts/pack-manifest.mjs restore   # postpack; also after a failed pack, to undo a strip by hand
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const manifest = join(root, "package.json");
const kept = join(root, "package.json.unpacked");
const action = process.argv[2];

if (action === "strip") {
  // A kept original means a pack failed before postpack: restore it first rather than keep a stripped one.
  if (existsSync(kept)) renameSync(kept, manifest);
  const text = readFileSync(manifest, "utf8");
  const { scripts: _scripts, allowScripts: _allowScripts, ...published } = JSON.parse(text);
  writeFileSync(kept, text);
  writeFileSync(manifest, `${JSON.stringify(published, null, 2)}\n`);
} else if (action === "restore") {
  if (existsSync(kept)) renameSync(kept, manifest);
} else {
  console.error("usage: node scripts/pack-manifest.mjs strip|restore");
  process.exit(2);
}
