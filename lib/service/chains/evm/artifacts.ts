/**
 * Compiled contracts (dist/contracts/<Name>.json, written by scripts/build/20-contracts.mjs from contracts/).
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { Abi, Hex } from "./viem";

/** One compiled contract. */
export interface ContractArtifact {
  readonly contractName: string;
  readonly abi: Abi;
  readonly bytecode: Hex;
  readonly deployedBytecode: Hex;
}

const cache = new Map<string, ContractArtifact>();

/** The package root: the nearest folder above this file holding package.json (works from lib/ and dist/). */
export function packageRoot(): string {
  let dir = __dirname;
  while (!existsSync(join(dir, "package.json"))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error("chainform: package.json not found above " + __dirname);
    dir = parent;
  }
  return dir;
}

/** Loads a compiled contract by name; throws with what to do when the build has not run. */
export function loadArtifact(name: string): ContractArtifact {
  const cached = cache.get(name);
  if (cached) return cached;
  const path = join(packageRoot(), "dist", "contracts", `${name}.json`);
  if (!existsSync(path)) throw new Error(`contract artifact ${path} is missing: run \`npm run build\``);
  const artifact = JSON.parse(readFileSync(path, "utf8")) as ContractArtifact;
  cache.set(name, artifact);
  return artifact;
}
