/**
 * A Hardhat 2 project with `@tenderly/hardhat-tenderly` (test/hosted-clients/hardhat: solc-js, nothing downloaded)
 * run as a user runs it, `chainform exec -- npx hardhat …`, against a vnet of the local service by its hosted RPC URL:
 * it deploys with automatic verification, calls `tenderly.verify`, and `hardhat verify` verifies two more contracts:
 * with hardhat-verify configured the way Tenderly documents for a Virtual TestNet, and with the plugin's automatic
 * population and the key keyed by network (docs/hosted-clients.md "Hardhat" says why the default form cannot reach
 * any verifier but Etherscan's). The explorer shows each source.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startTestService, type TestService } from "./helpers/service";
import { createHostedVnet } from "./helpers/hosted-vnets";
import { runCli } from "./helpers/cli";
import { call, rpc } from "./helpers/http";

const DEPLOYER_KEY = `0x${"4c".repeat(32)}`;
const DEPLOYER = "0xdb00079cad3e665853bf766efe26f4c38cdbdcda";
const CHAIN_ID = 73574;
let service: TestService;
let project: string;

beforeAll(async () => {
  service = await startTestService();
  project = mkdtempSync(join(tmpdir(), "hardhat-tenderly-"));
  cpSync(join(__dirname, "hosted-clients", "hardhat"), project, { recursive: true });
  symlinkSync(join(__dirname, "..", "node_modules"), join(project, "node_modules"));
  mkdirSync(join(project, "home", ".tenderly"), { recursive: true });
  writeFileSync(join(project, "home", ".tenderly", "config.yaml"), `access_key: ${service.keys.alice}\n`);
}, 180_000);
afterAll(async () => {
  await service?.close();
  if (project) rmSync(project, { recursive: true, force: true });
});

/** `npx hardhat ARGS` in the project under `chainform exec`, on the test's service. */
async function hardhat(args: string[], env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const result = await runCli(["exec", "--", "npx", "--no-install", "hardhat", ...args], {
    cwd: project,
    timeoutMs: 300_000,
    env: { ...env, CHAINFORM_BASE_URL: service.baseUrl },
  });
  return { code: result.code, output: `${result.stdout}${result.stderr}` };
}

test("deploy with automatic verification, tenderly.verify and hardhat verify on a vnet, through chainform exec", async () => {
  const vnet = await createHostedVnet(service, { slug: "hardhat-testnet", displayName: "Hardhat TestNet", chainId: CHAIN_ID });
  const admin = vnet.url("Admin RPC");
  await rpc(admin, "tenderly_setBalance", [DEPLOYER, "0x56bc75e2d63100000"]);
  const env = {
    HOME: join(project, "home"),
    TENDERLY_ENABLE_OUTDATED_VERSION_CHECK: "false",
    TENDERLY_AUTOMATIC_VERIFICATION: "true",
    TENDERLY_ACCESS_KEY: service.keys.alice,
    VNET_RPC_URL: `https://virtual.mainnet.rpc.tenderly.co/${admin.split("/").pop()}`,
    VNET_CHAIN_ID: String(CHAIN_ID),
    DEPLOYER_KEY,
  };
  const deployed = await hardhat(["run", "--network", "tenderly", "scripts/deploy.ts"], env);
  expect({ code: deployed.code, output: deployed.code === 0 ? "" : deployed.output }).toEqual({ code: 0, output: "" });
  const [first, second, third, fourth] = /ADDRESSES (\S+) (\S+) (\S+) (\S+)/
    .exec(deployed.output)!
    .slice(1)
    .map((a) => a.toLowerCase());
  const shown = async (address: string) => {
    const answer = await call(service, "GET", `/explorer/${vnet.id}/api?module=contract&action=getsourcecode&address=${address}`);
    return String(answer.body.result[0].SourceCode).includes("contract Counter");
  };
  // The last two were deployed past the plugin: nothing has verified them yet.
  expect([await shown(third), await shown(fourth)]).toEqual([false, false]);
  const documented = await hardhat(["verify", "--network", "tenderly", third], { ...env, VERIFY_CONFIG: "documented" });
  const populated = await hardhat(["verify", "--network", "tenderly", fourth], {
    ...env,
    VERIFY_CONFIG: "populated",
    TENDERLY_AUTOMATIC_POPULATE_HARDHAT_VERIFY_CONFIG: "true",
  });
  const results = {
    automatic: await shown(first),
    "tenderly.verify": await shown(second),
    "hardhat verify (documented config)": await shown(third),
    "hardhat verify (populated config)": await shown(fourth),
  };
  console.log(`@tenderly/hardhat-tenderly: ${JSON.stringify(results)}`);
  for (const verify of [documented, populated]) {
    expect({ code: verify.code, output: verify.code === 0 ? "" : verify.output }).toEqual({ code: 0, output: "" });
    expect(verify.output).toMatch(/Successfully verified contract Counter/);
  }
  expect(Object.values(results)).toEqual([true, true, true, true]);
  // Nothing printed quotes the Admin RPC secret but the URL the user configured.
  expect(deployed.output.includes(service.keys.alice)).toBe(false);
}, 700_000);
