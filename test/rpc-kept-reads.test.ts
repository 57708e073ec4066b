/**
 * Reads of a mined block answered without the chain (lib/service/chains/wire/immutable-reads.ts): a second
 * `eth_getBalance [address, "0x…"]` through an RPC URL is answered from what the first one got, byte for byte what
 * anvil's HTTP port answers, and never after the state it read changed: a cheat on the head, a revert to a snapshot
 * and a new block in its place, a reset. Each case compares with anvil's own HTTP port asked the same at once.
 */
import type { Environment } from "../lib/api";
import type { BackendChainEngine } from "../lib/service/chains/engine";
import { startTestService, type TestService } from "./helpers/service";
import { call } from "./helpers/http";
import { privateKeyToAccount } from "./helpers/viem";

const ADDRESS = "0x000000000000000000000000000000000000beef";
const OTHER = "0x00000000000000000000000000000000000c0de0";

let service: TestService;
let environment: Environment;
let anvilUrl: string;
let vnetId: string;
const urlOf = (name: string) => environment.active_instance.vnets[0].rpcs.find((r) => r.name === name)!.url;

/** The exact text of the answer to `body`. */
async function post(url: string, body: unknown): Promise<string> {
  const response = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  expect(response.status).toBe(200);
  return response.text();
}
const req = (id: unknown, method: string, params: unknown[]) => ({ jsonrpc: "2.0", id, method, params });
/** A call through the Admin RPC whose answer must be a result. */
async function admin(method: string, params: unknown[]): Promise<unknown> {
  const answer = JSON.parse(await post(urlOf("Admin RPC"), req(1, method, params)));
  if (!("result" in answer)) throw new Error(`${method}: ${JSON.stringify(answer)}`);
  return answer.result;
}
const head = async () => (JSON.parse(await post(anvilUrl, req(1, "eth_blockNumber", []))) as { result: string }).result;

/** The same call through the Public RPC URL (twice: the second may be a kept answer) and anvil's HTTP port: all equal. */
async function expectAnvils(id: unknown, method: string, params: unknown[]): Promise<string> {
  const anvil = await post(anvilUrl, req(id, method, params));
  expect(await post(urlOf("Public RPC"), req(id, method, params))).toBe(anvil);
  expect(await post(urlOf("Public RPC"), req(id, method, params))).toBe(anvil);
  return anvil;
}

beforeAll(async () => {
  service = await startTestService();
  environment = (
    await call(service, "POST", "/public/v1/account/acme/project/demo/environments", {
      as: "alice",
      body: { display_name: "kept reads", network_configs: [{ network_id: "1", chain_config_overrides: { chain_id: "7042" } }] },
    })
  ).body;
  vnetId = environment.active_instance.vnets[0].id;
  await admin("anvil_setBalance", [ADDRESS, "0x10"]);
  await admin("evm_mine", []);
  anvilUrl = (service.app.service.engine as BackendChainEngine).runningNode(vnetId)!.rpc.url;
});
afterAll(() => service?.close());

test("a read of a mined block comes back as anvil's bytes, with each caller's id, and is kept", async () => {
  const block = await head();
  const calls: [string, unknown[]][] = [
    ["eth_getBalance", [ADDRESS, block]],
    ["eth_getTransactionCount", [ADDRESS, block]],
    ["eth_getCode", [ADDRESS, block]],
    ["eth_getAccountInfo", [ADDRESS, block]],
    ["eth_getStorageAt", [ADDRESS, "0x0", block]],
  ];
  for (const [method, params] of calls) {
    for (const id of [7, 0, "an id", 2 ** 40]) await expectAnvils(id, method, params);
  }
  const node = (service.app.service.engine as BackendChainEngine).runningNode(vnetId)!;
  expect(node.rpc.reads.answer(node.rpc.reads.keyOf(req(3, "eth_getBalance", [ADDRESS, block]))!, 3)?.toString()).toBe(
    await post(anvilUrl, req(3, "eth_getBalance", [ADDRESS, block])),
  );
});

test("reads not kept: a tag, a block not mined yet (an error), an id the chain may write otherwise", async () => {
  const node = (service.app.service.engine as BackendChainEngine).runningNode(vnetId)!;
  expect(node.rpc.reads.keyOf(req(1, "eth_getBalance", [ADDRESS, "latest"]))).toBeNull();
  expect(node.rpc.reads.keyOf(req("a\u00e9", "eth_getBalance", [ADDRESS, "0x1"]))).toBeNull();
  const future = `0x${(BigInt(await head()) + 1000n).toString(16)}`;
  await expectAnvils(9, "eth_getBalance", [ADDRESS, future]);
  expect(node.rpc.reads.answer(node.rpc.reads.keyOf(req(9, "eth_getBalance", [ADDRESS, future]))!, 9)).toBeUndefined();
});

