// `npm run bench -- NAME` runs bench/NAME.ts (through tsx) or bench/NAME.mjs.
import { existsSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const name = process.argv[2];
if (!name) {
  console.error("usage: npm run bench -- NAME   (runs bench/NAME.ts or bench/NAME.mjs)");
  process.exit(2);
}
const candidates = [`${name}.ts`, `${name}.mjs`].map((f) => join(root, "bench", f));
const file = candidates.find((f) => existsSync(f));
if (!file) {
  console.error(`no benchmark named ${name}: expected bench/${name}.ts or bench/${name}.mjs`);
  process.exit(2);
}
const args = file.endsWith(".ts") ? ["--import", "tsx", file] : [file];
const result = spawnSync(process.execPath, [...args, ...process.argv.slice(3)], { stdio: "inherit", cwd: root });
process.exit(result.status ?? 1);
