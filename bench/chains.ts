/**
 * Chain engine benchmark (`npm run bench -- chains`): time from creating an environment of 1 and of 3 networks to
 * every RPC URL answering, simulations per second on one vnet (HTTP API), memory with 20 live vnets, and the
 * recovery of a chain killed (`kill -9`) with 1,000 writes journaled since its last save: from the kill to the next
 * call answered, against a restart with nothing to apply again (docs/chain-state.md "What survives what").
 * The last line is one JSON object with the figures and their ratios to the targets (ratio >= 1 meets it).
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startServer } from "../lib/service/listen";
import { createAnvilEngine, type BackendChainEngine } from "../lib/service/chains";
import type { Environment } from "../lib/api";
import { rpc } from "../test/helpers/http";
import { median } from "./support/stats";

const TARGET_READY_3_MS = 1000;
const TARGET_SIMULATIONS_PER_SECOND = 100;
/** A chain with 1,000 writes since its last save answers again within this (the deadline of a call is 30 s). */
const TARGET_RECOVERY_MS = 5000;
const RECOVERY_WRITES = 1000;
const LIMITS = { rateLimit: 1e9, burstLimit: 1e9, unauthenticatedLimit: 1e9, rpcLimit: 1e9 };
const FROM = "0x00000000000000000000000000000000000a11ce";

function rssKb(pid: number): number {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
  } catch {
    return 0;
  }
}

async function main(): Promise<void> {
  const service = await startServer({ dataDir: null, port: 0, rateLimits: LIMITS });
  const engine = service.app.service.engine as BackendChainEngine;
  const headers = { "X-Access-Key": service.accessKey, "content-type": "application/json" };
  const project = `${service.baseUrl}/public/v1/account/${service.accountSlug}/project/${service.projectSlug}`;
  const networks = ["1", "10", "8453"];
  let created = 0;

  async function createEnvironment(size: number): Promise<Environment> {
    created += 1;
    const response = await fetch(`${project}/environments`, {
      method: "POST",
      headers,
      body: JSON.stringify({
        display_name: `bench ${created}`,
        network_configs: networks
          .slice(0, size)
          .map((network_id) => ({ network_id, accounts: [{ address: FROM, balance: "0xde0b6b3a7640000" }] })),
      }),
    });
    if (response.status !== 200 && response.status !== 201) throw new Error(`create: ${response.status} ${await response.text()}`);
    return (await response.json()) as Environment;
  }

  async function readyMs(size: number): Promise<number> {
    const started = performance.now();
    const environment = await createEnvironment(size);
    await Promise.all(environment.active_instance.vnets.map((v) => rpc(v.rpcs.find((r) => r.name === "Public RPC")!.url, "eth_chainId")));
    return performance.now() - started;
  }

  const ready1 = [];
  const ready3 = [];
  for (let i = 0; i < 5; i += 1) ready1.push(await readyMs(1));
  for (let i = 0; i < 5; i += 1) ready3.push(await readyMs(3));
  console.log(
    `environment ready (RPC answering): 1 network ${median(ready1).toFixed(0)} ms, 3 networks ${median(ready3).toFixed(0)} ms (median of 5)`,
  );

  // Simulations per second on one vnet, through the HTTP API, 8 in flight.
  const simEnv = await createEnvironment(1);
  const vnetId = simEnv.active_instance.vnets[0].id;
  const simulateUrl = `${service.baseUrl}/v1/account/${service.accountSlug}/project/${service.projectSlug}/vnets/${vnetId}/transactions/simulate`;
  const simulateOnce = async () => {
    const response = await fetch(simulateUrl, {
      method: "POST",
      headers,
      body: JSON.stringify({ callArgs: { from: FROM, to: "0x000000000000000000000000000000000000dead", value: "0x1" } }),
    });
    if (response.status !== 200) throw new Error(`simulate: ${response.status} ${await response.text()}`);
    await response.json();
  };
  for (let i = 0; i < 50; i += 1) await simulateOnce(); // warm up
  const total = 1000;
  let next = 0;
  const simStarted = performance.now();
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next++ < total) await simulateOnce();
    }),
  );
  const simulationsPerSecond = total / ((performance.now() - simStarted) / 1000);
  console.log(`simulations: ${simulationsPerSecond.toFixed(0)}/s over HTTP (${total}, 8 in flight)`);

  // Memory with 20 live vnets: stop everything, then start exactly 20.
  await engine.close().catch(() => undefined);
  await service.close();
  const fresh = await startServer({ dataDir: null, port: 0, rateLimits: LIMITS });
  const freshEngine = fresh.app.service.engine as BackendChainEngine;
  const freshProject = `${fresh.baseUrl}/public/v1/account/${fresh.accountSlug}/project/${fresh.projectSlug}`;
  const freshHeaders = { "X-Access-Key": fresh.accessKey, "content-type": "application/json" };
  const environments: Environment[] = [];
  for (let i = 0; i < 20; i += 1) {
    const response = await fetch(`${freshProject}/environments`, {
      method: "POST",
      headers: freshHeaders,
      body: JSON.stringify({ display_name: `rss ${i}`, network_configs: [{ network_id: "1" }] }),
    });
    environments.push((await response.json()) as Environment);
  }
  global.gc?.();
  const serviceRssBeforeKb = rssKb(process.pid);
  await Promise.all(
    environments.map((e) => rpc(e.active_instance.vnets[0].rpcs.find((r) => r.name === "Public RPC")!.url, "eth_blockNumber")),
  );
  const vnetIds = environments.map((e) => e.active_instance.vnets[0].id);
  const pids = vnetIds.flatMap((id) => freshEngine.runningNode(id)?.pids ?? []);
  const serviceRssKb = rssKb(process.pid);
  const chainsRssKb = pids.reduce((sum, pid) => sum + rssKb(pid), 0);
  const perVnetKb = (chainsRssKb + serviceRssKb - serviceRssBeforeKb) / vnetIds.length;
  console.log(
    `20 live vnets: service ${(serviceRssKb / 1024).toFixed(0)} MB RSS (+${((serviceRssKb - serviceRssBeforeKb) / 1024).toFixed(1)} MB for the chains), ` +
      `chain processes ${(chainsRssKb / 1024).toFixed(0)} MB (${pids.length} processes), per vnet ${(perVnetKb / 1024).toFixed(1)} MB`,
  );
  await fresh.close();

  const recovery = await recoveryFigures();

  const figures = {
    benchmark: "chains",
    ready1NetworkMs: Math.round(median(ready1)),
    ready3NetworksMs: Math.round(median(ready3)),
    simulationsPerSecond: Math.round(simulationsPerSecond),
    liveVnets: vnetIds.length,
    serviceRssMb: Math.round(serviceRssKb / 1024),
    chainProcessesRssMb: Math.round(chainsRssKb / 1024),
    totalRssMb: Math.round((serviceRssKb + chainsRssKb) / 1024),
    perVnetOverheadMb: Number((perVnetKb / 1024).toFixed(1)),
    ...recovery.figures,
    ratios: {
      recovery1000WritesVsTarget5000Ms: Number((TARGET_RECOVERY_MS / recovery.figures.recovery1000WritesMs).toFixed(2)),
      recovery1000WritesVsRestart: Number((recovery.figures.recovery1000WritesMs / recovery.figures.restartNothingToApplyMs).toFixed(2)),
      ready3NetworksVsTarget1000Ms: Number((TARGET_READY_3_MS / median(ready3)).toFixed(2)),
      simulationsPerSecondVsTarget100: Number((simulationsPerSecond / TARGET_SIMULATIONS_PER_SECOND).toFixed(2)),
    },
  };
  console.log(JSON.stringify(figures));
}

