// Type-checks and compiles lib/ to dist/ (JavaScript and declarations) with tsc. First it removes what earlier builds
// left behind and no source makes any more, since tsc never deletes an output: a directory of dist/ that mirrors no
// directory of lib/ and that no other step writes, and a compiled file whose .ts source is gone. Without this, a
// package packed from a working copy would carry modules (or binaries) that main no longer has.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, rmdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";

/** Directories of dist/ that other build steps write (contracts, the provider bundle, the cdktn copy). */
const OTHER_STEPS = new Set(["contracts", "provider", "cdktn"]);
const COMPILED = /\.(?:js|js\.map|d\.ts|d\.ts\.map)$/;

/** Removes stale outputs under `root`/dist (see above) and returns their paths, relative to dist/. */
export function pruneStaleOutputs(root) {
  const lib = join(root, "lib");
  const dist = join(root, "dist");
  const removed = [];
  if (!existsSync(dist)) return removed;
  const prune = (dir, sources, relative) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      const shown = relative ? `${relative}/${name}` : name;
      if (statSync(path).isDirectory()) {
        if (!relative && (OTHER_STEPS.has(name) || name.startsWith("."))) continue;
        if (!existsSync(join(sources, name))) {
          // At the top, written by no step (a step that wrote it is gone); below, by tsc from a directory that is gone.
          if (!relative || onlyCompiled(path)) {
            rmSync(path, { recursive: true, force: true });
            removed.push(`${shown}/`);
          }
          continue;
        }
        prune(path, join(sources, name), shown);
      } else if (COMPILED.test(name) && !existsSync(join(sources, name.replace(COMPILED, ".ts")))) {
        rmSync(path, { force: true });
        removed.push(shown);
      }
    }
    if (relative && readdirSync(dir).length === 0) rmdirSync(dir);
  };
  prune(dist, lib, "");
  return removed;
}

/** Whether every file under `dir` is tsc's output (a directory another step writes, such as the mirror, is not). */
function onlyCompiled(dir) {
  return readdirSync(dir).every((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? onlyCompiled(path) : COMPILED.test(name);
  });
}

export default async function compileTypeScript({ root }) {
  const removed = pruneStaleOutputs(root);
  if (removed.length > 0) console.error(`build: removed what no source makes any more: dist/${removed.join(", dist/")}`);
  const tsc = join(root, "node_modules", "typescript", "bin", "tsc");
  execFileSync(process.execPath, [tsc, "-p", join(root, "tsconfig.build.json")], { stdio: "inherit", cwd: root });
}
