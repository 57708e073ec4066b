/**
 * Simulations on a real chain with the fixtures of contracts/SimulationProbe.sol: nested CALL/DELEGATECALL trace,
 * decoded ERC-20 Transfer, reverts, block and state overrides, historical blocks, state changes, and nothing kept.
 */
import { decodeEventLog, encodeFunctionData, type Hex } from "./helpers/viem";
import { createAnvilEngine, type JsonRpcResponse } from "../lib/service/chains";
import { ETHER, TestChainHost, artifact, hex } from "./chains-host";

const ALICE = "0x00000000000000000000000000000000000a11ce";
const BOB = "0x0000000000000000000000000000000000000b0b";
const host = new TestChainHost(null);
const engine = createAnvilEngine(host, { idleTimeoutMs: 0 });
const [vnet] = host.createEnvironment([{ networkId: "1", chainId: 31_999, accounts: [{ address: ALICE, balance: hex(1000n * ETHER) }] }]);
const token = artifact("ProbeToken");
const probe = artifact("SimulationProbe");
let tokenAddress: Hex;
let logicAddress: Hex;
let probeAddress: Hex;
let mintBlock: bigint;

async function rpc<T>(method: string, params: unknown[] = []): Promise<T> {
  const answer = (await engine.rpc(vnet.vnetId, { jsonrpc: "2.0", id: 1, method, params }, "admin")) as JsonRpcResponse;
  if ("error" in answer) throw new Error(answer.error.message);
  return answer.result as T;
}

async function deploy(name: string): Promise<Hex> {
  const tx = await engine.sendTransaction(vnet.vnetId, { from: ALICE, data: artifact(name).bytecode });
  return tx.contract_address as Hex;
}

const runCall = (amount: bigint) =>
  encodeFunctionData({ abi: probe.abi, functionName: "run", args: [tokenAddress, logicAddress, BOB, amount] });

beforeAll(async () => {
  tokenAddress = await deploy("ProbeToken");
  logicAddress = await deploy("ProbeLogic");
  probeAddress = await deploy("SimulationProbe");
  const mint = await engine.sendTransaction(vnet.vnetId, {
    from: ALICE,
    to: tokenAddress,
    data: encodeFunctionData({ abi: token.abi, functionName: "mint", args: [probeAddress, 1000n] }),
  });
  mintBlock = BigInt(mint.block_number!);
});
afterAll(() => engine.close());

test("a nested CALL and DELEGATECALL: flattened trace, decoded Transfer, bloom and gas as if mined; nothing kept", async () => {
  const headBefore = await rpc<string>("eth_blockNumber");
  const callArgs = { from: ALICE, to: probeAddress, data: runCall(7n) };
  const sim = await engine.simulateOnVnet(vnet.vnetId, { callArgs });

  expect(sim.status).toBe(true);
  expect(sim.blockNumber).toBe(headBefore);
  expect(sim.type).toBe("0x2");
  expect(sim.trace.map((t) => [t.type, t.traceAddress, t.subtraces, t.from, t.to, t.method])).toEqual([
    ["CALL", [], 2, ALICE, probeAddress, "0x24499bae"],
    ["CALL", [0], 0, probeAddress, tokenAddress, "transfer"],
    ["DELEGATECALL", [1], 0, probeAddress, logicAddress, "0x68110b2f"],
  ]);
  expect(sim.trace[1].decodedInput).toEqual([
    { name: "to", type: "address", value: BOB },
    { name: "value", type: "uint256", value: "7" },
  ]);
  expect(sim.trace[1].decodedOutput).toEqual([{ name: "success", type: "bool", value: true }]);
  expect(sim.logs.map((l) => [l.name, l.raw.address])).toEqual([
    ["Transfer", tokenAddress],
    ["", probeAddress], // ProbeLogic's Bumped, emitted from the probe's address: not a known ABI
  ]);
  expect(sim.logs[0].inputs).toEqual([
    { name: "from", type: "address", value: probeAddress },
    { name: "to", type: "address", value: BOB },
    { name: "value", type: "uint256", value: "7" },
  ]);

  // Nothing was kept...
  expect(await rpc("eth_blockNumber")).toBe(headBefore);
  const balanceOf = encodeFunctionData({ abi: token.abi, functionName: "balanceOf", args: [BOB] });
  expect(BigInt(await rpc<string>("eth_call", [{ to: tokenAddress, data: balanceOf }, "latest"]))).toBe(0n);
  expect(BigInt(await rpc<string>("eth_getStorageAt", [probeAddress, "0x0", "latest"]))).toBe(0n);

  // ...and mining the same transaction gives the same gas, logs and bloom.
  const mined = await engine.sendTransaction(vnet.vnetId, callArgs);
  const receipt = await rpc<{ logsBloom: string; gasUsed: string; logs: { data: string }[] }>("eth_getTransactionReceipt", [mined.tx_hash]);
  expect(sim.gasUsed).toBe(receipt.gasUsed);
  expect(sim.logsBloom).toBe(receipt.logsBloom);
  expect(sim.logs.map((l) => l.raw)).toEqual(mined.logs!.map((l) => l.raw));
});

