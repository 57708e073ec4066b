/**
 * Virtual Environments' chains through the service's HTTP API and RPC URLs, with viem as the Ethereum client:
 * chain id override, prefunded balances, deploy and calls with a signed (raw) transaction, Public RPC refusing
 * cheatcodes, Admin RPC tenderly_setBalance, records, simulation endpoints, state surviving a service restart, and
 * deletion killing the chain's processes.
 */
import { rmSync } from "node:fs";
import { createPublicClient, createWalletClient, http, parseEther } from "./helpers/viem";
import { privateKeyToAccount } from "./helpers/viem";
import type { BackendChainEngine } from "../lib/service/chains";
import type { Environment, Transaction } from "../lib/api";
import { artifact, processAlive, temporaryDataDir } from "./chains-host";
import { startTestService, type TestService } from "./helpers/service";

const deployer = privateKeyToAccount("0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d");
const OTHER = "0x000000000000000000000000000000000000dead";
const token = artifact("ProbeToken");
const dataDir = temporaryDataDir();
let service: TestService;
let environment: Environment;

const api = (path: string) => `${service.baseUrl}/public/v1/account/${service.accountSlug}/project/${service.projectSlug}${path}`;
async function call<T>(method: string, url: string, body?: unknown): Promise<T> {
  const response = await fetch(url, {
    method,
    headers: { ...service.headersOf("alice"), ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}
const rpcUrl = (name: "Admin RPC" | "Public RPC", index = 0) =>
  environment.active_instance.vnets[index].rpcs.find((r) => r.name === name)!.url;
const clientOf = (url: string) => createPublicClient({ transport: http(url) });
const instancePath = () => `/environments/${environment.id}/instance/${environment.active_instance.id}`;
const engineOf = (s: TestService) => s.app.service.engine as BackendChainEngine;

beforeAll(async () => {
  service = await startTestService({ dataDir });
  environment = await call<Environment>("POST", api("/environments"), {
    display_name: "chains http",
    network_configs: [
      {
        network_id: "1",
        chain_config_overrides: { chain_id: "73571" },
        accounts: [{ address: deployer.address, balance: "0x56bc75e2d63100000" }],
      },
      { network_id: "10" },
    ],
  });
});
afterAll(async () => {
  await service?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

test("the RPC URLs answer with the chain id override and the prefunded balance", async () => {
  const publicClient = clientOf(rpcUrl("Public RPC"));
  expect(await publicClient.getChainId()).toBe(73571);
  expect(await publicClient.getBalance({ address: deployer.address })).toBe(parseEther("100"));
  expect(await clientOf(rpcUrl("Public RPC", 1)).getChainId()).toBe(10);
  expect(await publicClient.getBlockNumber()).toBe(BigInt(environment.networks[0].block_number));
});

test("a contract deployed and called with signed transactions through the Public RPC, and recorded", async () => {
  const chain = {
    id: 73571,
    name: "vnet",
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl("Public RPC")] } },
  };
  const wallet = createWalletClient({ account: deployer, chain, transport: http(rpcUrl("Public RPC")) });
  const publicClient = createPublicClient({ chain, transport: http(rpcUrl("Public RPC")) });
  const deployHash = await wallet.deployContract({ abi: token.abi, bytecode: token.bytecode });
  const { contractAddress } = await publicClient.waitForTransactionReceipt({ hash: deployHash });
  const mintHash = await wallet.writeContract({ address: contractAddress!, abi: token.abi, functionName: "mint", args: [OTHER, 12n] });
  await publicClient.waitForTransactionReceipt({ hash: mintHash });
  expect(await publicClient.readContract({ address: contractAddress!, abi: token.abi, functionName: "balanceOf", args: [OTHER] })).toBe(
    12n,
  );

  const transactions = await call<Transaction[]>("GET", api(`${instancePath()}/transactions?kind=blockchain`));
  expect(transactions.map((t) => [t.tx_hash, t.to === null, t.function_name])).toEqual([
    [mintHash, false, null], // mint is in no ABI the service knows (ERC-20/721 standard functions only)
    [deployHash, true, null],
  ]);
  const transaction = await call<Transaction>("GET", api(`${instancePath()}/transactions/${mintHash}`));
  expect(transaction).toMatchObject({
    tx_hash: mintHash,
    origin: "rpc",
    rpc_method: "eth_sendRawTransaction",
    category: "write",
    kind: "blockchain",
    status: "success",
  });
  expect(transaction.dashboard_url).toBe(`${service.baseUrl}/explorer/${transaction.vnet_id}/tx/${mintHash}`);
  expect(transaction.logs![0]).toMatchObject({
    name: "Transfer",
    inputs: [expect.anything(), { name: "to", type: "address", value: OTHER }, { name: "value", type: "uint256", value: "12" }],
  });
});

test("the Public RPC refuses cheatcodes; the Admin RPC runs tenderly_setBalance and records it", async () => {
  await expect(
    clientOf(rpcUrl("Public RPC")).request({ method: "anvil_setBalance" as "eth_chainId", params: [OTHER, "0x1"] as never }),
  ).rejects.toMatchObject({
    code: -32601,
  });
  const admin = clientOf(rpcUrl("Admin RPC"));
  await admin.request({ method: "tenderly_setBalance" as "eth_chainId", params: [OTHER, "0xde0b6b3a7640000"] as never });
  expect(await clientOf(rpcUrl("Public RPC")).getBalance({ address: OTHER })).toBe(parseEther("1"));
  const transactions = await call<Transaction[]>("GET", api(`${instancePath()}/transactions?kind=cheatcode`));
  expect(transactions).toHaveLength(1);
  expect(transactions[0]).toMatchObject({
    to: OTHER,
    kind: "cheatcode",
    category: "write",
    rpc_method: "tenderly_setBalance",
    status: "success",
  });
});

test("the API sends transactions and simulates at vnet and instance level", async () => {
  const vnetId = environment.active_instance.vnets[0].id;
  const transaction = await call<Transaction>("POST", api(`${instancePath()}/vnet/${vnetId}/transactions`), {
    callArgs: { from: OTHER, to: deployer.address, value: "0x1" },
  });
  expect(transaction).toMatchObject({
    from: OTHER,
    to: deployer.address.toLowerCase(),
    status: "success",
    category: "write",
    origin: "api",
  });
  const head = await clientOf(rpcUrl("Public RPC")).getBlockNumber();
  const sim = await call<{ status: boolean; blockNumber: string; trace: unknown[] }>(
    "POST",
    `${service.baseUrl}/v1/account/${service.accountSlug}/project/${service.projectSlug}/vnets/${vnetId}/transactions/simulate`,
    { callArgs: { from: OTHER, to: deployer.address, value: "0x2" } },
  );
  expect(sim).toMatchObject({ status: true, blockNumber: `0x${head.toString(16)}` });
  const instanceSim = await call<{ stateChanges: { address: string; field: string }[] }>(
    "POST",
    api(`${instancePath()}/vnet/${vnetId}/transactions/simulate`),
    {
      callArgs: { from: OTHER, to: deployer.address, value: "0x2" },
    },
  );
  expect(instanceSim.stateChanges.map((c) => [c.address, c.field])).toEqual(
    expect.arrayContaining([
      [OTHER, "balance"],
      [deployer.address.toLowerCase(), "balance"],
    ]),
  );
  expect(await clientOf(rpcUrl("Public RPC")).getBlockNumber()).toBe(head);
});

test("chain state survives a restart of the service, and deleting the environment kills its chains", async () => {
  const before = await clientOf(rpcUrl("Public RPC")).getBalance({ address: OTHER });
  const blockBefore = await clientOf(rpcUrl("Public RPC")).getBlockNumber();
  const oldPids = engineOf(service).runningNode(environment.active_instance.vnets[0].id)!.pids;
  await service.close();
  expect(oldPids.some(processAlive)).toBe(false);

  service = await startTestService({ dataDir });
  environment = await call<Environment>("GET", api(`/environments/${environment.id}`));
  const publicClient = clientOf(rpcUrl("Public RPC"));
  expect(await publicClient.getBalance({ address: OTHER })).toBe(before);
  expect(await publicClient.getBlockNumber()).toBe(blockBefore);
  expect(await clientOf(rpcUrl("Admin RPC")).getChainId()).toBe(73571);

  const pids = engineOf(service).runningNode(environment.active_instance.vnets[0].id)!.pids;
  expect(pids.every(processAlive)).toBe(true);
  await call("DELETE", api(`/environments/${environment.id}`));
  expect(pids.some(processAlive)).toBe(false);
  const gone = await fetch(rpcUrl("Public RPC"), {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId" }),
  });
  expect(gone.status).toBe(404);
});
