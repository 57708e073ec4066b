/**
 * One job of a CI fleet, as the fork-cache test and `npm run bench -- fleet` run it: `chainform serve` (the real CLI)
 * with the given flags, an environment that forks network 1 at a pinned block (or one a fixture brought), the same
 * reads of a forked token's state through its Public RPC URL, then SIGTERM (a shared fork cache publishes then).
 *
 * @example
 * const job = await runFleetJob({ serveArgs: ["--fork", `1=${upstream.url}`], block, token: upstream.history.token, env });
 */
import { startCli, watchServe, type ServeReady } from "./cli";
import { ALICE, BOB, DEPLOYER } from "./fork-upstream";

/** What a job does and where. */
export interface FleetJobOptions {
  /** `serve` flags besides `--in-memory --port 0`. */
  readonly serveArgs: readonly string[];
  /** The fork point to create an environment at (hex); none: read the first environment a fixture brought. */
  readonly block?: string;
  /** The forked token whose code and storage are read. */
  readonly token: string;
  readonly env?: Record<string, string>;
  /** What the job does with its RPC URL after the reads (a Foundry fork suite); its answer is the job's `work`. */
  readonly work?: (rpc: string, ready: ServeReady) => Promise<unknown>;
}

/** What a job saw: the reads' raw answers, everything the service printed, and how long until its first answer. */
export interface FleetJob {
  readonly answers: string[];
  readonly log: string;
  /** From spawning `serve` to the first read answered, ms. */
  readonly firstAnswerMs: number;
  /** What `work` answered. */
  readonly work?: unknown;
}

/** Runs one job to its end (the service stopped). */
export async function runFleetJob(options: FleetJobOptions): Promise<FleetJob> {
  const started = performance.now();
  const serve = startCli(["serve", "--in-memory", "--port", "0", ...options.serveArgs], { env: options.env });
  const watched = watchServe(serve);
  const answers: string[] = [];
  let firstAnswerMs = 0;
  let work: unknown;
  try {
    const ready = await watched.ready;
    const rpc = options.block === undefined ? await importedRpcOf(ready) : await createdRpcOf(ready, options.block);
    for (const [method, params] of [
      ["eth_getBalance", [DEPLOYER, "latest"]],
      ["eth_getTransactionCount", [DEPLOYER, "latest"]],
      ["eth_getCode", [options.token, "latest"]],
      ["eth_getStorageAt", [options.token, "0x2", "latest"]],
      ["eth_getBalance", [ALICE, "latest"]],
      ["eth_getBalance", [BOB, "latest"]],
    ] as const) {
      const response = await fetch(rpc, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
      });
      answers.push(await response.text());
      if (firstAnswerMs === 0) firstAnswerMs = performance.now() - started;
    }
    if (options.work) work = await options.work(rpc, ready);
  } finally {
    serve.kill("SIGTERM");
    await new Promise((done) => (serve.exitCode === null ? serve.once("exit", done) : done(null)));
  }
  // After the exit: the stop publishes, and says so when it cannot.
  return { answers, log: watched.output(), firstAnswerMs, work };
}

const environmentsOf = (ready: ServeReady) =>
  `${ready.baseUrl}/public/v1/account/${ready.accountSlug}/project/${ready.projectSlug}/environments`;

type Created = { active_instance: { vnets: { rpcs: { name: string; url: string }[] }[] } };

function publicRpc(environment: Created): string {
  return environment.active_instance.vnets[0].rpcs.find((r) => r.name === "Public RPC")!.url;
}

async function createdRpcOf(ready: ServeReady, block: string): Promise<string> {
  const created = await fetch(environmentsOf(ready), {
    method: "POST",
    headers: { "content-type": "application/json", "X-Access-Key": ready.accessKey },
    body: JSON.stringify({ display_name: "fleet job", network_configs: [{ network_id: "1", block_number: block }] }),
  });
  const environment = (await created.json()) as Created;
  if (created.status !== 200) throw new Error(`create failed: ${JSON.stringify(environment)}`);
  return publicRpc(environment);
}

async function importedRpcOf(ready: ServeReady): Promise<string> {
  const listed = await fetch(environmentsOf(ready), { headers: { "X-Access-Key": ready.accessKey } });
  const { environments } = (await listed.json()) as { environments: Created[] };
  if (environments.length === 0) throw new Error("the job's service imported no environment");
  return publicRpc(environments[0]);
}
