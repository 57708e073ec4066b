/**
 * Where the running chainform was installed from, as the dependency `chainform init` writes into a new project, so
 * that `npm install` there (and `npm ci` in its CI) gets the same chainform: the registry range when it came from
 * the registry, the same URL or pinned git commit when it came from one, and a copy of the tarball inside the new
 * project when it came from a local tarball (a path outside the project would not exist in CI).
 *
 * npm records each installed package's origin (`resolved`) in the project's lock files: the hidden
 * `node_modules/.package-lock.json` and `package-lock.json`, keyed by the package's path from the project root.
 * `npx chainform` without an install runs from npm's cache, a project of its own with the same files.
 */
import { existsSync, readFileSync } from "node:fs";
import { basename, join, relative, resolve, sep } from "node:path";

/** The dependency to write, and a tarball to copy into the new project when the dependency names one there. */
export interface ChainformDependency {
  /** The value of `dependencies.chainform`, e.g. `^0.1.0`, a URL, `github:owner/repo#commit` or `file:vendor/...`. */
  readonly spec: string;
  /** A local tarball to copy to `vendorPath` (relative to the new project) before `npm install`. */
  readonly copy?: { readonly from: string; readonly vendorPath: string };
  /** Where it came from, for the line `init` prints. */
  readonly origin: string;
}

/** The folder of the new project that holds a copied tarball. */
export const VENDOR_DIR = "vendor";

/**
 * The dependency for the chainform installed at `packageDir` (version `version`).
 * @example
 * chainformDependency("/work/app/node_modules/chainform", "0.1.0")
 * // { spec: "^0.1.0", origin: "the npm registry" } when the lock says https://registry.npmjs.org/chainform/-/chainform-0.1.0.tgz
 */
export function chainformDependency(packageDir: string, version: string): ChainformDependency {
  const registry: ChainformDependency = { spec: `^${version}`, origin: "the npm registry" };
  const found = resolvedEntry(packageDir);
  if (!found) return registry;
  const { resolved, root } = found;
  if (resolved.startsWith("file:")) {
    const path = resolve(root, resolved.slice("file:".length));
    if (!/\.(tgz|tar\.gz)$/.test(path)) return { spec: `file:${path}`, origin: `the directory ${path}` };
    const vendorPath = `${VENDOR_DIR}/${basename(path)}`;
    return { spec: `file:${vendorPath}`, copy: { from: path, vendorPath }, origin: `the tarball ${path}` };
  }
  if (/^git\+|^git:/.test(resolved)) return { spec: resolved, origin: `the git repository ${resolved.replace(/#.*$/, "")}` };
  if (/^https?:\/\//.test(resolved)) {
    // A registry tarball URL (…/chainform/-/chainform-X.tgz) means the registry; any other URL is kept as is.
    return /\/chainform\/-\/chainform-[^/]+\.tgz$/.test(resolved) ? registry : { spec: resolved, origin: resolved };
  }
  return registry;
}

/** The `resolved` of the package at `packageDir` in the lock files of the project that holds it, with that root. */
function resolvedEntry(packageDir: string): { resolved: string; root: string } | undefined {
  const parts = packageDir.split(sep);
  const index = parts.lastIndexOf("node_modules");
  if (index <= 0) return undefined; // not installed: chainform's own repository
  const root = parts.slice(0, index).join(sep) || sep;
  const key = relative(root, packageDir).split(sep).join("/");
  for (const lock of [join(root, "node_modules", ".package-lock.json"), join(root, "package-lock.json")]) {
    if (!existsSync(lock)) continue;
    try {
      const entry = (JSON.parse(readFileSync(lock, "utf8")) as { packages?: Record<string, { resolved?: unknown; link?: unknown }> })
        .packages?.[key];
      if (typeof entry?.resolved === "string" && entry.resolved !== "") {
        // A linked package (npm install ../chainform) resolves to its directory, relative to the root.
        const resolved = entry.link === true && !entry.resolved.startsWith("file:") ? `file:${entry.resolved}` : entry.resolved;
        return { resolved, root };
      }
    } catch {
      // An unreadable lock file says nothing: try the next, else the registry.
    }
  }
  return undefined;
}
