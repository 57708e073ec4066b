/**
 * Packs a provider into the files Terraform runs: one esbuild bundle, a small loader and the
 * `terraform-provider-TYPE` launcher. Start-up time is the point: Terraform starts the provider 3-5 times per
 * command and waits for each handshake, so the bundle leaves out what is never loaded and the loader reuses V8's
 * compiled code between runs.
 */
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { build } from "esbuild";

/** Options of {@link bundleProvider}. */
export interface BundleProviderOptions {
  /** The provider's entry point: a module that calls `serveProvider`. */
  readonly entry: string;
  /** The directory to write into (created if missing). */
  readonly outDir: string;
  /** The provider type, e.g. `chainform`: the launcher is `terraform-provider-chainform`. */
  readonly type: string;
  /** The node binary the launcher runs. Default: the one running this build. */
  readonly node?: string;
}

/** The files {@link bundleProvider} wrote. */
export interface ProviderBundle {
  /** The executable Terraform runs. */
  readonly launcher: string;
  /** The bundled JavaScript. */
  readonly bundle: string;
}

/**
 * Bundles a provider. The output depends only on the sources (no timestamps, no caches inside `outDir`), so that a
 * filesystem mirror built from it keeps the checksum `terraform init` recorded.
 * @example
 * const { launcher } = await bundleProvider({ entry: "lib/terraform/provider/main.ts", outDir: "dist/provider", type: "chainform" });
 */
export async function bundleProvider(options: BundleProviderOptions): Promise<ProviderBundle> {
  mkdirSync(options.outDir, { recursive: true });
  const base = `terraform-provider-${options.type}`;
  const bundle = join(options.outDir, `${base}.bundle.js`);
  await build({
    entryPoints: [options.entry],
    outfile: bundle,
    bundle: true,
    platform: "node",
    target: "node20",
    format: "cjs",
    minify: true,
    legalComments: "none",
    logLevel: "error",
    // grpc-js requires proto-loader (and with it all of protobufjs) only for channelz and ORCA, which a provider
    // never serves: leaving it out takes ~50 KB off what every start has to compile.
    external: ["@grpc/proto-loader"],
  });
  writeFileSync(join(options.outDir, `${base}.js`), LOADER.replace("BUNDLE_FILE", JSON.stringify(`${base}.bundle.js`)));
  const launcher = join(options.outDir, base);
  // `terraform init` links mirror directories, so the launcher resolves its real location before finding the loader.
  const node = JSON.stringify(options.node ?? process.execPath);
  writeFileSync(launcher, `#!/bin/sh\nexec ${node} "$(dirname "$(readlink -f "$0")")/${base}.js" "$@"\n`);
  chmodSync(launcher, 0o755);
  return { launcher, bundle };
}

// Runs the bundle like `node bundle.js` would, but with V8's code cache: compiled code is kept in the user's cache
// directory (never next to the bundle, which may sit in a checksummed mirror) keyed by bundle and node version, and
// reused by the next start. Set CHAINFORM_COMPILE_CACHE=0 to turn it off.
const LOADER = `"use strict";
const fs = require("fs"), path = require("path"), os = require("os"), vm = require("vm"), crypto = require("crypto");
const Module = require("module");
const file = path.join(__dirname, BUNDLE_FILE);
const source = fs.readFileSync(file, "utf8");
let cacheFile, cached;
if (process.env.CHAINFORM_COMPILE_CACHE !== "0") {
  const dir = path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir() || os.tmpdir(), ".cache"), "chainform", "v8");
  const key = crypto.createHash("sha256").update(process.version + process.arch + source).digest("hex").slice(0, 32);
  cacheFile = path.join(dir, key + ".bin");
  try { cached = fs.readFileSync(cacheFile); } catch {}
}
const script = new vm.Script(Module.wrap(source), { filename: file, cachedData: cached });
if (cacheFile && (!cached || script.cachedDataRejected)) {
  // Once the start-up code has been compiled: shortly after the handshake, or at exit (Terraform's Shutdown) if
  // that comes first. Never delays the handshake, never keeps the process alive.
  let saved = false;
  const save = () => {
    if (saved) return;
    saved = true;
    try {
      fs.mkdirSync(path.dirname(cacheFile), { recursive: true });
      const temporary = cacheFile + "." + process.pid;
      fs.writeFileSync(temporary, script.createCachedData());
      fs.renameSync(temporary, cacheFile);
    } catch {}
  };
  setTimeout(save, 300).unref();
  process.once("exit", save);
}
const bundleModule = new Module(file, module);
bundleModule.filename = file;
bundleModule.paths = Module._nodeModulePaths(path.dirname(file));
script.runInThisContext().call(bundleModule.exports, bundleModule.exports, (id) => bundleModule.require(id), bundleModule, file, path.dirname(file));
`;
