/**
 * A forked environment carried as a fixture: exported live from a service forking an upstream, and imported into a
 * service forking the same upstream (where it takes writes and mines), into an `offline` service on another data dir
 * once the upstream is gone, and into a service started with no flags: the fixture brings the recordings its fork
 * reads and what its creation recorded for building blocks, so the imported environment answers the same reads,
 * keeps its local changes, and takes transactions, a deploy and cheatcodes and mines blocks with the same results as
 * a copy beside the upstream. No upstream URL (nor the API key in it) is in the file.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BLOCK_INPUTS_MARK, HISTORY_CONTRACT, ringDumpCall } from "../lib/service/chains/fork/block-inputs";
import { callKey } from "../lib/service/chains/fork";
import { readFixture } from "../lib/service/environment-files";
import { call, rpc, adminRpc } from "./helpers/http";
import { ALICE, BOB, TOKEN, UPSTREAM_SECRET, startForkUpstream, type ForkUpstream } from "./helpers/fork-upstream";
import { startTestService, type TestService } from "./helpers/service";
import { ENVIRONMENTS, exportFixture, importFixture, type CreatedEnvironment } from "./helpers/fixtures";
import { encodeDeployData, encodeFunctionData } from "./helpers/viem";

jest.setTimeout(240_000);

const CAROL = "0x00000000000000000000000000000000000ca201";

let upstream: ForkUpstream;
let root: string;
/** The fixture the first test exported, for the second. */
let exported: Buffer | undefined;
/** What the workload saw on a copy imported beside the upstream, for the second test to compare. */
let liveResults: WorkloadResults | undefined;
const running: TestService[] = [];

beforeAll(async () => {
  upstream = await startForkUpstream();
  root = mkdtempSync(join(tmpdir(), "chainform-fixture-fork-"));
});

afterAll(async () => {
  for (const service of running) await service.close();
  await upstream?.close();
  rmSync(root, { recursive: true, force: true });
});

const balanceOf = async (url: string, holder: string) =>
  BigInt(
    await rpc<string>(url, "eth_call", [
      { to: upstream.history.token, data: encodeFunctionData({ abi: TOKEN.abi, functionName: "balanceOf", args: [holder] }) },
      "latest",
    ]),
  );

const transfer = (url: string, from: string, to: string, amount: bigint) =>
  rpc<{ status: string }>(url, "eth_sendTransactionSync", [
    { from, to: upstream.history.token, data: encodeFunctionData({ abi: TOKEN.abi, functionName: "transfer", args: [to, amount] }) },
  ]);

/** What the workload's writes left: the same on every copy of the same fixture. */
interface WorkloadResults {
  readonly transferStatus: string;
  readonly carolWei: bigint;
  readonly deployStatus: string;
  readonly deployed: string;
  readonly deployedSupply: bigint;
  readonly tokenTransferStatus: string;
  readonly tokens: { readonly alice: bigint; readonly bob: bigint; readonly carol: bigint };
  readonly minedBlocks: bigint;
  readonly movedSeconds: boolean;
  readonly revertedTo: bigint;
  readonly aliceNonce: string;
  /** The hash of the block before the fork point, as the EIP-2935 history contract answers it after the new blocks. */
  readonly parentHash: string;
}

/**
 * Writes on a copy of the fork: cheatcodes (ether and an ERC-20 balance set, time moved, a snapshot reverted), a value
 * transfer, a contract deployed and called, a transfer of the upstream's token, and 20 blocks mined.
 */
