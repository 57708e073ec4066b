/**
 * A CI fleet shares its fork recordings through a real OCI registry (docs/oci-store.md): each job is a
 * `chainform serve --fork 1=UPSTREAM --fork-cache oci://…` that forks network 1 at a pinned block and reads it. A first
 * wave of jobs at once forks cold and publishes what it recorded when it stops; a second wave reads every state from
 * the registry, asking a live upstream only the create's two checks, and with the upstream gone it still answers the
 * same bytes. A registry that refuses the credentials is one warning, and the job still runs (cold).
 */
import { startCli, watchServe, assertCliBuilt, type ServeReady } from "./helpers/cli";
import { startForkUpstream, ALICE, BOB, DEPLOYER, type ForkUpstream } from "./helpers/fork-upstream";
import { startRegistry, type TestRegistry } from "./helpers/registry";
import { RegistryClient } from "../lib/oci";

jest.setTimeout(300_000);

let upstream: ForkUpstream;
let registry: TestRegistry;
let block: string;
const CACHE = () => `oci://${registry.host}/acme/fork-cache:suite`;

beforeAll(async () => {
  assertCliBuilt();
  [upstream, registry] = await Promise.all([startForkUpstream(), startRegistry({ auth: "htpasswd" })]);
  block = `0x${upstream.history.aliceTopped.toString(16)}`;
});

afterAll(async () => {
  await Promise.all([upstream?.close(), registry?.stop()]);
});

const registryEnv = () => ({
  CHAINFORM_CA_FILE: registry.caFile,
  CHAINFORM_OCI_USERNAME: registry.username,
  CHAINFORM_OCI_PASSWORD: registry.password,
});

/** One job: serve with the shared cache, fork network 1 at the pinned block, read, stop (which publishes). */
async function job(env: Record<string, string>, forkUrl = upstream.url): Promise<{ answers: string[]; log: string }> {
  const serve = startCli(["serve", "--in-memory", "--port", "0", "--fork", `1=${forkUrl}`, "--fork-cache", CACHE()], { env });
  const watched = watchServe(serve);
  const answers: string[] = [];
  try {
    const ready = await watched.ready;
    const rpc = await publicRpcOf(ready);
    for (const [method, params] of [
      ["eth_getBalance", [DEPLOYER, "latest"]],
      ["eth_getTransactionCount", [DEPLOYER, "latest"]],
      ["eth_getCode", [upstream.history.token, "latest"]],
      ["eth_getStorageAt", [upstream.history.token, "0x2", "latest"]],
      ["eth_getBalance", [ALICE, "latest"]],
      ["eth_getBalance", [BOB, "latest"]],
    ] as const) {
      const response = await fetch(rpc, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
      });
      answers.push(await response.text());
    }
  } finally {
    serve.kill("SIGTERM");
    await new Promise((done) => (serve.exitCode === null ? serve.once("exit", done) : done(null)));
  }
  // After the exit: the stop publishes, and says so when it cannot.
  return { answers, log: watched.output() };
}

async function publicRpcOf(ready: ServeReady): Promise<string> {
  const created = await fetch(`${ready.baseUrl}/public/v1/account/${ready.accountSlug}/project/${ready.projectSlug}/environments`, {
    method: "POST",
    headers: { "content-type": "application/json", "X-Access-Key": ready.accessKey },
    body: JSON.stringify({ display_name: "fleet job", network_configs: [{ network_id: "1", block_number: block }] }),
  });
  const environment = (await created.json()) as { active_instance: { vnets: { rpcs: { name: string; url: string }[] }[] } };
  if (created.status !== 200) throw new Error(`create failed: ${JSON.stringify(environment)}`);
  return environment.active_instance.vnets[0].rpcs.find((r) => r.name === "Public RPC")!.url;
}

test("a second wave of jobs forks from what the first published, reading no state from the upstream, and replays with it gone", async () => {
  const env = registryEnv();
  const before = upstream.methods.length;
  const first = await Promise.all([job(env), job(env), job(env)]);
  const firstWave = upstream.methods.length - before;
  expect(firstWave).toBeGreaterThan(0);
  for (const run of first) expect(run.answers).toEqual(first[0].answers);

  const client = new RegistryClient(registry.host, {
    caFile: registry.caFile,
    credentials: { username: registry.username, password: registry.password, source: "test" },
  });
  const tags = await client.listTags("acme/fork-cache").finally(() => client.close());
  expect(tags.length).toBeGreaterThan(0);
  expect(tags.every((tag) => /^suite\.1\.\d+\.[a-f0-9]{16}$/.test(tag))).toBe(true);

  const mark = upstream.methods.length;
  const second = await Promise.all([job(env), job(env), job(env)]);
  // A create still asks a live upstream who it is and how far it has come (the pinned block must not be beyond its
  // head): two calls a job. Every read of state comes from the shared recordings.
  const secondWave = upstream.methods.slice(mark);
  expect([...new Set(secondWave)].sort()).toEqual(["eth_blockNumber", "eth_chainId"]);
  expect(secondWave).toHaveLength(2 * second.length);
  for (const run of second) expect(run.answers).toEqual(first[0].answers);
  console.log(
    `fork cache: the first wave of 3 jobs asked the upstream ${firstWave} times, the second ${secondWave.length} (the creates' checks)`,
  );

  // With the upstream gone (a URL nothing listens on), a job still answers the same bytes from the shared cache.
  const gone = await job(env, "http://127.0.0.1:9/gone");
  expect(gone.answers).toEqual(first[0].answers);
});

test("a registry that refuses the credentials or is down is one warning; the job runs cold", async () => {
  const refused = await job({ ...registryEnv(), CHAINFORM_OCI_PASSWORD: "wrong" });
  expect(refused.answers[0]).toContain('"result"');
  const warnings = refused.log.split("\n").filter((line) => line.includes("fork cache"));
  expect(warnings).toHaveLength(1);
  expect(warnings[0]).toMatch(/refused the credentials from CHAINFORM_OCI_USERNAME.*forks start cold/);
  expect(refused.log).not.toContain("wrong");
});