test("a cheat on the head changes what a read of the head's number answers", async () => {
  const block = await head();
  const before = await expectAnvils(1, "eth_getBalance", [OTHER, block]);
  await admin("anvil_setBalance", [OTHER, "0x1234"]);
  const after = await expectAnvils(1, "eth_getBalance", [OTHER, block]);
  expect(after).not.toBe(before);
  expect(JSON.parse(after).result).toBe("0x1234");
});

test("a revert and a new block in the place of the one read: the new block's state", async () => {
  const snapshot = await admin("evm_snapshot", []);
  await admin("anvil_setBalance", [OTHER, "0x5555"]);
  await admin("evm_mine", []);
  const block = await head();
  const reverted = await expectAnvils(2, "eth_getBalance", [OTHER, block]);
  expect(JSON.parse(reverted).result).toBe("0x5555");
  await admin("evm_revert", [snapshot]);
  await admin("anvil_setBalance", [OTHER, "0x6666"]);
  await admin("evm_mine", []);
  expect(await head()).toBe(block);
  const now = await expectAnvils(2, "eth_getBalance", [OTHER, block]);
  expect(JSON.parse(now).result).toBe("0x6666");
});

test("a transaction mined and a storage write on the head: slot and nonce read again", async () => {
  const block = await head();
  await expectAnvils(4, "eth_getStorageAt", [OTHER, "0x1", block]);
  await admin("anvil_setStorageAt", [OTHER, "0x1", `0x${"ab".repeat(32)}`]);
  const slot = await expectAnvils(4, "eth_getStorageAt", [OTHER, "0x1", block]);
  expect(JSON.parse(slot).result).toBe(`0x${"ab".repeat(32)}`);
  await expectAnvils(5, "eth_getTransactionCount", [ADDRESS, block]);
  await admin("anvil_setNonce", [ADDRESS, "0x9"]);
  expect(JSON.parse(await expectAnvils(5, "eth_getTransactionCount", [ADDRESS, block])).result).toBe("0x9");
});

test("a send's receipt, read by the service as it journaled the send, answers the sender's ask as anvil does", async () => {
  const key = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";
  const account = privateKeyToAccount(key);
  await admin("anvil_setBalance", [account.address, "0x56bc75e2d63100000"]);
  const nonce = Number(JSON.parse(await post(anvilUrl, req(1, "eth_getTransactionCount", [account.address, "latest"]))).result);
  const signed = await account.signTransaction({
    chainId: 7042,
    type: "eip1559",
    nonce,
    gas: 21_000n,
    maxFeePerGas: 10n ** 11n,
    maxPriorityFeePerGas: 1n,
    to: OTHER,
    value: 5n,
  });
  const hash = JSON.parse(await post(urlOf("Public RPC"), req(1, "eth_sendRawTransaction", [signed]))).result as string;
  const node = (service.app.service.engine as BackendChainEngine).runningNode(vnetId)!;
  expect(node.rpc.reads.answer(node.rpc.reads.keyOf(req(6, "eth_getTransactionReceipt", [hash]))!, 6)?.toString()).toBe(
    await post(anvilUrl, req(6, "eth_getTransactionReceipt", [hash])),
  );
  await expectAnvils(6, "eth_getTransactionReceipt", [hash]);
  // Not mined: null, never kept.
  const unknown = `0x${"12".repeat(32)}`;
  expect(JSON.parse(await expectAnvils(8, "eth_getTransactionReceipt", [unknown])).result).toBeNull();
  expect(node.rpc.reads.answer(node.rpc.reads.keyOf(req(8, "eth_getTransactionReceipt", [unknown]))!, 8)).toBeUndefined();
});

test("a reverted chain forgets the receipts it kept", async () => {
  await admin("anvil_setBalance", [ADDRESS, "0x56bc75e2d63100000"]);
  const snapshot = await admin("evm_snapshot", []);
  const hash = (await admin("eth_sendTransaction", [{ from: ADDRESS, to: OTHER, value: "0x1" }])) as string;
  const mined = await expectAnvils(10, "eth_getTransactionReceipt", [hash]);
  expect(JSON.parse(mined).result).not.toBeNull();
  await admin("evm_revert", [snapshot]);
  expect(JSON.parse(await expectAnvils(10, "eth_getTransactionReceipt", [hash])).result).toBeNull();
});
