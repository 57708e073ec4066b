/**
 * Fork benchmark (`npm run bench -- fork`): the time from creating an environment to its first answered call, and a
 * 200-call read workload, on a fresh chain, on a fork of a live upstream behind a proxy that adds 50 ms per request
 * (as a hosted RPC would), and on the same fork replayed offline from its recordings. The upstream stands in for
 * mainnet: an anvil with chain id 1 and a token whose balances changed over several blocks
 * (test/helpers/fork-upstream.ts). Targets: a replayed fork answers its first call within 2x a fresh chain's time,
 * and runs the workload within 1.5x of the fresh chain's. A live creation also records what a chain needs to mine
 * offline (lib/service/chains/fork/block-inputs.ts): its extra upstream calls, HTTP requests and milliseconds, and
 * the size of the recordings a live run leaves, are reported too. Then 50 value transfers with
 * `eth_sendTransactionSync` on each: a fork served from recordings only runs each send as a call first
 * (lib/service/chains/fork/sends.ts), live forks and fresh chains do not. The last line is one JSON object of
 * figures and ratios.
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startServer, type RunningService } from "../lib/service/listen";
import type { Environment } from "../lib/api";
import type { BackendChainEngine } from "../lib/service/chains";
import { ALICE, BOB, DEPLOYER, TOKEN, startForkUpstream } from "../test/helpers/fork-upstream";
import { rpc } from "../test/helpers/http";
import { encodeDeployData, encodeFunctionData } from "../test/helpers/viem";
import { median } from "./support/stats";

const UPSTREAM_DELAY_MS = 50;
const WORKLOAD_CALLS = 200;
const SENDS = 50;
const TARGET_FIRST_CALL_RATIO = 2;
const TARGET_WORKLOAD_RATIO = 1.5;
const RUNS = 5;
const LIVE_RUNS = 3;
const LIMITS = { rateLimit: 1e9, burstLimit: 1e9, unauthenticatedLimit: 1e9, rpcLimit: 1e9 };
/** The workload's holders: the upstream's three and 47 more nobody funded. */
const HOLDERS = [ALICE, BOB, DEPLOYER, ...Array.from({ length: 47 }, (_, i) => `0x${(0xb0000 + i).toString(16).padStart(40, "0")}`)];

async function createEnvironment(service: RunningService, name: string): Promise<string> {
  const response = await fetch(`${service.baseUrl}/public/v1/account/${service.accountSlug}/project/${service.projectSlug}/environments`, {
    method: "POST",
    headers: { "X-Access-Key": service.accessKey, "content-type": "application/json" },
    body: JSON.stringify({ display_name: name, network_configs: [{ network_id: "1" }] }),
  });
  if (response.status !== 200) throw new Error(`create: ${response.status} ${await response.text()}`);
  const environment = (await response.json()) as Environment;
  return environment.active_instance.vnets[0].rpcs.find((r) => r.name === "Admin RPC")!.url;
}

/** Milliseconds from the create request to the first answered call, and the environment's Admin RPC URL. */
async function firstCall(service: RunningService, name: string): Promise<{ ms: number; url: string }> {
  const started = performance.now();
  const url = await createEnvironment(service, name);
  await rpc(url, "eth_chainId");
  return { ms: performance.now() - started, url };
}

/** 200 reads, one at a time: balances, nonces, token balances, code and storage of 50 holders. */
async function workload(url: string, token: string): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < WORKLOAD_CALLS; i += 1) {
    const holder = HOLDERS[i % HOLDERS.length]!;
    switch (Math.floor(i / HOLDERS.length) % 4) {
      case 0:
        await rpc(url, "eth_getBalance", [holder, "latest"]);
        break;
      case 1:
        await rpc(url, "eth_call", [
          { to: token, data: encodeFunctionData({ abi: TOKEN.abi, functionName: "balanceOf", args: [holder] }) },
          "latest",
        ]);
        break;
      case 2:
        await rpc(url, "eth_getTransactionCount", [holder, "latest"]);
        break;
      default:
        await rpc(url, "eth_getStorageAt", [token, `0x${(i % 8).toString(16)}`, "latest"]);
    }
  }
  return performance.now() - started;
}

