/**
 * The environment bridge between two vnets: autoRelay pays out before the deposit call returns; delayedRelay
 * waits its delay, and a relay still pending when the service stops is made by the next one.
 */
import { rmSync } from "node:fs";
import { encodeFunctionData, type Hex } from "./helpers/viem";
import { createAnvilEngine, type JsonRpcResponse, type VnetChainSpec } from "../lib/service/chains";
import { BRIDGE_ADDRESS } from "../lib/domain/bridge-contract";
import { ETHER, TestChainHost, artifact, hex, temporaryDataDir, waitFor } from "./chains-host";

const ALICE = "0x00000000000000000000000000000000000a11ce";
const RECIPIENT = "0x000000000000000000000000000000000000beef";
const bridge = artifact("ChainformBridge");

function twoNetworks(host: TestChainHost, relayMode: "autoRelay" | "delayedRelay", delaySeconds: number): VnetChainSpec[] {
  return host.createEnvironment(
    [
      { networkId: "1", chainId: 7001, accounts: [{ address: ALICE, balance: hex(10n * ETHER) }] },
      { networkId: "8453", chainId: 7002 },
    ],
    { relayMode, delaySeconds },
  );
}

async function balance(engine: ReturnType<typeof createAnvilEngine>, vnetId: string, address: string): Promise<bigint> {
  const answer = (await engine.rpc(
    vnetId,
    { jsonrpc: "2.0", id: 1, method: "eth_getBalance", params: [address, "latest"] },
    "public",
  )) as JsonRpcResponse;
  if ("error" in answer) throw new Error(answer.error.message);
  return BigInt(answer.result as string);
}

const deposit = (destinationChainId: number) =>
  encodeFunctionData({ abi: bridge.abi, functionName: "deposit", args: [BigInt(destinationChainId), RECIPIENT as Hex] });

test("autoRelay: a deposit on one vnet is paid out on the other before the call returns, recorded as bridge", async () => {
  const host = new TestChainHost(null);
  const engine = createAnvilEngine(host);
  const [source, destination] = twoNetworks(host, "autoRelay", 0);
  try {
    const code = (await engine.rpc(
      destination.vnetId,
      { jsonrpc: "2.0", id: 1, method: "eth_getCode", params: [BRIDGE_ADDRESS, "latest"] },
      "public",
    )) as JsonRpcResponse;
    expect("result" in code && code.result).toBe(bridge.deployedBytecode);
    const tx = await engine.sendTransaction(source.vnetId, {
      from: ALICE,
      to: BRIDGE_ADDRESS,
      value: hex(2n * ETHER),
      data: deposit(7002),
    });
    expect(tx.status).toBe("success");
    expect(tx.logs![0]).toMatchObject({ name: "Deposited" });
    expect(await balance(engine, destination.vnetId, RECIPIENT)).toBe(2n * ETHER);
    const relays = host.transactions(destination.vnetId).filter((t) => t.origin === "bridge");
    expect(relays).toHaveLength(1);
    expect(relays[0]).toMatchObject({ to: BRIDGE_ADDRESS, status: "success", logs: [expect.objectContaining({ name: "Relayed" })] });
    expect(relays[0].logs![0].inputs.find((i) => i.name === "recipient")?.value).toBe(RECIPIENT);

    // A deposit through the Admin RPC is relayed too; one to a chain outside the environment stays locked.
    await engine.rpc(
      source.vnetId,
      {
        jsonrpc: "2.0",
        id: 2,
        method: "eth_sendTransaction",
        params: [{ from: ALICE, to: BRIDGE_ADDRESS, value: hex(ETHER), data: deposit(7002) }],
      },
      "admin",
    );
    expect(await balance(engine, destination.vnetId, RECIPIENT)).toBe(3n * ETHER);
    await engine.sendTransaction(source.vnetId, { from: ALICE, to: BRIDGE_ADDRESS, value: hex(ETHER), data: deposit(999) });
    expect(host.transactions(destination.vnetId).filter((t) => t.origin === "bridge")).toHaveLength(2);
  } finally {
    await engine.close();
  }
});

test("delayedRelay: the relay waits its delay, and survives a restart of the service", async () => {
  const dataDir = temporaryDataDir();
  const host = new TestChainHost(dataDir);
  const [source, destination] = twoNetworks(host, "delayedRelay", 2);
  const first = createAnvilEngine(host);
  const depositedAt = Date.now();
  await first.sendTransaction(source.vnetId, { from: ALICE, to: BRIDGE_ADDRESS, value: hex(ETHER), data: deposit(7002) });
  expect(await balance(first, destination.vnetId, RECIPIENT)).toBe(0n);
  await first.close(); // the service stops with the relay pending

  const pending = host.db.prepare("SELECT status, due_at FROM chain_bridge_relays").all() as { status: string; due_at: number }[];
  expect(pending).toEqual([{ status: "pending", due_at: expect.any(Number) }]);
  expect(pending[0].due_at - depositedAt).toBeGreaterThanOrEqual(2000);

  const second = createAnvilEngine(host);
  try {
    const relayed = () => host.transactions(destination.vnetId).filter((t) => t.origin === "bridge");
    await waitFor(() => relayed().length === 1, 50_000, "the delayed relay"); // a bound for a hang, not a timing check
    expect(Date.parse(relayed()[0].created_at)).toBeGreaterThanOrEqual(pending[0].due_at);
    expect(await balance(second, destination.vnetId, RECIPIENT)).toBe(ETHER);
    expect(host.db.prepare("SELECT status FROM chain_bridge_relays").all()).toEqual([{ status: "relayed" }]);
  } finally {
    await second.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test("a relay is a journaled write: kill -9 of both chains after an autoRelay deposit loses neither the deposit nor the payout", async () => {
  const dataDir = temporaryDataDir();
  const host = new TestChainHost(dataDir);
  const engine = createAnvilEngine(host);
  const [source, destination] = twoNetworks(host, "autoRelay", 0);
  try {
    await engine.sendTransaction(source.vnetId, { from: ALICE, to: BRIDGE_ADDRESS, value: hex(3n * ETHER), data: deposit(7002) });
    expect(await balance(engine, destination.vnetId, RECIPIENT)).toBe(3n * ETHER);
    const relay = host.transactions(destination.vnetId).find((t) => t.origin === "bridge")!;
    for (const vnetId of [source.vnetId, destination.vnetId]) {
      const node = engine.runningNode(vnetId)!;
      process.kill(node.pids[1], "SIGKILL");
      await node.exited;
    }
    // Started again from their saved states with their journals applied again: the deposit and its payout.
    expect(await balance(engine, destination.vnetId, RECIPIENT)).toBe(3n * ETHER);
    expect(await balance(engine, source.vnetId, BRIDGE_ADDRESS)).toBeGreaterThanOrEqual(3n * ETHER);
    const onChain = (await engine.rpc(
      destination.vnetId,
      { jsonrpc: "2.0", id: 1, method: "eth_getTransactionByHash", params: [relay.tx_hash] },
      "public",
    )) as JsonRpcResponse;
    // In the block its record names (a record made before its block was sealed names no hash: then by number).
    expect("result" in onChain && onChain.result).toMatchObject({
      hash: relay.tx_hash,
      blockNumber: relay.block_number,
      ...(relay.block_hash ? { blockHash: relay.block_hash } : {}),
    });
  } finally {
    await engine.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}, 60_000);
