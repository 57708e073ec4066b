/**
 * Contract artifacts as compilers write them: Foundry (`out/X.sol/X.json`: `abi`, `bytecode.object`), Hardhat
 * (`artifacts/.../X.json`: `abi`, `bytecode` as a string) and chainform's own build (`dist/contracts/X.json`, the
 * Hardhat shape). Paths are relative to the directory terraform runs in.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { viem } from "./lazy-viem";
import type { Abi, Hex } from "./viem";

/** What a deployment needs from an artifact. */
export interface Artifact {
  readonly abi: Abi;
  readonly bytecode: Hex;
  /** keccak256 of the creation bytecode: a change of it replaces the contract. */
  readonly bytecodeHash: Hex;
  /** The contract's name when the artifact says it. */
  readonly contractName: string | null;
  /** The Solidity source path and compiler the artifact names, for verification. */
  readonly sourceName: string | null;
  readonly compiler: string | null;
}

/** Reads an artifact file; returns an error message (what is wrong and what to do) instead when it cannot. */
export function loadArtifact(path: string): Artifact | { error: string } {
  let text: string;
  try {
    text = readFileSync(resolve(path), "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return {
      error: `Cannot read ${path} (${code === "ENOENT" ? "no such file" : (code ?? "read error")}; relative paths start at ${process.cwd()}). Build the contracts first (forge build, npx hardhat compile) or fix artifact_path.`,
    };
  }
  let json: Record<string, unknown>;
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return { error: `${path} is not JSON: expected a Foundry or Hardhat artifact with "abi" and "bytecode".` };
  }
  if (!Array.isArray(json["abi"])) return { error: `${path} has no "abi" array: expected a Foundry or Hardhat artifact.` };
  const raw = json["bytecode"];
  const bytecode = typeof raw === "string" ? raw : raw && typeof raw === "object" ? (raw as { object?: unknown }).object : undefined;
  return fromParts(json["abi"] as Abi, typeof bytecode === "string" ? bytecode : "", path, {
    contractName: typeof json["contractName"] === "string" ? json["contractName"] : null,
    sourceName: typeof json["sourceName"] === "string" ? json["sourceName"] : null,
    compiler: typeof json["compiler"] === "string" ? json["compiler"] : null,
  });
}

/** Checks bytecode and ABI given directly (or read from a file); an error message when they cannot deploy. */
export function fromParts(
  abi: Abi,
  bytecode: string,
  where: string,
  names: Pick<Artifact, "contractName" | "sourceName" | "compiler"> = { contractName: null, sourceName: null, compiler: null },
): Artifact | { error: string } {
  const code = bytecode.startsWith("0x") ? bytecode : `0x${bytecode}`;
  if (code === "0x") {
    return {
      error: `${where} has no bytecode: it is an interface or an abstract contract, or was compiled without bytecode output. Deploy a concrete contract.`,
    };
  }
  if (/__\$[0-9a-fA-F]{34}\$__|__[A-Za-z0-9_:./]{36}__/.test(code)) {
    return { error: `${where}'s bytecode needs linked libraries (it holds placeholders); link them before deploying.` };
  }
  if (!/^0x([0-9a-fA-F]{2})+$/.test(code)) return { error: `${where}'s bytecode is not hex.` };
  return { abi, bytecode: code as Hex, bytecodeHash: viem().keccak256(code as Hex), ...names };
}

/** Parses ABI JSON text given in configuration; an error message when it is not an ABI. */
export function parseAbi(text: string): Abi | { error: string } {
  try {
    const abi = JSON.parse(text) as unknown;
    if (Array.isArray(abi)) return abi as Abi;
    if (abi && typeof abi === "object" && Array.isArray((abi as { abi?: unknown }).abi)) return (abi as { abi: Abi }).abi;
  } catch {
    // fall through
  }
  return { error: 'abi must be a JSON array of ABI items (jsonencode(...) or file("...abi.json")).' };
}