test("a reverting call has status false, its frame's error kept out of the logs", async () => {
  const sim = await engine.simulateOnVnet(vnet.vnetId, {
    callArgs: { from: ALICE, to: probeAddress, data: encodeFunctionData({ abi: probe.abi, functionName: "fail" }) },
  });
  expect(sim.status).toBe(false);
  expect(sim.logs).toEqual([]);
  expect(sim.trace).toHaveLength(1);
  const tooMuch = await engine.simulateOnVnet(vnet.vnetId, { callArgs: { from: ALICE, to: probeAddress, data: runCall(10n ** 9n) } });
  expect(tooMuch.status).toBe(false);
  expect(tooMuch.logs).toEqual([]);
  expect(tooMuch.trace.map((t) => t.traceAddress)).toEqual([[], [0]]);
});

test("block and state overrides take effect", async () => {
  const observe = encodeFunctionData({ abi: probe.abi, functionName: "observe" });
  const sim = await engine.simulateOnVnet(vnet.vnetId, {
    callArgs: { from: BOB, to: probeAddress, data: observe },
    blockOverrides: { number: "0x5f5e100", timestamp: "0x7fffffff" },
    stateOverrides: { [BOB]: { balance: hex(42n * ETHER) } },
  });
  expect(sim.status).toBe(true);
  expect(sim.blockNumber).toBe("0x5f5e100");
  const event = decodeEventLog({ abi: probe.abi, data: sim.logs[0].raw.data as Hex, topics: sim.logs[0].raw.topics as [Hex] }) as {
    args: unknown;
  };
  expect(event.args).toEqual({ blockNumber: 100_000_000n, timestamp: 0x7fffffffn, senderBalance: 42n * ETHER });
  expect(await rpc("eth_getBalance", [BOB, "latest"])).toBe("0x0");
});

test("blockNumber runs on the state of an earlier block", async () => {
  const before = await engine.simulateOnVnet(vnet.vnetId, {
    callArgs: { from: ALICE, to: probeAddress, data: runCall(1n) },
    blockNumber: hex(mintBlock - 1n),
  });
  expect(before.status).toBe(false); // the probe had no tokens yet
  expect(before.blockNumber).toBe(hex(mintBlock - 1n));
  const after = await engine.simulateOnVnet(vnet.vnetId, {
    callArgs: { from: ALICE, to: probeAddress, data: runCall(1n) },
    blockNumber: hex(mintBlock),
  });
  expect(after.status).toBe(true);
  await expect(
    engine.simulateOnVnet(vnet.vnetId, { callArgs: { from: ALICE, to: probeAddress }, blockNumber: "0xffffff" }),
  ).rejects.toMatchObject({
    status: 400,
    field: "/blockNumber",
  });
});

