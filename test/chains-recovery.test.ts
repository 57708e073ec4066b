/**
 * A chain that dies under the service loses nothing it acknowledged (docs/chain-state.md "What survives what"), and a
 * wedged chain holds nobody: real anvil, through the service over HTTP (the RPC URLs and the API).
 * - 20 `kill -9` of a vnet's anvil at random points of a write workload (Admin RPC sends and `tenderly_setBalance`,
 *   API sends, mined blocks, moved time): after each, every acknowledged write is on the chain, and every record's
 *   change too (its transaction in the block it names, with that block's hash; a cheatcode's balance).
 * - A stopped anvil (`SIGSTOP`): a call errors at the deadline naming it, the chain is killed and starts again with its
 *   writes, and deleting the environment and closing the service finish.
 */
import { readFileSync, readdirSync, rmSync } from "node:fs";
import type { BackendChainEngine } from "../lib/service/chains";
import type { Environment, Transaction } from "../lib/api";
import { processAlive, temporaryDataDir } from "./chains-host";
import { startTestService, type TestService } from "./helpers/service";

const FUNDED = "0x00000000000000000000000000000000000f00d5";
/** The deadline of the service under test: short, so that the SIGSTOP test waits little; generous for a loaded CI. */
const RPC_TIMEOUT_MS = 3_000;

const dataDir = temporaryDataDir();
let service: TestService;
let environment: Environment;

const api = (path: string) => `${service.baseUrl}/public/v1/account/${service.accountSlug}/project/${service.projectSlug}${path}`;
const instancePath = () => `/environments/${environment.id}/instance/${environment.active_instance.id}`;
const vnetId = () => environment.active_instance.vnets[0].id;
const adminUrl = () => environment.active_instance.vnets[0].rpcs.find((r) => r.name === "Admin RPC")!.url;
const engine = () => service.app.service.engine as BackendChainEngine;

