import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadArtifact, type Artifact } from "../artifact";
import { verificationInput } from "./contract-verify";

const dir = mkdtempSync(join(tmpdir(), "chainform-verify-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function write(path: string, content: unknown): string {
  const full = join(dir, path);
  mkdirSync(join(full, ".."), { recursive: true });
  writeFileSync(full, JSON.stringify(content));
  return full;
}

describe("verification input", () => {
  it("takes a Hardhat artifact's standard JSON input from its build-info", () => {
    const input = {
      language: "Solidity",
      sources: { "contracts/T.sol": { content: "contract T {}" } },
      settings: { optimizer: { enabled: true, runs: 200 } },
    };
    write("hh/build-info/abc.json", { solcLongVersion: "0.8.28+commit.7893614a", input });
    write("hh/artifacts/contracts/T.sol/T.dbg.json", { buildInfo: "../../../build-info/abc.json" });
    const path = write("hh/artifacts/contracts/T.sol/T.json", {
      contractName: "T",
      sourceName: "contracts/T.sol",
      abi: [],
      bytecode: "0x6001",
    });
    expect(verificationInput(path, loadArtifact(path) as Artifact)).toEqual({
      standardJsonInput: JSON.stringify(input),
      contractName: "contracts/T.sol:T",
      compilerVersion: "v0.8.28+commit.7893614a",
    });
  });

  it("builds it from a Foundry artifact's metadata and the sources on disk", () => {
    write("forge/src/T.sol", "x");
    writeFileSync(join(dir, "forge/src/T.sol"), "contract T {}");
    const metadata = {
      compiler: { version: "0.8.28+commit.7893614a" },
      language: "Solidity",
      settings: { compilationTarget: { "src/T.sol": "T" }, optimizer: { enabled: false, runs: 200 }, evmVersion: "cancun" },
      sources: { "src/T.sol": { keccak256: "0x00" } },
    };
    const path = write("forge/out/T.sol/T.json", { abi: [], bytecode: { object: "0x6001" }, metadata });
    const result = verificationInput(path, loadArtifact(path) as Artifact);
    expect(result).toMatchObject({ contractName: "src/T.sol:T", compilerVersion: "v0.8.28+commit.7893614a" });
    expect(JSON.parse((result as { standardJsonInput: string }).standardJsonInput)).toEqual({
      language: "Solidity",
      sources: { "src/T.sol": { content: "contract T {}" } },
      settings: { optimizer: { enabled: false, runs: 200 }, evmVersion: "cancun" },
    });
  });

  it("says so when the artifact carries no compiler input", () => {
    const path = write("plain/T.json", { abi: [], bytecode: "0x6001" });
    expect(verificationInput(path, loadArtifact(path) as Artifact)).toEqual({ error: expect.stringMatching(/carries no compiler input/) });
  });
});