async function workload(url: string): Promise<WorkloadResults> {
  const start = BigInt(await rpc<string>(url, "eth_blockNumber"));
  await rpc(url, "tenderly_setBalance", [ALICE, "0x8ac7230489e80000"]);
  await rpc(url, "tenderly_setErc20Balance", [upstream.history.token, BOB, "0x3e8"]);
  const sent = await rpc<{ status: string }>(url, "eth_sendTransactionSync", [{ from: ALICE, to: CAROL, value: "0xde0b6b3a7640000" }]);
  const deployed = await rpc<{ status: string; contractAddress: string }>(url, "eth_sendTransactionSync", [
    { from: ALICE, data: encodeDeployData({ abi: TOKEN.abi, bytecode: TOKEN.bytecode, args: ["Imported", "IMP", 18, 1000n] }) },
  ]);
  const deployedSupply = BigInt(
    await rpc<string>(url, "eth_call", [
      { to: deployed.contractAddress, data: encodeFunctionData({ abi: TOKEN.abi, functionName: "totalSupply", args: [] }) },
      "latest",
    ]),
  );
  const tokenTransfer = await transfer(url, ALICE, BOB, 3n);
  await rpc(url, "anvil_mine", ["0x14"]);
  const minedBlocks = BigInt(await rpc<string>(url, "eth_blockNumber")) - start;
  const before = BigInt((await rpc<{ timestamp: string }>(url, "eth_getBlockByNumber", ["latest", false])).timestamp);
  await rpc(url, "evm_increaseTime", ["0x15180"]);
  await rpc(url, "evm_mine");
  const after = BigInt((await rpc<{ timestamp: string }>(url, "eth_getBlockByNumber", ["latest", false])).timestamp);
  const snapshot = await rpc<string>(url, "evm_snapshot");
  const snapshotHead = BigInt(await rpc<string>(url, "eth_blockNumber"));
  await transfer(url, ALICE, CAROL, 7n);
  await rpc(url, "anvil_mine", ["0x3"]);
  expect(await rpc(url, "evm_revert", [snapshot])).toBe(true);
  return {
    transferStatus: sent.status,
    carolWei: BigInt(await rpc<string>(url, "eth_getBalance", [CAROL, "latest"])),
    deployStatus: deployed.status,
    deployed: deployed.contractAddress,
    deployedSupply,
    tokenTransferStatus: tokenTransfer.status,
    tokens: { alice: await balanceOf(url, ALICE), bob: await balanceOf(url, BOB), carol: await balanceOf(url, CAROL) },
    minedBlocks,
    movedSeconds: after - before >= 86_400n,
    revertedTo: BigInt(await rpc<string>(url, "eth_blockNumber")) - snapshotHead,
    aliceNonce: await rpc<string>(url, "eth_getTransactionCount", [ALICE, "latest"]),
    parentHash: await rpc<string>(url, "eth_call", [
      { from: CAROL, to: HISTORY_CONTRACT, data: `0x${(upstream.history.aliceFunded - 1n).toString(16).padStart(64, "0")}` },
      "latest",
    ]),
  };
}

