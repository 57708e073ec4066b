// Compiles the Solidity sources in contracts/ with solc-js into dist/contracts/<ContractName>.json
// ({ contractName, sourceName, abi, bytecode, deployedBytecode }). The local service's chain engine reads the
// bridge's runtime code from there; tests deploy the fixtures. Skipped when every artifact is newer than the sources.
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";

const EVM_VERSION = "cancun";

export default async function compileContracts({ root }) {
  const sourceDir = join(root, "contracts");
  const outDir = join(root, "dist", "contracts");
  const sources = readdirSync(sourceDir)
    .filter((f) => f.endsWith(".sol"))
    .sort();
  const stamp = join(outDir, ".sources");
  const newestSource = Math.max(...sources.map((f) => statSync(join(sourceDir, f)).mtimeMs), statSync(import.meta.filename).mtimeMs);
  if (existsSync(stamp) && statSync(stamp).mtimeMs >= newestSource && readFileSync(stamp, "utf8") === sources.join("\n")) return;

  const solc = createRequire(import.meta.url)("solc");
  const input = {
    language: "Solidity",
    sources: Object.fromEntries(sources.map((f) => [f, { content: readFileSync(join(sourceDir, f), "utf8") }])),
    settings: {
      evmVersion: EVM_VERSION,
      optimizer: { enabled: true, runs: 200 },
      outputSelection: { "*": { "*": ["abi", "evm.bytecode.object", "evm.deployedBytecode.object"] } },
    },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input)));
  const errors = (output.errors ?? []).filter((e) => e.severity === "error");
  if (errors.length > 0) throw new Error(`solc: ${errors.map((e) => e.formattedMessage).join("\n")}`);

  mkdirSync(outDir, { recursive: true });
  for (const [sourceName, contracts] of Object.entries(output.contracts)) {
    for (const [contractName, c] of Object.entries(contracts)) {
      const artifact = {
        contractName,
        sourceName: `contracts/${sourceName}`,
        compiler: `solc ${solc.version()}`,
        evmVersion: EVM_VERSION,
        abi: c.abi,
        bytecode: `0x${c.evm.bytecode.object}`,
        deployedBytecode: `0x${c.evm.deployedBytecode.object}`,
      };
      writeFileSync(join(outDir, `${contractName}.json`), `${JSON.stringify(artifact, null, 2)}\n`);
    }
  }
  writeFileSync(stamp, sources.join("\n"));
}
