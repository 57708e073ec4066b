/**
 * A CI fleet shares its fork recordings through a real OCI registry (docs/oci-store.md): each job is a
 * `chainform serve --fork 1=UPSTREAM --fork-cache oci://…` that forks network 1 at a pinned block and reads it. A first
 * wave of jobs at once forks cold, sharing within the wave (one claimant records the fork point, the others wait for
 * its publish); a second wave asks a live upstream nothing, and with the upstream gone a job still answers the same
 * bytes. A registry that refuses the credentials or is down, and a damaged artifact, are one warning each; the job
 * still runs. The fleet of 12 is test/oci-fleet.test.ts.
 */
import { assertCliBuilt } from "./helpers/cli";
import { runFleetJob, type FleetJob } from "./helpers/fleet-job";
import { startForkUpstream, type ForkUpstream } from "./helpers/fork-upstream";
import { startRegistry, type TestRegistry } from "./helpers/registry";
import { FIXTURE_ARTIFACT, formatOciReference, parseOciReference, pushArtifact, RECORDINGS_ARTIFACT, RegistryClient } from "../lib/oci";

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
function job(env: Record<string, string>, forkUrl = upstream.url, cache = CACHE()): Promise<FleetJob> {
  return runFleetJob({ serveArgs: ["--fork", `1=${forkUrl}`, "--fork-cache", cache], block, token: upstream.history.token, env });
}

/** The lines of a job's output about its fork cache. */
const cacheLines = (run: FleetJob) => run.log.split("\n").filter((line) => line.includes("fork cache"));

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
  // Recordings by content digest, and the claims of the jobs that were about to record the block (lib/oci/claims.ts).
  const claims = tags.filter((tag) => !/^suite\.1\.\d+\.[a-f0-9]{16}$/.test(tag));
  expect(claims.every((tag) => new RegExp(`^suite\\.1\\.${BigInt(block)}\\.claim-\\d+-[a-f0-9]{16}$`).test(tag))).toBe(true);
  // The jobs of the wave shared: what a fork needs to mine was recorded by fewer jobs than there were (one, unless
  // two claimed in the same instant), the others waiting for its publish.
  expect(upstream.methods.slice(before, before + firstWave).filter((method) => method === "eth_feeHistory").length).toBeLessThan(
    first.length,
  );

  const mark = upstream.methods.length;
  const second = await Promise.all([job(env), job(env), job(env)]);
  // The recordings hold the network's chain id and the pinned block: a create asks the upstream nothing, and every
  // read of state comes from the shared recordings.
  const secondWave = upstream.methods.slice(mark);
  expect(secondWave).toEqual([]);
  for (const run of second) expect(run.answers).toEqual(first[0].answers);
  console.log(`fork cache: the first wave of 3 jobs asked the upstream ${firstWave} times, the second ${secondWave.length}`);

  // With the upstream gone (a URL nothing listens on), a job still answers the same bytes from the shared cache.
  const gone = await job(env, "http://127.0.0.1:9/gone");
  expect(gone.answers).toEqual(first[0].answers);
});

test("a registry that refuses the credentials or is down is one warning; the job runs cold", async () => {
  const refused = await job({ ...registryEnv(), CHAINFORM_OCI_PASSWORD: "wrong" });
  expect(refused.answers[0]).toContain('"result"');
  const warnings = cacheLines(refused);
  expect(warnings).toHaveLength(1);
  expect(warnings[0]).toMatch(/refused the credentials from CHAINFORM_OCI_USERNAME.*forks start cold/);
  expect(refused.log).not.toContain("wrong");

  const down = await job(registryEnv(), upstream.url, "oci://127.0.0.1:9/acme/gone:suite");
  expect(down.answers).toEqual(refused.answers);
  expect(cacheLines(down)).toHaveLength(1);
  expect(cacheLines(down)[0]).toMatch(/fork cache oci:\/\/127\.0\.0\.1:9\/acme\/gone:suite: .*forks start cold/);
});

test("an artifact of another kind under a recordings tag, and recordings naming another block than their tag, are one warning each and skipped; the job runs", async () => {
  const place = parseOciReference(`oci://${registry.host}/acme/damaged-cache:suite`);
  const options = {
    caFile: registry.caFile,
    credentials: { username: registry.username, password: registry.password, source: "test" },
  };
  const at = BigInt(block).toString();
  // A fixture where recordings should be (a manifest of the wrong kind)...
  await pushArtifact(
    { ...place, reference: `suite.1.${at}.0123456789abcdef` },
    FIXTURE_ARTIFACT,
    Buffer.from("{}"),
    { title: "x" },
    options,
  );
  // ...and recordings whose content names another block than their tag (a blob whose bytes do not match its digest is
  // refused the same way, by the pull test/oci-fixtures.test.ts tampers with).
  const other = Buffer.from(JSON.stringify({ network_id: "1", block_number: "999", answers: {} }));
  await pushArtifact({ ...place, reference: `suite.1.${at}.fedcba9876543210` }, RECORDINGS_ARTIFACT, other, { title: "y" }, options);
  const run = await job(registryEnv(), upstream.url, formatOciReference(place));
  expect(run.answers[0]).toContain('"result"');
  const warnings = cacheLines(run);
  expect(warnings).toHaveLength(2);
  expect(warnings.join("\n")).toMatch(
    /damaged-cache:suite\.1\.\d+\.0123456789abcdef is not a chainform fork recordings: its config is .*skipped/,
  );
  expect(warnings.join("\n")).toMatch(/name another network or block; skipped/);
});
