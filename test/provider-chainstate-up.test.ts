/**
 * `chainform up examples/cdktf/seeded-testnet`: the real CLI with its embedded service synthesizes the seeded app
 * (an environment, a token per network, balances, snapshots, a contract call), applies it, checks the RPC URLs and
 * the prefunded balances, and destroys it. Needs `npm run build`.
 */
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { assertCliBuilt, assertProviderBuilt, ROOT, runCli } from "./helpers/cli";

const APP = join(ROOT, "examples", "cdktf", "seeded-testnet");

describe("chainform up with the seeded-testnet app", () => {
  beforeAll(assertProviderBuilt);
  const outDir = mkdtempSync(join(tmpdir(), "chainform-seeded-"));
  const name = `t${process.pid}`;
  beforeAll(assertCliBuilt);
  afterAll(() => {
    rmSync(outDir, { recursive: true, force: true });
    for (const file of readdirSync(APP)) if (file.startsWith(`terraform.seeded-${name}.tfstate`)) rmSync(join(APP, file), { force: true });
  });

  it("applies the seeded environment, checks it and destroys it", async () => {
    const result = await runCli(["up", APP], { env: { SEED_NAME: name, CDKTF_OUTDIR: outDir }, timeoutMs: 300_000 });
    if (result.code !== 0) throw new Error(`up exited ${result.code}:\n${result.stderr}\n${result.stdout}`);
    expect(result.stdout).toMatch(/Plan: 9 to add, 0 to change, 0 to destroy\./);
    for (const type of ["chainform_contract", "chainform_erc20_balance", "chainform_snapshot"])
      expect(result.stdout).toMatch(new RegExp(`${type}\\.\\S+ will be created`));
    expect(result.stdout).toMatch(new RegExp(`^seeded-${name} +Mainnet \\(1\\) +73575 +http://127\\.0\\.0\\.1:\\d+/rpc/public/\\S+$`, "m"));
    expect(result.stderr).toMatch(/✓ check 2 Public RPC URL\(s\) and 4 prefunded balance\(s\)/);
    expect(result.stderr).toMatch(/✓ up: applied, checked and destroyed in/);
    expect(result.stdout + result.stderr).not.toMatch(/rpc\/admin\/(?!\[redacted\])/);
  }, 320_000);
});
