/**
 * The Foundry fork-test suite kept beside this file, as `forgeProject` sources (test/helpers/forge.ts): every file
 * under src/ and test/, keyed by its path in the project.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** Number of tests in the suite (32). */
export const SUITE_TESTS = 32;

/** The suite's sources, `{ "src/Token.sol": "...", "test/Token.t.sol": "...", ... }`. */
export function foundrySuiteSources(): Record<string, string> {
  const sources: Record<string, string> = {};
  for (const dir of ["src", "test"]) {
    for (const file of readdirSync(join(__dirname, dir))) sources[`${dir}/${file}`] = readFileSync(join(__dirname, dir, file), "utf8");
  }
  return sources;
}
