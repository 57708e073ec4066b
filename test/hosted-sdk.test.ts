/**
 * The hosted service's SDK (`@tenderly/sdk`, unchanged) against the local service, every public function of its
 * contracts, wallets and simulator namespaces and contract verification: its requests reach the service under the
 * hosted API's host name (exec's forwarder and redirect in this process: test/helpers/hosted-exec.ts), and each answer is checked against what the SDK documents
 * and against the chain and the registry (a verified contract's source in the explorer; a bundle's later
 * transactions seeing the earlier ones).
 */
import { Tenderly, NotFoundError, type Network } from "@tenderly/sdk";
import { encodeFunctionData, viem, type Hex } from "./helpers/viem";
import { artifact } from "./chains-host";
import { startTestService, type TestService } from "./helpers/service";
import { createHostedVnet } from "./helpers/hosted-vnets";
import { startHostedExec, type HostedExec } from "./helpers/hosted-exec";
import { call, rpc } from "./helpers/http";
const solc = require("solc") as { version(): string; compile(input: string): string };

const CHAIN_ID = 73571;
const COUNTER = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;
contract Counter {
    uint256 public count;
    function increment() external { count += 1; }
}
`;
let service: TestService;
let hosted: HostedExec;
let vnet: { id: string; rpcs: { name: string; url: string }[] };
let admin: string;
const worked = new Set<string>();
const tried = new Set<string>();
const sdk = (network: number) =>
  new Tenderly({ accessKey: service.keys.alice, accountName: "acme", projectName: "demo", network: network as Network });

async function attempt<T>(name: string, run: () => Promise<T>): Promise<T> {
  tried.add(name);
  const result = await run();
  worked.add(name);
  return result;
}

beforeAll(async () => {
  service = await startTestService();
  hosted = await startHostedExec(service.baseUrl);
  vnet = await createHostedVnet(service, { slug: "sdk-testnet", displayName: "SDK TestNet", chainId: CHAIN_ID });
  admin = vnet.rpcs.find((r) => r.name === "Admin RPC")!.url;
}, 180_000);
afterAll(async () => {
  await hosted?.close();
  await service?.close();
  console.log(
    `@tenderly/sdk: ${worked.size} of ${tried.size} functions work unchanged (${[...tried].filter((n) => !worked.has(n)).join(", ") || "none failed"})`,
  );
});

test("contracts: add, get, update, getBy, getAll, remove; the registry keeps them across calls", async () => {
  const tenderly = sdk(1);
  const address = "0x6b175474e89094c44da98b954eedeac495271d0f";
  expect(await attempt("contracts.add", () => tenderly.contracts.add(address, { displayName: "DAI" }))).toEqual({
    address,
    network: 1,
    displayName: "DAI",
    tags: [],
  });
  expect(await attempt("contracts.get", () => tenderly.contracts.get(address))).toMatchObject({ address, displayName: "DAI" });
  const updated = await attempt("contracts.update", () =>
    tenderly.contracts.update(address, { displayName: "Dai", appendTags: ["stable", "erc20"] }),
  );
  expect(updated).toMatchObject({ displayName: "Dai", tags: ["stable", "erc20"] });
  expect(await attempt("contracts.getBy", () => tenderly.contracts.getBy({ tags: ["stable"] }))).toEqual([updated]);
  expect(await tenderly.contracts.getBy({ tags: ["nothing"] })).toEqual([]);
  expect(await attempt("contracts.getAll", () => tenderly.contracts.getAll())).toEqual([updated]);
  await attempt("contracts.remove", () => tenderly.contracts.remove(address));
  await expect(tenderly.contracts.get(address)).rejects.toBeInstanceOf(NotFoundError);
}, 60_000);

test("wallets: add, get, update, getBy, getAll, remove", async () => {
  const tenderly = sdk(1);
  const address = "0x00000000000000000000000000000000000a11ce";
  expect(await attempt("wallets.add", () => tenderly.wallets.add(address, { displayName: "Alice" }))).toEqual({
    address,
    network: 1,
    displayName: "Alice",
    tags: [],
  });
  expect(await attempt("wallets.get", () => tenderly.wallets.get(address))).toMatchObject({ displayName: "Alice" });
  const updated = await attempt("wallets.update", () => tenderly.wallets.update(address, { appendTags: ["team"] }));
  expect(updated!.tags).toEqual(["team"]);
  expect(await attempt("wallets.getBy", () => tenderly.wallets.getBy({ displayNames: ["Alice"] }))).toHaveLength(1);
  expect(await attempt("wallets.getAll", () => tenderly.wallets.getAll())).toEqual([updated]);
  // A wallet is no contract: the contract listing does not show it.
  expect(await tenderly.contracts.getAll()).toEqual([]);
  await attempt("wallets.remove", () => tenderly.wallets.remove(address));
  await expect(tenderly.wallets.get(address)).rejects.toBeInstanceOf(NotFoundError);
}, 60_000);

test("simulator: one transaction with code, storage, nonce and balance overrides", async () => {
  const logic = artifact("ProbeLogic");
  const at = "0x00000000000000000000000000000000000c0de0";
  const from = "0x0000000000000000000000000000000000000f00";
  const result = await attempt("simulator.simulateTransaction", () =>
    sdk(1).simulator.simulateTransaction({
      transaction: {
        from,
        to: at,
        input: encodeFunctionData({ abi: logic.abi, functionName: "bump" }),
        gas: 200_000,
        gas_price: "0",
        value: 0,
      },
      blockNumber: undefined as unknown as number,
      overrides: { [at]: { code: logic.deployedBytecode, state: { "0x0": 41 } }, [from]: { nonce: 7, balance: "1000" } },
    }),
  );
  expect(result).toMatchObject({ status: true, type: 0 });
  expect(result!.gasUsed).toBeGreaterThan(0);
  // The stored counter was 41 (the state override): bump made it 42 and said so in its event and its output.
  expect(BigInt(result!.trace![0].output!)).toBe(42n);
  expect(result!.logs).toHaveLength(1);
}, 120_000);

test("simulator: a bundle runs in order on one state and stops at the first failure", async () => {
  const token = artifact("ProbeToken");
  const probe = artifact("SimulationProbe");
  const alice = "0x0000000000000000000000000000000000a11ce1";
  const bob = "0x0000000000000000000000000000000000000b0b";
  const carol = "0x00000000000000000000000000000000000ca401";
  const tokenAt = viem.getContractAddress({ from: alice, nonce: 0n });
  const tx = (from: string, to: string | undefined, input: Hex) => ({
    from,
    to: to as string,
    input,
    gas: 3_000_000,
    gas_price: "0",
    value: 0,
  });
  const results = await attempt("simulator.simulateBundle", () =>
    sdk(1).simulator.simulateBundle({
      blockNumber: undefined as unknown as number,
      transactions: [
        tx(alice, undefined, token.bytecode),
        tx(alice, tokenAt, encodeFunctionData({ abi: token.abi, functionName: "mint", args: [bob, 100n] })),
        // Only possible on the state the first two left: the token exists and bob holds 100.
        tx(bob, tokenAt, encodeFunctionData({ abi: token.abi, functionName: "transfer", args: [carol, 60n] })),
        tx(bob, tokenAt, encodeFunctionData({ abi: token.abi, functionName: "transfer", args: [carol, 60n] })),
        tx(alice, "0x00000000000000000000000000000000000c0de0", encodeFunctionData({ abi: probe.abi, functionName: "fail" })),
      ],
    }),
  );
  expect(results!.map((r) => r.status)).toEqual([true, true, true, false]);
  expect(results![2].logs![0].raw!.topics[2]).toBe(`0x${carol.slice(2).padStart(64, "0")}`);
}, 120_000);

test("contracts.verify: a contract deployed on a vnet is verified, the explorer shows its source, the registry keeps it", async () => {
  const version = solc.version().split("+")[0];
  const input = {
    language: "Solidity",
    sources: { "Counter.sol": { content: COUNTER } },
    settings: { optimizer: { enabled: false, runs: 200 }, outputSelection: { "*": { "*": ["evm.bytecode.object"] } } },
  };
  const compiled = JSON.parse(solc.compile(JSON.stringify(input)));
  const deployer = "0x00000000000000000000000000000000000d0d01";
  await rpc(admin, "tenderly_setBalance", [deployer, "0xde0b6b3a7640000"]);
  const hash = await rpc<string>(admin, "eth_sendTransaction", [
    { from: deployer, data: `0x${compiled.contracts["Counter.sol"].Counter.evm.bytecode.object}` },
  ]);
  const receipt = await rpc<{ contractAddress: string }>(admin, "eth_getTransactionReceipt", [hash]);
  const address = receipt.contractAddress.toLowerCase();
  const verified = await attempt("contracts.verify", () =>
    sdk(CHAIN_ID).contracts.verify(address, {
      config: { mode: "private" },
      contractToVerify: "Counter.sol:Counter",
      solc: {
        version: `v${version}` as never,
        sources: { "Counter.sol": { content: COUNTER } },
        settings: { optimizer: { enabled: false, runs: 200 } },
      },
    }),
  );
  expect(verified).toMatchObject({ address, network: CHAIN_ID });
  const source = await call(service, "GET", `/explorer/${vnet.id}/api?module=contract&action=getsourcecode&address=${address}`);
  expect(source.body.result[0].SourceCode).toContain("contract Counter");
  expect(source.body.result[0].ContractName).toBe("Counter");
  // A source that does not reproduce the code is the SDK's BytecodeMismatchError, not a verification.
  await expect(
    sdk(CHAIN_ID).contracts.verify(address, {
      config: { mode: "public" },
      contractToVerify: "Counter.sol:Counter",
      solc: {
        version: `v${version}` as never,
        sources: { "Counter.sol": { content: COUNTER.replace("+= 1", "+= 2") } },
        settings: { optimizer: { enabled: false, runs: 200 } },
      },
    }),
  ).rejects.toMatchObject({ name: "BytecodeMismatchError" });
  await expect(
    sdk(CHAIN_ID).contracts.verify(address, {
      config: { mode: "public" },
      contractToVerify: "Counter.sol:Counter",
      solc: { version: `v${version}` as never, sources: { "Counter.sol": { content: "contract {" } }, settings: {} },
    }),
  ).rejects.toMatchObject({ name: "CompilationError" });
}, 180_000);