test("the instance simulation reports state changes", async () => {
  const sim = await engine.simulateOnInstanceVnet(vnet.vnetId, {
    callArgs: { from: ALICE, to: probeAddress, data: runCall(3n), value: "0x0" },
  });
  const counter = BigInt(await rpc<string>("eth_getStorageAt", [probeAddress, "0x0", "latest"]));
  const nonce = BigInt(await rpc<string>("eth_getTransactionCount", [ALICE, "latest"]));
  const byAddress = (a: string) => sim.stateChanges.filter((c) => c.address === a);
  expect(byAddress(ALICE)).toEqual([{ address: ALICE, field: "nonce", previous: hex(nonce), next: hex(nonce + 1n) }]);
  expect(byAddress(probeAddress)).toEqual([
    {
      address: probeAddress,
      field: "storage",
      slot: `0x${"0".repeat(64)}`,
      previous: `0x${counter.toString(16).padStart(64, "0")}`,
      next: `0x${(counter + 1n).toString(16).padStart(64, "0")}`,
    },
  ]);
  expect(byAddress(tokenAddress).map((c) => c.field)).toEqual(["storage", "storage"]); // two balances
  const transfer = await engine.simulateOnInstanceVnet(vnet.vnetId, { callArgs: { from: ALICE, to: BOB, value: hex(ETHER) } });
  expect(transfer.stateChanges.find((c) => c.address === BOB)).toMatchObject({ field: "balance", next: hex(ETHER) });
});

test("simulations and transactions running at once never see each other's state", async () => {
  const observe = encodeFunctionData({ abi: probe.abi, functionName: "observe" });
  const start = BigInt(await rpc<string>("eth_blockNumber"));
  const work = await Promise.all(
    Array.from({ length: 30 }, (_, i) =>
      i % 3 === 0
        ? engine.sendTransaction(vnet.vnetId, { from: ALICE, to: BOB, value: "0x1" })
        : engine.simulateOnVnet(vnet.vnetId, {
            callArgs: { from: BOB, to: probeAddress, data: observe },
            stateOverrides: { [BOB]: { balance: hex(i) } },
          }),
    ),
  );
  const sims = work.filter((w): w is Awaited<ReturnType<typeof engine.simulateOnVnet>> => "trace" in w);
  for (const [i, sim] of sims.entries()) {
    const event = decodeEventLog({ abi: probe.abi, data: sim.logs[0].raw.data as Hex, topics: sim.logs[0].raw.topics as [Hex] }) as {
      args: unknown;
    };
    const expected = [...Array(30).keys()].filter((k) => k % 3 !== 0)[i];
    expect((event.args as { senderBalance: bigint }).senderBalance).toBe(BigInt(expected));
  }
  expect(BigInt(await rpc<string>("eth_blockNumber"))).toBe(start + 10n);
  expect(BigInt(await rpc<string>("eth_getBalance", [BOB, "latest"]))).toBe(10n + 0n);
});

test("project-level simulation runs on a replica of the network: the documented { transaction, simulation, contracts }", async () => {
  // An offline replica is a fresh chain: nobody holds funds there.
  const result = await engine.simulateOnNetwork({ network_id: "137", from: ALICE, to: BOB, value: "0", input: "0x", block_number: 12345 });
  expect(result.simulation).toMatchObject({
    network_id: "137",
    block_number: 12345,
    from: ALICE,
    to: BOB,
    value: "0x0",
    status: true,
    gas_used: 21000,
    logs: [],
  });
  expect(result.simulation.trace).toHaveLength(1);
  expect(result.transaction).toMatchObject({
    network_id: "137",
    from: ALICE,
    to: BOB,
    status: true,
    gas_used: 21000,
    transaction_info: { logs: [] },
  });
  expect(result.transaction.transaction_info.call_trace).toMatchObject({ type: "CALL", from: ALICE, to: BOB, calls: [] });
  expect(result.contracts).toEqual([]);
  // A valid request that cannot run is the spec's 402, naming no field the endpoint lacks.
  const broke = engine.simulateOnNetwork({ network_id: "137", from: ALICE, to: BOB, value: "1000" });
  await expect(broke).rejects.toMatchObject({ status: 402 });
  await expect(broke).rejects.toMatchObject({ field: undefined, message: expect.stringMatching(/fund/i) });
  await expect(engine.simulateOnNetwork({ network_id: "main", from: ALICE })).rejects.toMatchObject({ status: 400, field: "/network_id" });
});