test("a fork exported live imports elsewhere and takes writes; offline, with the upstream gone, it answers from the recordings it brought", async () => {
  const live = await startTestService({ dataDir: join(root, "live"), forkUrls: { "1": upstream.url } });
  running.push(live);
  const created = await call(live, "POST", ENVIRONMENTS, {
    as: "alice",
    body: {
      display_name: "Forked",
      network_configs: [{ network_id: "1", block_number: `0x${upstream.history.aliceFunded.toString(16)}` }],
    },
  });
  expect(created.status).toBe(200);
  const environment = created.body as CreatedEnvironment;
  const url = adminRpc(environment, 0);
  // Local changes on top of the upstream: an ERC-20 balance set, ether given, a transfer mined.
  expect(await rpc(url, "tenderly_setErc20Balance", [upstream.history.token, CAROL, "0x2a"])).toBeNull();
  await rpc(url, "tenderly_setBalance", [ALICE, "0xde0b6b3a7640000"]);
  expect((await transfer(url, ALICE, CAROL, 5n)).status).toBe("0x1");
  const facts = async (at: string) => ({
    carol: await balanceOf(at, CAROL),
    alice: await balanceOf(at, ALICE),
    bob: await balanceOf(at, BOB),
    code: await rpc(at, "eth_getCode", [upstream.history.token, "latest"]),
    block: await rpc(at, "eth_blockNumber"),
    chainId: await rpc(at, "eth_chainId"),
    nonce: await rpc(at, "eth_getTransactionCount", [ALICE, "latest"]),
  });
  const before = await facts(url);
  expect([before.carol, before.alice]).toEqual([47n, 95n]);

  const file = await exportFixture(live, environment.id);
  exported = file;
  // Imported into another service that forks the same upstream: the copy takes writes and mines blocks.
  const other = await startTestService({ dataDir: join(root, "other"), forkUrls: { "1": upstream.url } });
  running.push(other);
  const second = await importFixture(other, file);
  expect([second.status, second.body?.error?.message]).toEqual([201, undefined]);
  const secondUrl = adminRpc(second.body as CreatedEnvironment, 0);
  expect(await facts(secondUrl)).toEqual(before);
  expect((await transfer(secondUrl, ALICE, CAROL, 1n)).status).toBe("0x1");
  await rpc(secondUrl, "evm_mine");
  expect(await balanceOf(secondUrl, CAROL)).toBe(48n);
  expect(BigInt(await rpc<string>(secondUrl, "eth_blockNumber"))).toBe(BigInt(before.block as string) + 2n);
  expect(await balanceOf(url, CAROL)).toBe(47n);
  // The writes the offline copy takes in the next test, on another copy beside the upstream, for their results.
  const third = await importFixture(other, file, { slug: "forked-workload" });
  expect([third.status, third.body?.error?.message]).toEqual([201, undefined]);
  liveResults = await workload(adminRpc(third.body as CreatedEnvironment, 0));
  expect(liveResults).toMatchObject({
    transferStatus: "0x1",
    carolWei: 10n ** 18n,
    deployStatus: "0x1",
    deployedSupply: 1000n,
    tokenTransferStatus: "0x1",
    tokens: { alice: 92n, bob: 1003n, carol: 47n },
    minedBlocks: 23n,
    parentHash: (
      await rpc<{ hash: string }>(upstream.url, "eth_getBlockByNumber", [`0x${(upstream.history.aliceFunded - 1n).toString(16)}`, false])
    ).hash,
    movedSeconds: true,
    revertedTo: 0n,
  });

  await upstream.close();
  const content = readFixture(file, "fork");
  expect(content.vnets[0].forked).toBe(true);
  expect(content.recordings).toHaveLength(1);
  // With what the fork's creation recorded for building blocks: the mark of those inputs and the EIP-2935 ring whole.
  const dump = ringDumpCall(upstream.history.aliceFunded);
  expect(Object.keys(content.recordings[0].answers)).toEqual(
    expect.arrayContaining([`chainform:${BLOCK_INPUTS_MARK}`, callKey(dump.method, dump.params)]),
  );
  const everything = JSON.stringify({ ...content, vnets: content.vnets.map((v) => ({ ...v, state: v.state.toString("utf8") })) });
  expect(everything).not.toContain(UPSTREAM_SECRET);
  expect(everything).not.toContain(upstream.url);

  // Imported into an offline service on a data dir of its own, the upstream gone: the same reads and local changes,
  // from the recordings the fixture brought.
  const offline = await startTestService({ dataDir: join(root, "offline"), offline: true });
  running.push(offline);
  const imported = await importFixture(offline, file);
  expect([imported.status, imported.body?.error?.message]).toEqual([201, undefined]);
  const copy = adminRpc(imported.body as CreatedEnvironment, 0);
  expect(await facts(copy)).toEqual(before);
  // Writes on what the original read: a cheatcode, a transaction and blocks mined, with no upstream.
  await rpc(copy, "tenderly_setErc20Balance", [upstream.history.token, CAROL, "0x64"]);
  expect(await balanceOf(copy, CAROL)).toBe(100n);
  expect((await transfer(copy, ALICE, CAROL, 5n)).status).toBe("0x1");
  await rpc(copy, "anvil_mine", ["0x14"]);
  expect(BigInt(await rpc<string>(copy, "eth_blockNumber"))).toBe(BigInt(before.block as string) + 21n);
  expect([await balanceOf(copy, CAROL), await balanceOf(copy, ALICE)]).toEqual([105n, 90n]);
  // A deploy (a new address) or ether sent to an account the original never read reads what nobody recorded: a named
  // error, unless the service reads such accounts as empty (--offline-empty-accounts, as the next test runs).
  const deploy = encodeDeployData({ abi: TOKEN.abi, bytecode: TOKEN.bytecode, args: ["Imported", "IMP", 18, 1000n] });
  await expect(rpc(copy, "eth_estimateGas", [{ from: ALICE, data: deploy }])).rejects.toThrow(
    /never recorded: eth_get\w+ of account 0x[0-9a-f]{40} at block \d+ of network 1; the service is offline/,
  );
});

