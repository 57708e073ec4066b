/**
 * `npm run bench -- teardown`: 500 environments torn down by `chainform teardown --all --yes` (a child process, as
 * CI runs it) against the local service with its DEFAULT rate limits. Prints wall time and API calls (counted by
 * a proxy in front of the service); the last line is one JSON object with ratios to the targets (<= 12 API calls,
 * < 5 s).
 *
 * The environments are created first through the API by a service with raised limits on a data dir (500 creates
 * would take the default limit over a minute); then `chainform serve` restarts on that data dir with the defaults,
 * so the teardown meets a fresh, default rate-limit window.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { startServer } from "../lib/service/listen";
import { clientFor, TEST_RATE_LIMITS } from "../test/helpers/service";
import { startFaultProxy } from "../test/helpers/fault-proxy";
import { CLI_BIN, collect, createEnvironments, runCli, startCli } from "../test/helpers/cli";

const ENVIRONMENTS = 500;
const TARGETS = { apiCalls: 12, wallMs: 5_000 };

interface Ready {
  baseUrl: string;
  accountSlug: string;
  projectSlug: string;
  accessKey: string;
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), "chainform-bench-teardown-"));
  try {
    // 1. Create the environments through the API (limits raised for this phase only).
    const seeding = await startServer({ dataDir, port: 0, rateLimits: TEST_RATE_LIMITS });
    const seedClient = clientFor(seeding);
    const createStarted = performance.now();
    await createEnvironments(
      seedClient,
      Array.from({ length: ENVIRONMENTS }, (_, i) => `bench-${String(i).padStart(3, "0")}`),
    );
    console.error(`created ${ENVIRONMENTS} environments in ${Math.round(performance.now() - createStarted)} ms (set-up, not measured)`);
    await seedClient.close();
    await seeding.close();

    // 2. The service as users run it, default limits, behind a counting proxy.
    const serve = startCli(["serve", "--data-dir", dataDir, "--port", "0"]);
    const ready = await readyLine(serve);
    const proxy = await startFaultProxy(ready.baseUrl);
    try {
      const env = {
        CHAINFORM_BASE_URL: proxy.baseUrl,
        CHAINFORM_ACCESS_KEY: ready.accessKey,
        CHAINFORM_ACCOUNT: ready.accountSlug,
        CHAINFORM_PROJECT: ready.projectSlug,
      };
      // 3. The measured run: process start to exit.
      const result = await runCli(["teardown", "--all", "--yes", "--json"], { env, timeoutMs: 120_000 });
      if (result.code !== 0) throw new Error(`teardown exited ${result.code}:\n${result.stderr}`);
      const summary = JSON.parse(result.stdout) as { matched: number; deleted: number };
      const calls = proxy.log.length;
      const listCalls = proxy.log.filter((r) => r.method === "GET").length;
      const deleteCalls = proxy.log.filter((r) => r.method === "DELETE").length;
      const rateLimited = proxy.log.filter((r) => r.upstreamStatus === 429).length;

      // 4. Nothing left (checked after the measurement, directly against the service).
      const check = clientFor(ready);
      const left = (await check.listEnvironments({ perPage: 100 })).length;
      await check.close();

      console.log(`environments:      ${ENVIRONMENTS} (deleted ${summary.deleted}, left ${left})`);
      console.log(`wall time:         ${Math.round(result.ms)} ms (target < ${TARGETS.wallMs} ms)`);
      console.log(
        `API calls:         ${calls} (${listCalls} list pages + ${deleteCalls} batch deletes; ${rateLimited} answered 429) (target <= ${TARGETS.apiCalls})`,
      );
      console.log(
        JSON.stringify({
          bench: "teardown",
          environments: ENVIRONMENTS,
          deleted: summary.deleted,
          left,
          wallMs: Math.round(result.ms),
          apiCalls: calls,
          listCalls,
          deleteCalls,
          rateLimited,
          targets: TARGETS,
          ratios: {
            apiCalls: Number((calls / TARGETS.apiCalls).toFixed(3)),
            wallMs: Number((result.ms / TARGETS.wallMs).toFixed(3)),
          },
          ok: summary.deleted === ENVIRONMENTS && left === 0 && calls <= TARGETS.apiCalls && result.ms < TARGETS.wallMs,
        }),
      );
    } finally {
      await proxy.close();
      serve.kill("SIGTERM");
      await collect(serve, 10_000);
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Waits for `chainform serve`'s JSON ready line. */
function readyLine(serve: ReturnType<typeof startCli>): Promise<Ready> {
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: serve.stdout });
    lines.once("line", (line) => resolve(JSON.parse(line) as Ready));
    serve.once("exit", (code) => reject(new Error(`${CLI_BIN} serve exited ${code} before it was ready`)));
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
