/**
 * Local service benchmark (`npm run bench -- service`): throughput and p99 latency at 32 connections of
 * `GET /v1/account/acme/projects` and of `POST` + `DELETE` environments (each connection creates an
 * environment, then deletes it), rate limit raised. The service runs in a child process so that the load
 * generator does not share its event loop. The last line is one JSON object with the figures and their ratios
 * to the targets (ratio >= 1 meets it): list >= 3000 req/s with p99 < 20 ms.
 */
import { fork, type ChildProcess } from "node:child_process";
import { startServer } from "../lib/service/listen";
import { NoChainEngine } from "../lib/service/no-chain-engine";
// autocannon ships no types; the few fields used here are typed below.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const autocannon = require("autocannon") as (options: object) => Promise<AutocannonResult>;

interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p99: number; average: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}

const TARGET_LIST_RPS = 3000;
const TARGET_P99_MS = 20;
const CONNECTIONS = 32;
const DURATION_SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const LIMITS = { rateLimit: 1e9, burstLimit: 1e9, unauthenticatedLimit: 1e9, rpcLimit: 1e9 };

interface Ready {
  baseUrl: string;
  accessKey: string;
}

async function serveInChild(): Promise<{ child: ChildProcess; ready: Ready }> {
  const child = fork(__filename, ["--serve"], { execArgv: ["--import", "tsx"], stdio: ["ignore", "inherit", "inherit", "ipc"] });
  const ready = await new Promise<Ready>((resolve, reject) => {
    child.once("message", (message) => resolve(message as Ready));
    child.once("exit", (code) => reject(new Error(`service exited with ${code}`)));
  });
  return { child, ready };
}

async function serve(): Promise<void> {
  const service = await startServer({ dataDir: null, port: 0, rateLimits: LIMITS, createChainEngine: () => new NoChainEngine() });
  process.send!({ baseUrl: service.baseUrl, accessKey: service.accessKey } satisfies Ready);
  process.on("disconnect", () => void service.close().then(() => process.exit(0)));
}

function summary(name: string, result: AutocannonResult) {
  const figures = {
    requestsPerSecond: Math.round(result.requests.average),
    p99Ms: result.latency.p99,
    averageMs: result.latency.average,
    total: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
  console.log(
    `${name}: ${figures.requestsPerSecond} req/s, p99 ${figures.p99Ms} ms, avg ${figures.averageMs} ms, ${figures.total} requests, ${figures.non2xx} non-2xx, ${figures.errors} errors`,
  );
  return figures;
}

async function main(): Promise<void> {
  const { child, ready } = await serveInChild();
  try {
    const headers = { "x-access-key": ready.accessKey, "content-type": "application/json" };
    const list = summary(
      "GET projects",
      await autocannon({ url: `${ready.baseUrl}/v1/account/acme/projects`, connections: CONNECTIONS, duration: DURATION_SECONDS, headers }),
    );
    let created = 0;
    const environments = `${ready.baseUrl}/public/v1/account/acme/project/demo/environments`;
    const createDelete = summary(
      "POST+DELETE environments",
      await autocannon({
        url: environments,
        connections: CONNECTIONS,
        duration: DURATION_SECONDS,
        headers,
        requests: [
          {
            method: "POST",
            setupRequest: (request: object) => ({
              ...request,
              body: JSON.stringify({ display_name: `bench ${++created}`, network_configs: [{ network_id: "1" }, { network_id: "8453" }] }),
            }),
            onResponse: (_status: number, body: string, context: { id?: string }) => {
              context.id = JSON.parse(body).id;
            },
          },
          {
            method: "DELETE",
            setupRequest: (request: { path: string }, context: { id?: string }) => ({
              ...request,
              path: `${request.path}/${context.id}`,
              body: undefined,
            }),
          },
        ],
      }),
    );
    const result = {
      benchmark: "service",
      connections: CONNECTIONS,
      durationSeconds: DURATION_SECONDS,
      listProjects: list,
      createDeleteEnvironments: createDelete,
      targets: { listRequestsPerSecond: TARGET_LIST_RPS, p99Ms: TARGET_P99_MS },
      ratios: {
        listThroughput: Number((list.requestsPerSecond / TARGET_LIST_RPS).toFixed(2)),
        listP99: Number((TARGET_P99_MS / Math.max(list.p99Ms, 0.001)).toFixed(2)),
      },
    };
    console.log(JSON.stringify(result));
  } finally {
    child.disconnect();
  }
}

if (process.argv.includes("--serve")) void serve();
else
  main().catch((error) => {
    console.error(error);
    process.exitCode = 1;
  });
