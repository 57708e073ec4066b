/**
 * Calls every method of `@tenderly/api-client`'s `TenderlyService`, unchanged, as hardhat-tenderly calls them; run
 * as a child of test/hosted-api-client.test.ts (tsx), with HOME holding the client's own config file and its
 * requests reaching the local service under the hosted host name. Prints, per method, a line
 * `### <method> <JSON of what it returned>` after the method's own console output, which the test reads.
 */
import { TenderlyService } from "@tenderly/api-client";

const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
};
const account = env("CALLS_ACCOUNT");
const project = env("CALLS_PROJECT");
const vnetKey = env("CALLS_VNET_KEY");
const vnetId = env("CALLS_VNET_ID");
const chainId = env("CALLS_CHAIN_ID");
const accessKey = env("CALLS_ACCESS_KEY");
const contracts = JSON.parse(env("CALLS_CONTRACTS")) as { name: string; address: string; abi: unknown[] }[];
const source = env("CALLS_SOURCE");
const version = env("CALLS_VERSION");

/** A multi-compiler request for one contract of the source. */
const request = (index: number) => ({
  contracts: [
    {
      contractToVerify: `Counter.sol:${contracts[index].name}`,
      sources: { "Counter.sol": { name: "Counter.sol", code: source } },
      compiler: { version, settings: { optimizer: { enabled: false, runs: 200 } } },
      networks: { [chainId]: { address: contracts[index].address } },
    },
  ],
});
/** The older single-compiler request for one contract of the source. */
const oldRequest = (index: number) => ({
  config: { compiler_version: version, optimizations_used: false, optimizations_count: 200 },
  contracts: [
    {
      contractName: contracts[index].name,
      source,
      sourcePath: "Counter.sol",
      compiler: { version },
      networks: { [chainId]: { address: contracts[index].address } },
    },
  ],
});
const abiRequest = (index: number, networkId: string) => ({
  networkId,
  address: contracts[index].address,
  contractName: contracts[index].name,
  abi: JSON.stringify(contracts[index].abi),
});

async function main(): Promise<void> {
  const service = new TenderlyService("chainform-test");
  const calls: [string, () => Promise<unknown>][] = [
    ["getNetworks", () => service.getNetworks().then((networks) => networks.length)],
    ["getLatestBlockNumber", () => service.getLatestBlockNumber("1")],
    ["getPrincipal", () => service.getPrincipal()],
    ["getProjectSlugs", async () => service.getProjectSlugs((await service.getPrincipal())!.id)],
    [
      "addContractToProject",
      () =>
        service.addContractToProject(account, project, { network_id: chainId, address: contracts[0].address, display_name: "Counter A" }),
    ],
    ["verifyContractsMultiCompiler", () => service.verifyContractsMultiCompiler(request(0))],
    ["pushContractsMultiCompiler", () => service.pushContractsMultiCompiler(request(1), project, account)],
    ["verifyForkContractsMultiCompiler", () => service.verifyForkContractsMultiCompiler(request(2), project, account, vnetKey)],
    [
      "verifyDevnetContractsMultiCompiler",
      () => service.verifyDevnetContractsMultiCompiler(request(3), project, account, vnetKey, accessKey),
    ],
    ["verifyContracts", () => service.verifyContracts(oldRequest(4) as never)],
    ["pushContracts", () => service.pushContracts(oldRequest(5) as never, project, account)],
    ["verifyForkContracts", () => service.verifyForkContracts(oldRequest(6) as never, project, account, vnetKey)],
    ["verifyContractABI private", () => service.verifyContractABI(account, project, "private", abiRequest(7, chainId))],
    ["verifyContractABI fork", () => service.verifyContractABI(account, project, "fork", abiRequest(8, vnetId))],
    ["verifyContractABI public", () => service.verifyContractABI(account, project, "public", abiRequest(9, chainId))],
  ];
  for (const [name, call] of calls) {
    let result: unknown;
    try {
      result = await call();
    } catch (error) {
      result = { thrown: String((error as Error).message) };
    }
    console.log(`### ${name} ${JSON.stringify(result ?? null)}`);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
