/**
 * A chain reloaded for any reason keeps its clock (docs/service.md "A reloaded chain's clock"): after an idle stop, a
 * restart, an eviction under `--max-chains`, an import, a clone and a `kill -9` of its anvil, the next block's
 * timestamp is never below its parent's, and a day moved by `evm_increaseTime` before the reload is still moved after
 * it. Real anvil, through the service over HTTP; the block interval and a next block's timestamp set but not mined
 * survive a restart too.
 */
import { rmSync } from "node:fs";
import { createAnvilEngine, type BackendChainEngine } from "../lib/service/chains";
import { temporaryDataDir } from "./chains-host";
import { ENVIRONMENTS, createEnvironment, exportFixture, importFixture, type CreatedEnvironment } from "./helpers/fixtures";
import { adminRpc, call, rpc } from "./helpers/http";
import { serviceRuns, type TestService } from "./helpers/service";

jest.setTimeout(240_000);

const DAY = 86_400;
const runs = serviceRuns();
const dataDirs: string[] = [];
afterAll(async () => {
  await runs.closeAll();
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
});

interface Block {
  readonly number: bigint;
  readonly timestamp: number;
}

async function head(url: string): Promise<Block> {
  const block = await rpc<{ number: string; timestamp: string }>(url, "eth_getBlockByNumber", ["latest", false]);
  return { number: BigInt(block.number), timestamp: Number(BigInt(block.timestamp)) };
}

const now = () => Math.floor(Date.now() / 1000);

/** Moves the chain a day ahead (the Admin RPC's `evm_increaseTime` mines a block at the new time). */
async function moveADay(url: string): Promise<void> {
  await rpc(url, "evm_mine");
  await rpc(url, "evm_increaseTime", [`0x${DAY.toString(16)}`]);
  expect((await head(url)).timestamp).toBeGreaterThanOrEqual(now() + DAY - 2);
}

/**
 * After a reload: `evm_mine` gives a block at least its parent's time, and still a day ahead of the wall clock (a
 * chain whose clock fell back to its head's time would be behind by the time spent reloading, which `pause` makes
 * several seconds).
 */
async function expectClockKept(url: string, before: Block): Promise<void> {
  const parent = await head(url);
  expect(parent).toEqual(before);
  const lower = now() + DAY;
  await rpc(url, "evm_mine");
  const mined = await head(url);
  expect(mined.number).toBe(parent.number + 1n);
  expect(mined.timestamp).toBeGreaterThanOrEqual(parent.timestamp);
  expect(mined.timestamp).toBeGreaterThanOrEqual(lower - 1);
  expect(mined.timestamp).toBeLessThanOrEqual(now() + DAY + 5);
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const engineOf = (service: TestService) => service.app.service.engine as BackendChainEngine;
const vnetOf = (environment: CreatedEnvironment) => environment.active_instance.vnets[0].id;

async function waitFor(what: string, check: () => boolean, timeoutMs = 60_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await pause(100);
  }
}

async function startService(options: { idleTimeoutMs?: number; maxRunningChains?: number; dataDir?: string } = {}): Promise<TestService> {
  const dataDir = options.dataDir ?? temporaryDataDir();
  if (!dataDirs.includes(dataDir)) dataDirs.push(dataDir);
  return runs.start({
    dataDir,
    createChainEngine: (host) =>
      createAnvilEngine(host, { idleTimeoutMs: options.idleTimeoutMs, maxRunningChains: options.maxRunningChains }),
  });
}

test("an idle stop keeps the clock", async () => {
  const service = await startService({ idleTimeoutMs: 1_500 });
  const environment = await createEnvironment(service, "Idle", [{ network_id: "1" }]);
  const url = adminRpc(environment);
  await moveADay(url);
  const before = await head(url);
  await waitFor("the idle stop", () => engineOf(service).runningNode(vnetOf(environment)) === null);
  await pause(3_000);
  await expectClockKept(url, before);
});

test("a restart keeps the clock, the block interval and a next block's timestamp set but not mined", async () => {
  const service = await startService();
  const environment = await createEnvironment(service, "Restart", [{ network_id: "1" }, { network_id: "10" }]);
  const [url, other] = [adminRpc(environment, 0), adminRpc(environment, 1)];
  await moveADay(url);
  await rpc(other, "anvil_setBlockTimestampInterval", [12]);
  await rpc(other, "evm_mine");
  const pending = (await head(other)).timestamp + 1_000;
  await rpc(other, "tenderly_setNextBlockTimestamp", [pending]);
  const [before, otherBefore] = [await head(url), await head(other)];
  await runs.stop(service);
  await pause(3_000);
  const restarted = await startService({ dataDir: dataDirs[dataDirs.length - 1] });
  const reloaded = await call(restarted, "GET", `${ENVIRONMENTS}/${environment.id}`, { as: "alice" });
  const [url2, other2] = [adminRpc(reloaded.body, 0), adminRpc(reloaded.body, 1)];
  await expectClockKept(url2, before);
  expect(await head(other2)).toEqual(otherBefore);
  await rpc(other2, "evm_mine");
  expect((await head(other2)).timestamp).toBe(pending);
  await rpc(other2, "evm_mine");
  expect((await head(other2)).timestamp).toBe(pending + 12);
});

test("an eviction under the cap on running chains keeps the clock", async () => {
  const service = await startService({ maxRunningChains: 1 });
  const environment = await createEnvironment(service, "Evicted", [{ network_id: "1" }]);
  const url = adminRpc(environment);
  await moveADay(url);
  const before = await head(url);
  const other = await createEnvironment(service, "Evicting", [{ network_id: "1" }]);
  await rpc(adminRpc(other), "eth_blockNumber");
  expect(engineOf(service).runningNode(vnetOf(environment))).toBeNull();
  await pause(3_000);
  await expectClockKept(url, before);
});

test("an import and a clone keep the clock", async () => {
  const service = await startService();
  const environment = await createEnvironment(service, "Source", [{ network_id: "1" }]);
  await moveADay(adminRpc(environment));
  const before = await head(adminRpc(environment));
  const file = await exportFixture(service, environment.id);
  const cloned = await call(service, "POST", `${ENVIRONMENTS}/${environment.id}/clone`, { as: "alice", body: { display_name: "Clone" } });
  expect([cloned.status, cloned.body?.error?.message]).toEqual([201, undefined]);
  const target = await startService();
  const imported = await importFixture(target, file);
  expect([imported.status, imported.body?.error?.message]).toEqual([201, undefined]);
  await pause(3_000);
  await expectClockKept(adminRpc(cloned.body), before);
  await expectClockKept(adminRpc(imported.body), before);
});

test("a kill -9 of a chain's anvil keeps the clock", async () => {
  const service = await startService();
  const environment = await createEnvironment(service, "Killed", [{ network_id: "1" }]);
  const url = adminRpc(environment);
  await moveADay(url);
  const before = await head(url);
  const node = engineOf(service).runningNode(vnetOf(environment))!;
  process.kill(node.pids[1], "SIGKILL");
  await node.exited;
  await pause(3_000);
  await expectClockKept(url, before);
});
