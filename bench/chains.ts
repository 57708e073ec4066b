/**
 * Chain engine benchmark (`npm run bench -- chains`): time from creating an environment of 1 and of 3 networks to
 * every RPC URL answering, simulations per second on one vnet (HTTP API), and memory with 20 live vnets.
 * The last line is one JSON object with the figures and their ratios to the targets (ratio >= 1 meets it).
 */
import { readFileSync } from "node:fs";
import { startServer } from "../lib/service/listen";
import type { BackendChainEngine } from "../lib/service/chains";
import type { Environment } from "../lib/api";

const TARGET_READY_3_MS = 1000;
const TARGET_SIMULATIONS_PER_SECOND = 100;
const LIMITS = { rateLimit: 1e9, burstLimit: 1e9, unauthenticatedLimit: 1e9, rpcLimit: 1e9 };
const FROM = "0x00000000000000000000000000000000000a11ce";

function rssKb(pid: number): number {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
  } catch {
    return 0;
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
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

  async function rpc(url: string, method: string, params: unknown[] = []): Promise<unknown> {
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
    });
    const body = (await response.json()) as { result?: unknown; error?: { message: string } };
    if (body.error) throw new Error(body.error.message);
    return body.result;
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
    ratios: {
      ready3NetworksVsTarget1000Ms: Number((TARGET_READY_3_MS / median(ready3)).toFixed(2)),
      simulationsPerSecondVsTarget100: Number((simulationsPerSecond / TARGET_SIMULATIONS_PER_SECOND).toFixed(2)),
    },
  };
  console.log(JSON.stringify(figures));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
