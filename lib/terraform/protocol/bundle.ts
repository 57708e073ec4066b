/**
 * Packs a provider into the files Terraform runs: an esbuild bundle (plus one per lazy import), a small loader and
 * the `terraform-provider-TYPE` launcher. Start-up time is the point: Terraform starts the provider 3-5 times per
 * command and waits for each handshake, so the bundle leaves out what is never loaded, lazy imports become bundles
 * of their own that are not even read before the handshake, and the loader reuses V8's compiled code between runs.
 */
import { createHash } from "node:crypto";
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { build, type BuildOptions, type Plugin } from "esbuild";

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
  /**
   * Modules `require`d only when needed, by the exact specifier the code uses (e.g. `"./dispatcher"` →
   * `lib/terraform/provider/dispatcher.ts`, which the entry requires after the handshake). Each becomes a bundle of its
   * own, loaded (with the code cache) only when some bundle requires that specifier. Nothing may be shared by
   * identity between bundles: each has its own copy of what it imports.
   */
  readonly lazyImports?: Readonly<Record<string, string>>;
  /**
   * Modules bundled in place of others, by the exact specifier imported (e.g. `"undici"` → a file exporting only
   * what the provider uses): for packages whose index loads much more than the provider runs. The substitute must
   * export everything the bundle imports from the original.
   */
  readonly substitutes?: Readonly<Record<string, string>>;
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
  const lazyImports = Object.entries(options.lazyImports ?? {});
  const lazyFile = (index: number) => `${base}.lazy-${index}.js`;
  const common: BuildOptions = {
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
    plugins: [substitutesPlugin(options.substitutes ?? {})],
  };
  // In every bundle, a `require` of a lazy import's specifier loads that import's own bundle (a lazy bundle may
  // have lazy parts of its own); a lazy import's own bundle holds its module, not a require of itself.
  const lazyPlugin = (self?: number): Plugin => ({
    name: "lazy-imports",
    setup(pluginBuild) {
      pluginBuild.onResolve({ filter: /.*/ }, (args) => {
        const index = lazyImports.findIndex(([specifier]) => specifier === args.path);
        if (index === -1 || index === self || args.kind !== "require-call") return undefined;
        return { path: `./${lazyFile(index)}`, external: true };
      });
    },
  });
  await build({ ...common, entryPoints: [options.entry], outfile: bundle, plugins: [...common.plugins!, lazyPlugin()] });
  for (const [index, [, entry]] of lazyImports.entries()) {
    await build({
      ...common,
      entryPoints: [entry],
      outfile: join(options.outDir, lazyFile(index)),
      plugins: [...common.plugins!, lazyPlugin(index)],
    });
  }
  // The code cache is keyed by each bundle's content hash, computed here so that no start-up has to hash ~300 KB.
  const digests: Record<string, string> = {};
  for (const file of [`${base}.bundle.js`, ...lazyImports.map((_, index) => lazyFile(index))]) {
    digests[file] = createHash("sha256")
      .update(readFileSync(join(options.outDir, file)))
      .digest("hex")
      .slice(0, 32);
  }
  writeFileSync(
    join(options.outDir, `${base}.js`),
    LOADER.replace("BUNDLE_FILE", JSON.stringify(`${base}.bundle.js`))
      .replace("LAZY_PREFIX", JSON.stringify(`./${base}.lazy-`))
      .replace("DIGESTS", JSON.stringify(digests)),
  );
  const launcher = join(options.outDir, base);
  // `terraform init` links mirror directories, so the launcher resolves its real location before finding the loader.
  const node = JSON.stringify(options.node ?? process.execPath);
  writeFileSync(launcher, `#!/bin/sh\nexec ${node} "$(dirname "$(readlink -f "$0")")/${base}.js" "$@"\n`);
  chmodSync(launcher, 0o755);
  return { launcher, bundle };
}

function substitutesPlugin(substitutes: Readonly<Record<string, string>>): Plugin {
  return {
    name: "substitutes",
    setup(pluginBuild) {
      pluginBuild.onResolve({ filter: /.*/ }, (args) => {
        return Object.hasOwn(substitutes, args.path) ? { path: substitutes[args.path]! } : undefined;
      });
    },
  };
}

// Runs the bundle like `node bundle.js` would, but with V8's code cache: compiled code is kept in the user's cache
// directory (never next to the bundle, which may sit in a checksummed mirror) keyed by the bundle's content hash
// (written here at build time) and node's version, and reused by the next start. Set CHAINFORM_COMPILE_CACHE=0 to
// turn it off. It loads only fs, path and vm (`module.constructor` is Module, without loading node:module), and
// no hashing happens at start-up.
const LOADER = `"use strict";
const fs = require("fs"), path = require("path"), vm = require("vm");
const Module = module.constructor;
const DIGEST = DIGESTS;
const env = process.env;
const cacheDir = env.CHAINFORM_COMPILE_CACHE === "0" ? null
  : path.join(env.XDG_CACHE_HOME || path.join(env.HOME || require("os").homedir() || require("os").tmpdir(), ".cache"), "chainform", "v8");
const loaded = new Map();
// Every build and every node version has cache files of its own: when one is written (a cache miss, so rarely),
// those nobody has written for 30 days go. One still in use is only compiled and written again.
const PRUNE_AFTER_MS = 30 * 24 * 3600 * 1000;
function prune(dir) {
  const now = Date.now();
  for (const name of fs.readdirSync(dir)) {
    if (!/\\.bin(\\.\\d+)?$/.test(name)) continue;
    try { if (now - fs.statSync(path.join(dir, name)).mtimeMs > PRUNE_AFTER_MS) fs.unlinkSync(path.join(dir, name)); } catch {}
  }
}
function load(file, parent) {
  if (loaded.has(file)) return loaded.get(file).exports;
  const source = fs.readFileSync(file, "utf8");
  const digest = DIGEST[path.basename(file)];
  let cacheFile, cached;
  if (cacheDir && digest) {
    cacheFile = path.join(cacheDir, digest + "-" + process.version + "-" + process.arch + ".bin");
    try { cached = fs.readFileSync(cacheFile); } catch {}
  }
  const script = new vm.Script(Module.wrap(source), { filename: file, cachedData: cached });
  if (cacheFile && (!cached || script.cachedDataRejected)) {
    // Once the start-up code has been compiled: shortly after loading, or at exit (Terraform's Shutdown) if that
    // comes first. Never delays the handshake, never keeps the process alive.
    let saved = false;
    const save = () => {
      if (saved) return;
      saved = true;
      try {
        fs.mkdirSync(path.dirname(cacheFile), { recursive: true });
        const temporary = cacheFile + "." + process.pid;
        fs.writeFileSync(temporary, script.createCachedData());
        fs.renameSync(temporary, cacheFile);
        prune(path.dirname(cacheFile));
      } catch {}
    };
    setTimeout(save, 300).unref();
    process.once("exit", save);
  }
  const bundleModule = new Module(file, parent);
  bundleModule.filename = file;
  bundleModule.paths = Module._nodeModulePaths(path.dirname(file));
  loaded.set(file, bundleModule);
  // The bundles' own lazy parts (./BASE.lazy-N.js) load through here too, with the code cache.
  const requireFrom = (id) => id.startsWith(LAZY_PREFIX) ? load(path.join(path.dirname(file), id), bundleModule) : bundleModule.require(id);
  script.runInThisContext().call(bundleModule.exports, bundleModule.exports, requireFrom, bundleModule, file, path.dirname(file));
  return bundleModule.exports;
}
load(path.join(__dirname, BUNDLE_FILE), module);
`;