test("project simulation: every field optional (network 1, the zero address); access_list applied; generate_access_list returned", async () => {
  const bare = await engine.simulateOnNetwork({});
  expect(bare.simulation).toMatchObject({ network_id: "1", from: "0x0000000000000000000000000000000000000000", status: true });
  const plain = await engine.simulateOnNetwork({ network_id: "137", from: ALICE, to: BOB });
  const listed = await engine.simulateOnNetwork({
    network_id: "137",
    from: ALICE,
    to: BOB,
    access_list: [{ address: BOB, storage_keys: [`0x${"0".repeat(64)}`] }],
  });
  // EIP-2930: 2400 gas per address and 1900 per storage key, paid up front.
  expect(listed.simulation.gas_used - plain.simulation.gas_used).toBe(2400 + 1900);
  expect(listed.transaction.access_list).toEqual([{ address: BOB, storage_keys: [`0x${"0".repeat(64)}`] }]);
  const generated = await engine.simulateOnNetwork({ network_id: "137", from: ALICE, to: tokenAddress, generate_access_list: true });
  expect(Array.isArray(generated.generatedAccessList)).toBe(true);
  expect(plain.generatedAccessList).toBeUndefined();
});

test("project simulation at a transaction_index runs after the block's earlier transactions, not after the whole block", async () => {
  const FRESH = "0x00000000000000000000000000000000000f4e55";
  // Put two transactions in one block of the replica: ALICE pays FRESH 0.5 ether, twice.
  const replicas = (
    engine as unknown as {
      replicas: {
        pool: {
          use<T>(
            key: string,
            mode: "exclusive",
            work: (node: { rpc: { request<R>(m: string, p?: unknown[]): Promise<R> } }) => Promise<T>,
          ): Promise<T>;
        };
      };
    }
  ).replicas.pool;
  const block = await replicas.use("10", "exclusive", async (node) => {
    const call = <R>(method: string, params: unknown[] = []) => node.rpc.request<R>(method, params);
    await call("anvil_setBalance", [ALICE, "0x1bc16d674ec80000"]);
    await call("anvil_autoImpersonateAccount", [true]);
    await call("evm_setAutomine", [false]);
    await call("eth_sendTransaction", [{ from: ALICE, to: FRESH, value: "0x6f05b59d3b20000", gas: "0x5208" }]);
    await call("eth_sendTransaction", [{ from: ALICE, to: FRESH, value: "0x6f05b59d3b20000", gas: "0x5208" }]);
    await call("evm_mine");
    await call("evm_setAutomine", [true]);
    return Number(BigInt(await call<string>("eth_blockNumber")));
  });
  // FRESH pays 0.7 ether: it holds nothing at index 0, 0.5 ether at index 1, 1 ether at index 2 (the block's end).
  const pay = { network_id: "10", from: FRESH, to: BOB, value: "0x9b6e64a8ec60000", block_number: block };
  await expect(engine.simulateOnNetwork({ ...pay, transaction_index: 0 })).rejects.toMatchObject({ status: 402 });
  await expect(engine.simulateOnNetwork({ ...pay, transaction_index: 1 })).rejects.toMatchObject({ status: 402 });
  expect((await engine.simulateOnNetwork({ ...pay, transaction_index: 2 })).transaction).toMatchObject({
    status: true,
    transaction_index: 2,
  });
  expect((await engine.simulateOnNetwork(pay)).simulation.status).toBe(true);
  await expect(engine.simulateOnNetwork({ ...pay, transaction_index: 3 })).rejects.toMatchObject({
    status: 400,
    field: "/transaction_index",
  });
});