// The fixture carries the block inputs its fork's live creation recorded (the EIP-2935 ring, the system contracts, the
// coinbase, the fee history, the blocks BLOCKHASH reaches: docs/forking.md "Offline forks that mine"), so the imported
// fork mines offline: the same writes give the same results there as on a copy imported beside its upstream. The
// deploy and the ether sent to a fresh account read accounts nobody recorded, which --offline-empty-accounts reads as
// empty (as a test suite that makes new accounts runs offline: docs/forking.md).
test("offline, the imported fork takes transactions (a transfer, a deploy) and cheatcodes, and mines 20 blocks, with the same results as a live import", async () => {
  expect(exported).toBeDefined();
  expect(liveResults).toBeDefined();
  const offline = await startTestService({ dataDir: join(root, "offline-mining"), offline: true, offlineEmptyAccounts: true });
  running.push(offline);
  const imported = await importFixture(offline, exported!);
  expect([imported.status, imported.body?.error?.message]).toEqual([201, undefined]);
  const copy = adminRpc(imported.body as CreatedEnvironment, 0);
  expect(await workload(copy)).toEqual(liveResults);
  // And it goes on: a transaction after the 20 blocks is mined in the next one.
  const head = BigInt(await rpc<string>(copy, "eth_blockNumber"));
  expect((await transfer(copy, ALICE, CAROL, 1n)).status).toBe("0x1");
  expect(BigInt(await rpc<string>(copy, "eth_blockNumber"))).toBe(head + 1n);
});

// A colleague's service, started with no flags at all (no --fork, no --offline): the imported fork is served from the
// recordings it brought, and mines.
test("a service with no upstream and no --offline serves the imported fork from its recordings, and mines", async () => {
  expect(exported).toBeDefined();
  const plain = await startTestService({ dataDir: join(root, "plain") });
  running.push(plain);
  const imported = await importFixture(plain, exported!);
  expect([imported.status, imported.body?.error?.message]).toEqual([201, undefined]);
  const copy = adminRpc(imported.body as CreatedEnvironment, 0);
  const head = BigInt(await rpc<string>(copy, "eth_blockNumber"));
  expect([await balanceOf(copy, CAROL), await balanceOf(copy, ALICE)]).toEqual([47n, 95n]);
  expect((await transfer(copy, ALICE, CAROL, 5n)).status).toBe("0x1");
  await rpc(copy, "anvil_mine", ["0x14"]);
  expect(BigInt(await rpc<string>(copy, "eth_blockNumber"))).toBe(head + 21n);
  expect([await balanceOf(copy, CAROL), await balanceOf(copy, ALICE)]).toEqual([52n, 90n]);
  // A read nobody recorded names why only recordings are served.
  await expect(rpc(copy, "eth_getBalance", ["0x00000000000000000000000000000000000fe5a1", "latest"])).rejects.toThrow(
    /never recorded: eth_get\w+ of account .* no upstream is configured for network 1/,
  );
});
