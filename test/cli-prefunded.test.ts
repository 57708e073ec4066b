/**
 * `chainform deploy` and `up` check that every prefunded account was funded, and stay green after the account paid
 * gas (issue 26, item 1): an HCL app whose funded account deploys a contract in the apply and then sends
 * transactions of its own; `deploy` again and `up` (against the same service) exit 0. An account that holds nothing
 * (its funding undone through the Admin RPC, as if it never happened) still fails the check.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { assertCliBuilt, ROOT, runCli, serviceEnv, type CliResult } from "./helpers/cli";
import { FUNDED_ACCOUNT, prefundedConfiguration, setBalance, spendFromFundedAccount } from "./helpers/prefunded-app";
import { startTestService, type TestService } from "./helpers/service";

const ARTIFACT = join(ROOT, "dist", "contracts", "ChainformToken.json");

function ok(result: CliResult, what: string): CliResult {
  if (result.code !== 0) throw new Error(`${what} exited ${result.code}:\n${result.stdout}\n${result.stderr}`);
  return result;
}

describe("prefunded accounts that pay gas", () => {
  let service: TestService;
  const dirs: string[] = [];
  const app = (slug: string, chainId: number, contract: boolean) => {
    const dir = mkdtempSync(join(tmpdir(), "chainform-prefunded-"));
    dirs.push(dir);
    writeFileSync(join(dir, "main.tf"), prefundedConfiguration({ slug, chainId, artifactPath: ARTIFACT, contract }));
    return dir;
  };
  const cli = (args: string[]) => runCli(args, { env: serviceEnv(service), timeoutMs: 300_000 });
  const outputs = async (dir: string) =>
    JSON.parse(ok(await cli(["outputs", "--include-sensitive", dir]), "outputs").stdout) as Record<string, string>;

  beforeAll(async () => {
    assertCliBuilt();
    service = await startTestService();
  });
  afterAll(async () => {
    await service?.close();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it("deploy, the account's own transactions, deploy again and up: all exit 0", async () => {
    const chainId = 73_000 + Math.floor(Math.random() * 900);
    const dir = app(`funded-${chainId}`, chainId, true);
    const first = ok(await cli(["deploy", dir]), "the first deploy");
    expect(first.stderr).toMatch(/check 1 Public RPC URL\(s\) and 1 prefunded balance\(s\)/);
    const { rpc_url } = await outputs(dir);
    await spendFromFundedAccount(rpc_url, chainId, 2);
    const again = ok(await cli(["deploy", dir]), "deploy after the account's transactions");
    expect(again.stdout).toMatch(/No changes\./);
    ok(await cli(["up", dir]), "up");
  }, 600_000);

  it("an account that holds nothing of its funding still fails the check, naming it", async () => {
    const chainId = 74_000 + Math.floor(Math.random() * 900);
    const dir = app(`unfunded-${chainId}`, chainId, false);
    ok(await cli(["deploy", dir]), "deploy");
    await setBalance((await outputs(dir)).admin_rpc_url, FUNDED_ACCOUNT.address, 0n);
    const failed = await cli(["deploy", dir]);
    expect({ code: failed.code, stderr: failed.stderr }).toEqual({
      code: 1,
      stderr: expect.stringMatching(
        new RegExp(`1 RPC check\\(s\\) failed: .*${FUNDED_ACCOUNT.address} holds 0 wei and paid 0 wei .*was the account funded\\?`, "i"),
      ),
    });
    ok(await cli(["destroy", dir]), "destroy");
  }, 600_000);
});