/** 50 transfers of 1 wei from ALICE to BOB (both read by the workload, so recorded), one at a time, each mined. */
async function sends(url: string): Promise<number> {
  await rpc(url, "tenderly_setBalance", [ALICE, "0x56bc75e2d63100000"]);
  const started = performance.now();
  for (let i = 0; i < SENDS; i += 1) await rpc(url, "eth_sendTransactionSync", [{ from: ALICE, to: BOB, value: "0x1" }]);
  return performance.now() - started;
}

async function main(): Promise<void> {
  // Enough blocks that a fork records the whole window of blocks BLOCKHASH reaches, as on a real network.
  const upstream = await startForkUpstream({ delayMs: UPSTREAM_DELAY_MS, emptyBlocks: 300 });
  const root = mkdtempSync(join(tmpdir(), "chainform-bench-fork-"));
  const cacheDir = join(root, "fork-cache");
  const fresh = { first: [] as number[], work: [] as number[], sends: [] as number[] };
  const live = { first: [] as number[], work: [] as number[], sends: [] as number[] };
  const replayed = { first: [] as number[], work: [] as number[], sends: [] as number[] };
  /** Per live run: what recording the block inputs cost, and the upstream calls the whole creation made. */
  const blockInputs = { calls: [] as number[], requests: [] as number[], ms: [] as number[], creationCalls: [] as number[] };
  let recordingBytes = 0;
  try {
    /** One run on a fresh chain (no upstream). */
    const freshRun = async (run: number) => {
      const service = await startServer({ dataDir: null, port: 0, rateLimits: LIMITS });
      try {
        const { ms, url } = await firstCall(service, `fresh ${run}`);
        fresh.first.push(ms);
        // The same token on the fresh chain, deployed before the clock starts, so that the reads run real code.
        await rpc(url, "tenderly_setBalance", [DEPLOYER, "0x56bc75e2d63100000"]);
        const data = encodeDeployData({ abi: TOKEN.abi, bytecode: TOKEN.bytecode, args: ["Fresh Token", "FRT", 18, 1000n] });
        const receipt = await rpc<{ contractAddress: string }>(url, "eth_sendTransactionSync", [{ from: DEPLOYER, data, gas: "0x300000" }]);
        fresh.work.push(await workload(url, receipt.contractAddress));
        fresh.sends.push(await sends(url));
      } finally {
        await service.close();
      }
    };
    // Live: each run with an empty cache, so every read the fork needs crosses the slow upstream.
    for (let run = 0; run < LIVE_RUNS; run += 1) {
      rmSync(cacheDir, { recursive: true, force: true });
      const service = await startServer({
        dataDir: null,
        port: 0,
        rateLimits: LIMITS,
        forkUrls: { "1": upstream.url },
        forkCacheDir: cacheDir,
      });
      try {
        const before = upstream.methods.length;
        const { ms, url } = await firstCall(service, `live ${run}`);
        live.first.push(ms);
        blockInputs.creationCalls.push(upstream.methods.length - before);
        const [cost] = (service.app.service.engine as BackendChainEngine).forks.blockInputCosts.values();
        if (!cost) throw new Error("the live creation recorded no block inputs");
        blockInputs.calls.push(cost.calls);
        blockInputs.requests.push(cost.requests);
        blockInputs.ms.push(cost.ms);
        live.work.push(await workload(url, upstream.history.token));
        live.sends.push(await sends(url));
      } finally {
        await service.close();
      }
      recordingBytes = readdirSync(join(cacheDir, "1"))
        .filter((name) => /^\d+\.json$/.test(name))
        .reduce((sum, name) => sum + statSync(join(cacheDir, "1", name)).size, 0);
    }
    // Replayed: offline, from what the last live run recorded; the upstream is not asked. Fresh and replayed runs
    // alternate, so that neither gains from running on a warmer machine.
    const asked = upstream.methods.length;
    for (let run = 0; run < RUNS; run += 1) {
      await freshRun(run);
      const service = await startServer({ dataDir: null, port: 0, rateLimits: LIMITS, forkCacheDir: cacheDir, offline: true });
      try {
        const { ms, url } = await firstCall(service, `replayed ${run}`);
        replayed.first.push(ms);
        replayed.work.push(await workload(url, upstream.history.token));
        replayed.sends.push(await sends(url));
      } finally {
        await service.close();
      }
    }
    if (upstream.methods.length !== asked) throw new Error("the replayed runs asked the upstream");
  } finally {
    await upstream.close();
    rmSync(root, { recursive: true, force: true });
  }

  const m = (xs: number[]) => Math.round(median(xs));
  const ratio = (a: number[], b: number[]) => Number((median(a) / median(b)).toFixed(2));
  console.log(
    `create to first answered call (median): fresh ${m(fresh.first)} ms, live fork ${m(live.first)} ms, replayed fork ${m(replayed.first)} ms`,
  );
  console.log(
    `${WORKLOAD_CALLS}-call read workload (median): fresh ${m(fresh.work)} ms, live fork ${m(live.work)} ms, replayed fork ${m(replayed.work)} ms`,
  );
  console.log(
    `${SENDS} eth_sendTransactionSync transfers (median): fresh ${m(fresh.sends)} ms, live fork ${m(live.sends)} ms, replayed fork ${m(replayed.sends)} ms (checked first)`,
  );
  console.log(
    `recording for blocks at a live creation (median): ${m(blockInputs.calls)} upstream calls in ${m(blockInputs.requests)} HTTP requests, ${m(blockInputs.ms)} ms of the ${m(live.first)} ms to the first call; recordings after a live run: ${recordingBytes} bytes`,
  );
  const figures = {
    benchmark: "fork",
    upstreamDelayMs: UPSTREAM_DELAY_MS,
    blockInputs: {
      calls: m(blockInputs.calls),
      requests: m(blockInputs.requests),
      ms: m(blockInputs.ms),
      upstreamCallsAtCreation: m(blockInputs.creationCalls),
      shareOfLiveFirstCall: Number((median(blockInputs.ms) / median(live.first)).toFixed(2)),
      recordingBytes,
    },
    firstCallMs: { fresh: m(fresh.first), live: m(live.first), replayed: m(replayed.first) },
    workloadMs: { calls: WORKLOAD_CALLS, fresh: m(fresh.work), live: m(live.work), replayed: m(replayed.work) },
    sendsMs: { sends: SENDS, fresh: m(fresh.sends), live: m(live.sends), replayed: m(replayed.sends) },
    ratios: {
      replayedFirstCallVsFresh: ratio(replayed.first, fresh.first),
      replayedWorkloadVsFresh: ratio(replayed.work, fresh.work),
      liveFirstCallVsFresh: ratio(live.first, fresh.first),
      liveWorkloadVsFresh: ratio(live.work, fresh.work),
      replayedSendsVsFresh: ratio(replayed.sends, fresh.sends),
      liveSendsVsFresh: ratio(live.sends, fresh.sends),
    },
    targets: { replayedFirstCallVsFresh: TARGET_FIRST_CALL_RATIO, replayedWorkloadVsFresh: TARGET_WORKLOAD_RATIO },
    met: {
      replayedFirstCall: median(replayed.first) / median(fresh.first) <= TARGET_FIRST_CALL_RATIO,
      replayedWorkload: median(replayed.work) / median(fresh.work) <= TARGET_WORKLOAD_RATIO,
    },
  };
  console.log(JSON.stringify(figures));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
