/**
 * Fleet benchmark (`npm run bench -- fleet`, docs/oci-store.md): what a CI fleet gains from the OCI store. Each job
 * is the real CLI (`chainform serve`, test/helpers/fleet-job.ts) reading a forked token's state through a Public RPC
 * URL; the registry is Debian's docker-registry with TLS and htpasswd (test/helpers/registry.ts); the upstream is
 * an anvil that counts what it is asked (test/helpers/fork-upstream.ts).
 * 1. One job's start, spawn to first answer: from a fixture in the registry (`serve --import oci://…`), from the
 *    same fixture as a local file, and as a cold live fork. Medians of `RUNS` each.
 * 2. Upstream calls for fleets of 1, 4 and 12 jobs at once sharing `--fork-cache oci://…` (a repository of their own
 *    each): a cold wave, then a second wave of as many jobs; per job, for the whole wave, and the wave's wall time
 *    (jobs of one wave share through claims and looks before misses, lib/oci/claims.ts).
 * The last line is one JSON object of figures and ratios.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCli, startCli, watchServe, serviceEnv } from "../test/helpers/cli";
import { runFleetJob } from "../test/helpers/fleet-job";
import { startForkUpstream } from "../test/helpers/fork-upstream";
import { startRegistry } from "../test/helpers/registry";
import { median } from "./support/stats";

const RUNS = Number(process.env.BENCH_FLEET_RUNS ?? 3);
const FLEETS = (process.env.BENCH_FLEET_SIZES ?? "1,4,12").split(",").map(Number);

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "chainform-bench-fleet-"));
  const [upstream, registry] = await Promise.all([startForkUpstream(), startRegistry({ auth: "htpasswd" })]);
  const registryEnv = {
    CHAINFORM_CA_FILE: registry.caFile,
    CHAINFORM_OCI_USERNAME: registry.username,
    CHAINFORM_OCI_PASSWORD: registry.password,
  };
  const block = `0x${upstream.history.aliceTopped.toString(16)}`;
  const token = upstream.history.token;
  try {
    // A fixture of a fork, made once by a job of the fleet: to a local file and to the registry.
    const file = join(dir, "base.chainform");
    const oci = `oci://${registry.host}/acme/fixtures:base`;
    const maker = startCli(["serve", "--in-memory", "--port", "0", "--fork", `1=${upstream.url}`], { env: registryEnv });
    try {
      const ready = await watchServe(maker).ready;
      const env = { ...serviceEnv(ready), ...registryEnv };
      const created = await fetch(`${ready.baseUrl}/public/v1/account/${ready.accountSlug}/project/${ready.projectSlug}/environments`, {
        method: "POST",
        headers: { "content-type": "application/json", "X-Access-Key": ready.accessKey },
        body: JSON.stringify({ display_name: "base", slug: "base", network_configs: [{ network_id: "1", block_number: block }] }),
      });
      if (created.status !== 200) throw new Error(`create failed: ${await created.text()}`);
      for (const output of [file, oci]) {
        const exported = await runCli(["export", "base", "--output", output], { env });
        if (exported.code !== 0) throw new Error(`export to ${output} failed: ${exported.stderr}`);
      }
    } finally {
      maker.kill("SIGTERM");
    }

    const startMs = { registryFixture: [] as number[], localFixture: [] as number[], coldLiveFork: [] as number[] };
    for (let run = 0; run < RUNS; run++) {
      startMs.registryFixture.push((await runFleetJob({ serveArgs: ["--import", oci], token, env: registryEnv })).firstAnswerMs);
      startMs.localFixture.push((await runFleetJob({ serveArgs: ["--import", file], token })).firstAnswerMs);
      startMs.coldLiveFork.push((await runFleetJob({ serveArgs: ["--fork", `1=${upstream.url}`], block, token })).firstAnswerMs);
    }

    const perJob: Record<string, { cold: number; warm: number }> = {};
    const waves: Record<string, { coldCalls: number; warmCalls: number; coldWaveMs: number; warmWaveMs: number }> = {};
    for (const size of FLEETS) {
      const cache = `oci://${registry.host}/acme/fork-cache-${size}:suite`;
      const wave = async () => {
        const before = upstream.methods.length;
        const started = performance.now();
        const jobs = Array.from({ length: size }, () =>
          runFleetJob({ serveArgs: ["--fork", `1=${upstream.url}`, "--fork-cache", cache], block, token, env: registryEnv }),
        );
        await Promise.all(jobs);
        return { calls: upstream.methods.length - before, ms: Math.round(performance.now() - started) };
      };
      const cold = await wave();
      const warm = await wave();
      perJob[size] = { cold: Math.round((cold.calls / size) * 10) / 10, warm: Math.round((warm.calls / size) * 10) / 10 };
      waves[size] = { coldCalls: cold.calls, warmCalls: warm.calls, coldWaveMs: cold.ms, warmWaveMs: warm.ms };
      process.stderr.write(
        `fleet of ${size}: upstream calls ${cold.calls} cold (${perJob[size].cold} a job), ${warm.calls} warm; waves ${cold.ms} ms and ${warm.ms} ms\n`,
      );
    }

    const figures = {
      startRegistryFixtureMs: Math.round(median(startMs.registryFixture)),
      startLocalFixtureMs: Math.round(median(startMs.localFixture)),
      startColdLiveForkMs: Math.round(median(startMs.coldLiveFork)),
      upstreamCallsPerJob: perJob,
      waves,
    };
    const ratios = {
      registryVsLocalFixture: Math.round((figures.startRegistryFixtureMs / figures.startLocalFixtureMs) * 100) / 100,
      registryFixtureVsColdFork: Math.round((figures.startRegistryFixtureMs / figures.startColdLiveForkMs) * 100) / 100,
    };
    console.log(JSON.stringify({ benchmark: "fleet", runs: RUNS, ...figures, ratios }));
  } finally {
    await Promise.all([upstream.close(), registry.stop()]);
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
