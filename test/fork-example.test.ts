/**
 * examples/cdktf/fork-mainnet synthesized as `chainform up` does (tsx, no cdktf-cli): mainnet at the pinned block
 * 21,000,000 with its own chain id, USDC funded for the holder, and reads of the real token. `test/fork-up.test.ts`
 * runs it end to end against an upstream stand-in. Needs `npm run build` (the app imports chainform/constructs).
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const ROOT = join(__dirname, "..");
const TSX = join(ROOT, "node_modules", "tsx", "dist", "cli.mjs");
const USDC = "0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48";

(existsSync(join(ROOT, "dist", "constructs", "index.js")) ? test : test.skip)(
  "the example pins mainnet's block 21,000,000 and funds the holder with real USDC",
  () => {
    const outdir = mkdtempSync(join(tmpdir(), "chainform-fork-example-"));
    try {
      const run = spawnSync(process.execPath, [TSX, "main.ts"], {
        cwd: join(ROOT, "examples", "cdktf", "fork-mainnet"),
        env: { ...process.env, CDKTF_OUTDIR: outdir, FORK_BLOCK: "", TOKEN_ADDRESS: "", FORK_NAME: "ci" },
        encoding: "utf8",
        timeout: 60_000,
      });
      if (run.status !== 0) throw new Error(`the example failed (${run.status}):\n${run.stderr}`);
      const stack = JSON.parse(readFileSync(join(outdir, "stacks", "fork-mainnet-ci", "cdk.tf.json"), "utf8"));
      const [environment] = Object.values(stack.resource.chainform_environment) as any[];
      expect(environment.slug).toBe("fork-mainnet-ci");
      expect(environment.network_config).toEqual([
        {
          network_id: "1",
          chain_id: "73571",
          block_number: "0x1406f40",
          account: [{ address: "0x00000000000000000000000000000000000a11ce", balance: "0x8ac7230489e80000" }],
        },
      ]);
      const [balance] = Object.values(stack.resource.chainform_erc20_balance) as any[];
      expect(balance).toMatchObject({ token: USDC, holder: "0x00000000000000000000000000000000000a11ce", amount: "1000000000" });
      const calls = Object.values(stack.data.chainform_contract_call) as any[];
      expect(calls.map((c) => [c.address, c.function]).sort()).toEqual([
        [USDC, "balanceOf(address) view returns (uint256)"],
        [USDC, "totalSupply() view returns (uint256)"],
      ]);
      expect(Object.keys(stack.output).sort()).toEqual(["admin_rpc_url", "holder_balance", "rpc_url", "token_total_supply"]);
    } finally {
      rmSync(outdir, { recursive: true, force: true });
    }
  },
);
