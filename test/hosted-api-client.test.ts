/**
 * `@tenderly/api-client`'s `TenderlyService`, every method, unchanged, against the local service: run in a child
 * (test/hosted-clients/api-client-calls.ts) run under `chainform exec`, so its requests reach the service under the
 * hosted host names (`api.tenderly.co`, and `rpc.tenderly.co` for the older fork verifier), with the client's own
 * config file in a temporary HOME. A method works when it logs no
 * error and its effect is there: the explorer shows the verified source, the registry holds the added contract.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startTestService, type TestService } from "./helpers/service";
import { createHostedVnet } from "./helpers/hosted-vnets";
import { ROOT, runCli } from "./helpers/cli";
import { call, rpc } from "./helpers/http";

const solc = require("solc") as { version(): string; compile(input: string): string };
const CHAIN_ID = 73572;
const TSX = join(ROOT, "node_modules", ".bin", "tsx");
const SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;
contract Counter {
    uint256 public count;
    function increment() external { count += 1; }
}
`;
let service: TestService;
let home: string;
let vnet: { id: string; rpcs: { name: string; url: string }[] };

beforeAll(async () => {
  service = await startTestService();
  home = mkdtempSync(join(tmpdir(), "api-client-home-"));
  mkdirSync(join(home, ".tenderly"));
  writeFileSync(join(home, ".tenderly", "config.yaml"), `access_key: ${service.keys.alice}\nusername: acme\n`);
  vnet = await createHostedVnet(service, { slug: "api-client-testnet", displayName: "api-client TestNet", chainId: CHAIN_ID });
}, 180_000);
afterAll(async () => {
  await service?.close();
  if (home) rmSync(home, { recursive: true, force: true });
});

/** Runs the calls under `chainform exec` (on the test's service) and splits their output by method. */
async function runCalls(env: Record<string, string>): Promise<Map<string, { output: string; result: unknown }>> {
  // One stream, so each method's logged errors stay beside its marker line.
  const script = join(ROOT, "test", "hosted-clients", "api-client-calls.ts");
  const result = await runCli(["exec", "--", "sh", "-c", 'exec "$0" "$1" 2>&1', TSX, script], {
    timeoutMs: 240_000,
    env: { ...env, CHAINFORM_BASE_URL: service.baseUrl },
  });
  if (result.code !== 0) throw new Error(`the calls ended with ${result.code}:\n${result.stdout}${result.stderr}`);
  const sections = new Map<string, { output: string; result: unknown }>();
  let output = "";
  for (const line of result.stdout.split("\n")) {
    const marker = /^### (\w+(?: \w+)?) (.*)$/.exec(line);
    if (!marker) output += `${line}\n`;
    else {
      sections.set(marker[1], { output, result: JSON.parse(marker[2]) });
      output = "";
    }
  }
  return sections;
}

test("every method of TenderlyService: what each returns and what it changed", async () => {
  const admin = vnet.rpcs.find((r) => r.name === "Admin RPC")!.url;
  const input = {
    language: "Solidity",
    sources: { "Counter.sol": { content: SOURCE } },
    settings: { optimizer: { enabled: false, runs: 200 }, outputSelection: { "*": { "*": ["abi", "evm.bytecode.object"] } } },
  };
  const compiled = JSON.parse(solc.compile(JSON.stringify(input))).contracts["Counter.sol"].Counter;
  const deployer = "0x00000000000000000000000000000000000d0d02";
  await rpc(admin, "tenderly_setBalance", [deployer, "0xde0b6b3a7640000"]);
  const contracts: { name: string; address: string; abi: unknown[] }[] = [];
  for (let i = 0; i < 10; i++) {
    const hash = await rpc<string>(admin, "eth_sendTransaction", [{ from: deployer, data: `0x${compiled.evm.bytecode.object}` }]);
    const receipt = await rpc<{ contractAddress: string }>(admin, "eth_getTransactionReceipt", [hash]);
    contracts.push({ name: "Counter", address: receipt.contractAddress.toLowerCase(), abi: compiled.abi });
  }
  const sections = await runCalls({
    HOME: home,
    CALLS_ACCOUNT: "acme",
    CALLS_PROJECT: "demo",
    CALLS_VNET_KEY: admin.split("/").pop()!,
    CALLS_VNET_ID: vnet.id,
    CALLS_CHAIN_ID: String(CHAIN_ID),
    CALLS_ACCESS_KEY: service.keys.alice,
    CALLS_CONTRACTS: JSON.stringify(contracts),
    CALLS_SOURCE: SOURCE,
    CALLS_VERSION: solc.version().split("+")[0],
  });
  const sourceShown = async (index: number) => {
    const answer = await call(
      service,
      "GET",
      `/explorer/${vnet.id}/api?module=contract&action=getsourcecode&address=${contracts[index].address}`,
    );
    return String(answer.body.result?.[0]?.SourceCode ?? "").includes("contract Counter");
  };
  const listing = await call(service, "GET", `/api/v2/accounts/acme/projects/demo/accounts?networkIDs[]=${CHAIN_ID}`, { as: "alice" });
  const kept = (index: number) =>
    (listing.body.accounts as { account: { address: string }; display_name: string }[]).find(
      (a) => a.account.address === contracts[index].address,
    );
  const effects: Record<string, () => Promise<boolean> | boolean> = {
    getNetworks: () => (sections.get("getNetworks")!.result as number) > 0,
    getLatestBlockNumber: () => sections.get("getLatestBlockNumber")!.result !== null,
    getPrincipal: () => (sections.get("getPrincipal")!.result as { username?: string })?.username === "alice",
    // The principal's own account: alice's personal project.
    getProjectSlugs: () => JSON.stringify(sections.get("getProjectSlugs")!.result).includes('"slug":"sandbox"'),
    addContractToProject: () => kept(0)?.display_name === "Counter A",
    verifyContractsMultiCompiler: () => sourceShown(0),
    pushContractsMultiCompiler: async () => (await sourceShown(1)) && kept(1) !== undefined,
    verifyForkContractsMultiCompiler: () => sourceShown(2),
    verifyDevnetContractsMultiCompiler: () => sourceShown(3),
    verifyContracts: () => sourceShown(4),
    pushContracts: () => sourceShown(5),
    verifyForkContracts: () => sourceShown(6),
    // One public method: the project's doors (private, public) and the vnet's (any other type).
    "verifyContractABI private": () => kept(7) !== undefined,
    "verifyContractABI fork": () => kept(8) !== undefined,
    "verifyContractABI public": () => kept(9) !== undefined,
  };
  const working: string[] = [];
  const failing: string[] = [];
  for (const [name, effect] of Object.entries(effects)) {
    const section = sections.get(name);
    const clean =
      section !== undefined && !/Error in chainform-test|error/i.test(section.output) && !JSON.stringify(section.result).includes("thrown");
    (clean && (await effect()) ? working : failing).push(name);
  }
  console.log(
    `@tenderly/api-client TenderlyService: ${working.length} of ${working.length + failing.length} methods work unchanged; not: ${failing.join(", ") || "none"}`,
  );
  expect(failing).toEqual([]);
}, 300_000);