/**
 * A data-dir service whose chains save only at stop (so the journal keeps every write): 1,000 writes (a third each
 * `tenderly_setBalance`, `eth_sendTransaction` through the Admin RPC, `evm_mine`), then kill -9 of the anvil and the
 * time to the next answered call; the same kill with nothing journaled; and the default's bound (a save every 500
 * writes) after 1,000 writes.
 */
async function recoveryFigures(): Promise<{ figures: Record<string, number> }> {
  const measure = async (saveAfterWrites: number) => {
    const dataDir = mkdtempSync(join(tmpdir(), "chainform-bench-recovery-"));
    const service = await startServer({
      dataDir,
      port: 0,
      rateLimits: LIMITS,
      createChainEngine: (host) => createAnvilEngine(host, { saveAfterWrites }),
    });
    try {
      const engine = service.app.service.engine as BackendChainEngine;
      const response = await fetch(
        `${service.baseUrl}/public/v1/account/${service.accountSlug}/project/${service.projectSlug}/environments`,
        {
          method: "POST",
          headers: { "X-Access-Key": service.accessKey, "content-type": "application/json" },
          body: JSON.stringify({
            display_name: "recovery",
            network_configs: [{ network_id: "1", accounts: [{ address: FROM, balance: "0xd3c21bcecceda1000000" }] }],
          }),
        },
      );
      const environment = (await response.json()) as Environment;
      const vnet = environment.active_instance.vnets[0];
      const admin = vnet.rpcs.find((r) => r.name === "Admin RPC")!.url;
      const call = (method: string, params: unknown[] = []) => rpc<unknown>(admin, method, params);
      const killAndTime = async () => {
        process.kill(engine.runningNode(vnet.id)!.pids[1], "SIGKILL");
        const started = performance.now();
        while (engine.runningNode(vnet.id) !== null) await new Promise((resolve) => setTimeout(resolve, 1));
        await call("eth_blockNumber");
        return performance.now() - started;
      };
      await call("eth_blockNumber");
      const restartMs = await killAndTime();
      const writesStarted = performance.now();
      for (let i = 0; i < RECOVERY_WRITES; i++) {
        const to = `0x${(0xbe00000 + i).toString(16).padStart(40, "0")}`;
        if (i % 3 === 0) await call("tenderly_setBalance", [to, "0x1"]);
        else if (i % 3 === 1) await call("eth_sendTransaction", [{ from: FROM, to, value: "0x1" }]);
        else await call("evm_mine");
      }
      const writesPerSecond = RECOVERY_WRITES / ((performance.now() - writesStarted) / 1000);
      const recoveryMs = await killAndTime();
      return { restartMs, recoveryMs, writesPerSecond };
    } finally {
      await service.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  };
  const everything = await measure(1_000_000);
  const bounded = await measure(500);
  console.log(
    `recovery after kill -9: ${everything.recoveryMs.toFixed(0)} ms with ${RECOVERY_WRITES} writes to apply again, ` +
      `${everything.restartMs.toFixed(0)} ms with none; ${bounded.recoveryMs.toFixed(0)} ms after ${RECOVERY_WRITES} writes with a save every 500; ` +
      `journaled writes ${everything.writesPerSecond.toFixed(0)}/s (Admin RPC, one at a time)`,
  );
  return {
    figures: {
      recovery1000WritesMs: Math.round(everything.recoveryMs),
      restartNothingToApplyMs: Math.round(everything.restartMs),
      recoveryAfter1000WritesSavingEvery500Ms: Math.round(bounded.recoveryMs),
      journaledWritesPerSecond: Math.round(everything.writesPerSecond),
    },
  };
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
