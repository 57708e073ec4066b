// Adds the platform-specific optional packages that this machine's npm registry mirror lacks to package-lock.json.
//
// `npm install` here cannot fetch e.g. @foundry-rs/anvil-darwin-arm64 (the mirror answers 404), so it leaves those
// optional dependencies out of the lock file, and `npm ci` then refuses the lock as out of sync. Each missing entry
// is written with its version, `optional: true` and the os/cpu its name says, which is what npm records for a
// package of another platform; `npm ci` skips it on a platform it does not fit and fetches it where it does.
// Run after `npm install`: `node scripts/lock-optional-platforms.mjs`.
import { readFileSync, writeFileSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const lockPath = join(root, "package-lock.json");
const lock = JSON.parse(readFileSync(lockPath, "utf8"));

const OS = ["android", "darwin", "freebsd", "linux", "openharmony", "win32"];
const CPU = {
  amd64: "x64",
  x64: "x64",
  arm64: "arm64",
  arm: "arm",
  ia32: "ia32",
  loong64: "loong64",
  ppc64: "ppc64",
  riscv64: "riscv64",
  s390x: "s390x",
};

/** The os and cpu a platform package's name says, e.g. anvil-darwin-amd64 -> darwin/x64; null when it says none. */
function platformOf(name) {
  const parts = name.split("/").pop().split("-");
  const os = parts.find((p) => OS.includes(p));
  const cpu = parts.map((p) => CPU[p]).find(Boolean);
  return os && cpu ? { os, cpu } : null;
}

const added = [];
for (const [path, entry] of Object.entries(lock.packages)) {
  if (entry.inBundle) continue;
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const nested = path ? `${path}/node_modules/${name}` : `node_modules/${name}`;
    if (lock.packages[nested] || lock.packages[`node_modules/${name}`]) continue;
    const platform = platformOf(name);
    if (!platform || !/^\d+\.\d+\.\d+$/.test(version)) continue;
    lock.packages[`node_modules/${name}`] = { version, optional: true, os: [platform.os], cpu: [platform.cpu] };
    added.push(`${name}@${version} (${platform.os}/${platform.cpu})`);
  }
}
const [rootKey, ...rest] = Object.keys(lock.packages);
lock.packages = Object.fromEntries([rootKey, ...rest.sort()].map((key) => [key, lock.packages[key]]));
writeFileSync(lockPath, `${JSON.stringify(lock, null, 2)}\n`);
console.log(added.length ? `added ${added.length} optional platform packages:\n  ${added.join("\n  ")}` : "nothing to add");