async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(api(path), {
    method,
    headers: { ...service.headersOf("alice"), ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

/** One JSON-RPC call through the Admin RPC URL: its result, or throws with its error. */
async function rpc<T = unknown>(method: string, params: unknown[] = []): Promise<T> {
  const response = await fetch(adminUrl(), {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  const answer = (await response.json()) as { result?: T; error?: { message: string } };
  if (answer.error || response.status !== 200) throw new Error(`${method}: ${response.status} ${answer.error?.message}`);
  return answer.result as T;
}

const hex = (n: bigint | number) => `0x${BigInt(n).toString(16)}`;
const addressOf = (run: number, write: number) => `0x${(0xa11ce00000n + BigInt(run * 100 + write)).toString(16).padStart(40, "0")}`;

beforeAll(async () => {
  service = await startTestService({ dataDir, rpcTimeoutMs: RPC_TIMEOUT_MS });
  environment = await call<Environment>("POST", "/environments", {
    display_name: "recovery",
    network_configs: [{ network_id: "1", accounts: [{ address: FUNDED, balance: hex(10n ** 24n) }] }],
  });
});
afterAll(async () => {
  await service?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** The writes of the workload: each acknowledged one leaves `address` holding `balance`. */
type Write = (address: string, value: bigint) => Promise<unknown>;
const WRITES: readonly Write[] = [
  (address, value) => rpc("tenderly_setBalance", [address, hex(value)]),
  (address, value) => rpc("eth_sendTransaction", [{ from: FUNDED, to: address, value: hex(value) }]),
  (address, value) =>
    call("POST", `${instancePath()}/vnet/${vnetId()}/transactions`, { callArgs: { from: FUNDED, to: address, value: hex(value) } }),
  async (address, value) => {
    await rpc("evm_increaseTime", [hex(7)]);
    await rpc("evm_mine");
    return rpc("tenderly_setBalance", [address, hex(value)]);
  },
];

test("20 kill -9 of a vnet's anvil at random points of a write workload: no acknowledged write lost, no record without its change", async () => {
  const acknowledged = new Map<string, bigint>();
  let kills = 0;
  for (let run = 0; run < 20; run++) {
    await rpc("eth_blockNumber"); // the chain runs (started again after the last kill)
    const pid = engine().runningNode(vnetId())!.pids[1];
    const writes = 2 + Math.floor(Math.random() * 5);
    const killAt = Math.floor(Math.random() * (writes + 1));
    for (let w = 0; w < writes; w++) {
      const address = addressOf(run, w);
      const value = BigInt(1 + run * 100 + w) * 10n ** 15n;
      const writing = WRITES[(run + w) % WRITES.length](address, value).then(
        () => acknowledged.set(address, value),
        () => undefined, // not acknowledged: the chain died under it
      );
      if (w === killAt) {
        // At a random moment of this write: before it reaches the chain, while it runs, or after.
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 15));
        process.kill(pid, "SIGKILL");
        kills += 1;
      }
      await writing;
    }
    if (killAt === writes) {
      process.kill(pid, "SIGKILL");
      kills += 1;
    }
    // The next call is answered once the chain is back with every acknowledged write (a call racing the death may fail).
    await expect(retry(() => rpc("eth_blockNumber"))).resolves.toBeDefined();
    for (const [address, value] of acknowledged)
      expect({ address, balance: BigInt(await rpc<string>("eth_getBalance", [address, "latest"])) }).toEqual({ address, balance: value });
  }
  expect(kills).toBe(20);
  expect(acknowledged.size).toBeGreaterThan(20);

  // No record claims a change the chain does not have.
  const records: Transaction[] = [];
  for (let page = 1; ; page++) {
    const batch = await call<Transaction[]>("GET", `${instancePath()}/transactions?page=${page}&perPage=100`);
    records.push(...batch);
    if (batch.length < 100) break;
  }
  expect(records.length).toBeGreaterThanOrEqual(acknowledged.size);
  for (const record of records) {
    if (record.kind === "cheatcode") {
      if (record.rpc_method !== "tenderly_setBalance") continue;
      const value = BigInt(JSON.parse(Buffer.from(record.input.slice(2), "hex").toString()).params[1]);
      expect({ to: record.to, balance: BigInt(await rpc<string>("eth_getBalance", [record.to, "latest"])) }).toEqual({
        to: record.to,
        balance: value,
      });
    } else {
      const onChain = await rpc<{ blockHash: string; blockNumber: string } | null>("eth_getTransactionByHash", [record.tx_hash]);
      expect({ hash: record.tx_hash, blockHash: onChain?.blockHash, blockNumber: onChain?.blockNumber }).toEqual({
        hash: record.tx_hash,
        // A record made before its block was sealed names no block hash; every other names the one on the chain.
        blockHash: record.block_hash ?? onChain?.blockHash,
        blockNumber: record.block_number,
      });
    }
  }
}, 240_000);

test("snapshots taken since the last save come back with the same ids after a kill -9, and the dashboard's list keeps them", async () => {
  const address = addressOf(98, 0);
  await rpc("tenderly_setBalance", [address, hex(1)]);
  const id = await rpc<string>("evm_snapshot");
  await rpc("tenderly_setBalance", [address, hex(2)]);
  process.kill(engine().runningNode(vnetId())!.pids[1], "SIGKILL");
  expect(BigInt(await retry(() => rpc<string>("eth_getBalance", [address, "latest"])))).toBe(2n);
  expect(
    engine()
      .snapshots(vnetId())
      .map((s) => s.id),
  ).toContain(id);
  // The id reverts to the state it was taken at, on the chain started again.
  expect(await rpc("evm_revert", [id])).toBe(true);
  expect(BigInt(await rpc<string>("eth_getBalance", [address, "latest"]))).toBe(1n);
}, 60_000);

test("a stopped anvil: a call errors at the deadline naming it, the chain starts again with its writes, and delete and close finish", async () => {
  await rpc("tenderly_setBalance", [addressOf(99, 0), hex(12345)]);
  const node = engine().runningNode(vnetId())!;
  const [, anvilPid] = node.pids;
  process.kill(anvilPid, "SIGSTOP");
  await waitFor(() => stopped(anvilPid), 10_000); // every thread: a signal reaches a busy process's threads one by one
  try {
    const started = Date.now();
    const error = await rpc("eth_getBalance", [addressOf(99, 0), "latest"]).catch((e: Error) => e);
    const waited = Date.now() - started;
    expect(String(error)).toMatch(
      /the chain did not answer: it took longer than the service's RPC timeout of 3 s \(chainform serve --rpc-timeout SECONDS\)/,
    );
    expect(waited).toBeGreaterThanOrEqual(RPC_TIMEOUT_MS - 100);
    expect(waited).toBeLessThan(RPC_TIMEOUT_MS + 20_000);
    // The check finds the chain wedged and kills it: the next call starts it again, with the write made before.
    await waitFor(() => !processAlive(anvilPid), 30_000);
    expect(BigInt(await retry(() => rpc<string>("eth_getBalance", [addressOf(99, 0), "latest"])))).toBe(12345n);
  } finally {
    if (processAlive(anvilPid)) process.kill(anvilPid, "SIGCONT");
  }

  // Wedged again, deleting the environment and closing the service still finish (another environment's chain is
  // wedged at the close).
  const other = await call<Environment>("POST", "/environments", {
    display_name: "wedged at close",
    network_configs: [{ network_id: "1" }],
  });
  const otherAdmin = other.active_instance.vnets[0].rpcs.find((r) => r.name === "Admin RPC")!.url;
  await fetch(otherAdmin, { method: "POST", body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_blockNumber", params: [] }) });
  const wedgedAtClose = engine().runningNode(other.active_instance.vnets[0].id)!;
  process.kill(wedgedAtClose.pids[1], "SIGSTOP");
  await waitFor(() => stopped(wedgedAtClose.pids[1]), 10_000);
  const again = engine().runningNode(vnetId())!;
  process.kill(again.pids[1], "SIGSTOP");
  await waitFor(() => stopped(again.pids[1]), 10_000);
  const pending = rpc("eth_blockNumber").catch((e: Error) => e); // a call in flight holding the chain
  const started = Date.now();
  await call("DELETE", `/environments/${environment.id}`);
  expect(Date.now() - started).toBeLessThan(RPC_TIMEOUT_MS + 30_000);
  expect(String(await pending)).toMatch(/did not answer|not found|no Virtual Environment|closed/);
  await waitFor(() => again.pids.every((pid) => !processAlive(pid)), 30_000);
  const closing = Date.now();
  await service.close();
  expect(Date.now() - closing).toBeLessThan(30_000);
  expect(wedgedAtClose.pids.filter(processAlive)).toEqual([]);
  service = undefined as unknown as TestService;
}, 120_000);

/** Whether every thread of a process is stopped (Linux: state T in /proc). */
function stopped(pid: number): boolean {
  try {
    const tasks = readdirSync(`/proc/${pid}/task`);
    return tasks.every((task) => /^\d+ \(.*\) [tT] /.test(readFileSync(`/proc/${pid}/task/${task}/stat`, "utf8")));
  } catch {
    return false;
  }
}

async function retry<T>(work: () => Promise<T>, attempts = 5): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (attempt >= attempts) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

async function waitFor(condition: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
