// Runs every build step in scripts/build/, in file-name order. Each step is a module exporting
// `default async function (ctx)`; ctx.root is the package root. Steps own their outputs under dist/.
import { readdirSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const stepsDir = join(root, "scripts", "build");
const only = process.argv[2];
for (const file of readdirSync(stepsDir)
  .filter((f) => f.endsWith(".mjs"))
  .sort()) {
  if (only && !file.includes(only)) continue;
  const started = performance.now();
  const step = await import(pathToFileURL(join(stepsDir, file)).href);
  await step.default({ root });
  console.error(`build: ${file} ${Math.round(performance.now() - started)} ms`);
}
