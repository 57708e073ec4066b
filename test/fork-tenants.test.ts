/**
 * Issue 47.3: a fixture's fork recordings belong to the environment its import creates. A writer of another
 * organization imports a fixture whose recordings say an account holds 0x666666 at block N of network 1, where the
 * upstream says 0x5678, and another fixture at a newer block; an environment of a restricted project forking network 1
 * at N reads the upstream's value, live and offline, its export carries none of the planted answers, an imported block
 * is no one else's default fork point, and the importer's own environment still replays its fixture offline.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEFAULT_SEED, type Seed } from "../lib/service/seed";
import { callKey } from "../lib/service/chains/fork";
import { readFixture, writeFixture } from "../lib/service/environment-files";
import { adminRpc, call, rpc } from "./helpers/http";
import { ALICE, DEPLOYER, TOKEN, startForkUpstream, type ForkUpstream } from "./helpers/fork-upstream";
import { serviceRuns, type TestService } from "./helpers/service";
import { ENVIRONMENTS, exportFixture } from "./helpers/fixtures";
import { encodeFunctionData } from "./helpers/viem";

jest.setTimeout(300_000);

const BEEF = "0x000000000000000000000000000000000000beef";
const PLANTED = "0x666666";
const VICTIM_ENVIRONMENTS = "/public/v1/account/acme/project/secret-sauce/environments";
const MALLORY_ENVIRONMENTS = "/public/v1/account/mallory-corp/project/lair/environments";

/** The default seed and another organization, whose owner may write to its own project only. */
const SEED: Seed = {
  ...DEFAULT_SEED,
  users: [
    ...DEFAULT_SEED.users,
    { username: "mallory", first_name: "Mallory", last_name: "M", email: "mallory@elsewhere.example", read_only: false },
  ],
  organizations: [
    ...DEFAULT_SEED.organizations,
    { slug: "mallory-corp", members: [{ username: "mallory", role: "owner", accepted: true }] },
  ],
  projects: [
    ...DEFAULT_SEED.projects,
    { account: "mallory-corp", slug: "lair", name: "Lair", restricted: false, members: [{ username: "mallory", accepted: true }] },
  ],
};

const runs = serviceRuns();
let upstream: ForkUpstream;
let root: string;
/** The block at which the upstream gave BEEF 0x5678. */
let block: bigint;
const hex = (n: bigint) => `0x${n.toString(16)}`;

beforeAll(async () => {
  upstream = await startForkUpstream();
  root = mkdtempSync(join(tmpdir(), "chainform-fork-tenants-"));
  const sent = await upstream.node.rpc.request<{ blockNumber: string }>("eth_sendTransactionSync", [
    { from: DEPLOYER, to: BEEF, value: "0x5678" },
  ]);
  block = BigInt(sent.blockNumber);
});

afterAll(async () => {
  await runs.closeAll();
  await upstream?.close();
  rmSync(root, { recursive: true, force: true });
});

/** Creates an environment forking network 1 (at `at` when given) under a project's environments path. */
async function createFork(service: TestService, path: string, as: string, slug: string, at?: bigint) {
  const created = await call(service, "POST", path, {
    as,
    body: { display_name: slug, slug, network_configs: [{ network_id: "1", ...(at !== undefined && { block_number: hex(at) }) }] },
  });
  if (created.status !== 200) throw new Error(`create ${slug}: ${created.status} ${created.text}`);
  return created.body as { id: string; networks: { block_number: string }[]; active_instance: any };
}

/** An environment as a service answers it now (its RPC URLs are on that service's port). */
async function environmentOf(service: TestService, path: string, as: string, id: string) {
  const got = await call(service, "GET", `${path}/${id}`, { as });
  if (got.status !== 200) throw new Error(`get ${id}: ${got.status} ${got.text}`);
  return got.body as { id: string; active_instance: any };
}

/** POST .../import of a file as a user, under a project's environments path. */
async function importAs(service: TestService, path: string, as: string, file: Buffer) {
  const response = await fetch(`${service.baseUrl}${path}/import`, {
    method: "POST",
    headers: { ...service.headersOf(as), "content-type": "application/octet-stream" },
    body: file,
  });
  const body = (await response.json()) as any;
  if (response.status !== 201) throw new Error(`import: ${response.status} ${JSON.stringify(body)}`);
  return body as { id: string; active_instance: any };
}

/** The export of an environment of a project, as a user. */
async function exportAs(service: TestService, path: string, as: string, environmentId: string): Promise<Buffer> {
  const response = await fetch(`${service.baseUrl}${path}/${environmentId}/export`, { headers: service.headersOf(as) });
  if (response.status !== 200) throw new Error(`export: ${response.status} ${await response.text()}`);
  return Buffer.from(await response.arrayBuffer());
}

const tokenBalance = (url: string, holder: string) =>
  rpc<string>(url, "eth_call", [
    { to: upstream.history.token, data: encodeFunctionData({ abi: TOKEN.abi, functionName: "balanceOf", args: [holder] }) },
    "latest",
  ]);

/**
 * The attacker's files: a real fork of network 1 at `block` exported by a service of its own (it read the token, so
 * the file replays that read), its recordings then edited to say BEEF holds 0x666666; and the same moved to a newer
 * block the upstream never reached.
 */
async function hostileFixtures(): Promise<{ planted: Buffer; newer: Buffer; tokenAtBlock: string }> {
  const factory = await runs.start({ dataDir: join(root, "factory"), forkUrls: { "1": upstream.url } });
  const made = await createFork(factory, ENVIRONMENTS, "alice", "app", block);
  const tokenAtBlock = await tokenBalance(adminRpc(made), ALICE);
  const content = readFixture(await exportFixture(factory, made.id), "the factory's export");
  await runs.stop(factory);
  const at = hex(block);
  const plant = (answers: Readonly<Record<string, unknown>>, blockHex: string) => ({
    ...answers,
    [callKey("eth_getBalance", [BEEF, blockHex])]: { result: PLANTED },
    [callKey("eth_getTransactionCount", [BEEF, blockHex])]: { result: "0x0" },
    [callKey("eth_getCode", [BEEF, blockHex])]: { result: "0x" },
    [callKey("eth_getAccountInfo", [BEEF, blockHex])]: { result: { balance: PLANTED, nonce: "0x0", code: "0x" } },
  });
  const planted = writeFixture({
    ...content,
    slug: "planted",
    recordings: content.recordings.map((r) => ({ ...r, answers: plant(r.answers, at) })),
  });
  const later = block + 1000n;
  const newer = writeFixture({
    ...content,
    slug: "newer",
    vnets: content.vnets.map((v) => ({ ...v, blockNumber: hex(later) })),
    recordings: content.recordings.map((r) => ({ ...r, block: later.toString(), answers: plant(r.answers, hex(later)) })),
  });
  return { planted, newer, tokenAtBlock };
}

test("another tenant's imported recordings never reach a fork of the same network and block, live or offline", async () => {
  const { planted, newer, tokenAtBlock } = await hostileFixtures();
  const dataDir = join(root, "shared");
  const live = await runs.start({ dataDir, seed: SEED, forkUrls: { "1": upstream.url } });
  const attacker = await importAs(live, MALLORY_ENVIRONMENTS, "mallory", planted);
  await importAs(live, MALLORY_ENVIRONMENTS, "mallory", newer);

  // Live: the victim, in a restricted project of another organization, reads the upstream's value.
  const victim = await createFork(live, VICTIM_ENVIRONMENTS, "alice", "victim", block);
  expect(await rpc(adminRpc(victim), "eth_getBalance", [BEEF, "latest"])).toBe("0x5678");
  // With a live upstream, the importer's own planted answer does not shadow it either.
  expect(await rpc(adminRpc(attacker), "eth_getBalance", [BEEF, "latest"])).toBe("0x5678");
  const victimExport = readFixture(await exportAs(live, VICTIM_ENVIRONMENTS, "alice", victim.id), "the victim's export");
  expect(JSON.stringify(victimExport.recordings)).not.toContain(PLANTED);
  expect(victimExport.recordings[0]!.answers[callKey("eth_getBalance", [BEEF, hex(block)])]).toEqual({ result: "0x5678" });
  await runs.stop(live);

  // The service-wide recordings hold upstream answers only, and no block but the one an upstream answered.
  const cacheDir = join(dataDir, "fork-cache", "1");
  expect(readdirSync(cacheDir).filter((name) => /^\d+\.json$/.test(name))).toEqual([`${block}.json`]);
  expect(readFileSync(join(cacheDir, `${block}.json`), "utf8")).not.toContain(PLANTED);

  // Offline on the same data dir: the victim's forks read the upstream's recorded value, and are forked at its block.
  const offline = await runs.start({ dataDir, seed: SEED, offline: true });
  const victimNow = await environmentOf(offline, VICTIM_ENVIRONMENTS, "alice", victim.id);
  expect(await rpc(adminRpc(victimNow), "eth_getBalance", [BEEF, "latest"])).toBe("0x5678");
  const fresh = await createFork(offline, VICTIM_ENVIRONMENTS, "alice", "victim-2", block);
  expect(await rpc(adminRpc(fresh), "eth_getBalance", [BEEF, "latest"])).toBe("0x5678");
  const unpinned = await createFork(offline, VICTIM_ENVIRONMENTS, "alice", "victim-3");
  expect(unpinned.networks[0]!.block_number).toBe(hex(block)); // not the attacker's newer block
  // The token read only the attacker's fixture recorded is no one else's: never recorded, for the victim.
  await expect(tokenBalance(adminRpc(fresh), ALICE)).rejects.toThrow(/never recorded/);
  const offlineExport = readFixture(await exportAs(offline, VICTIM_ENVIRONMENTS, "alice", fresh.id), "the victim's export");
  expect(JSON.stringify(offlineExport.recordings)).not.toContain(PLANTED);

  // The importer's own environment replays its fixture offline: the read its fixture recorded answers as upstream did.
  const attackerNow = await environmentOf(offline, MALLORY_ENVIRONMENTS, "mallory", attacker.id);
  expect(await tokenBalance(adminRpc(attackerNow), ALICE)).toBe(tokenAtBlock);
  // A clone takes them along, for itself.
  const cloned = await call(offline, "POST", `${MALLORY_ENVIRONMENTS}/${attacker.id}/clone`, {
    as: "mallory",
    body: { display_name: "copy" },
  });
  expect(cloned.status).toBe(201);
  expect(await tokenBalance(adminRpc(cloned.body as any), ALICE)).toBe(tokenAtBlock);
  // Its recordings go with it: deleted, nothing of them stays in the data dir.
  const deleted = await call(offline, "DELETE", `${MALLORY_ENVIRONMENTS}/${attacker.id}`, { as: "mallory" });
  expect(deleted.status).toBeLessThan(300);
  const importedDir = join(dataDir, "imported-recordings");
  const left = readdirSync(importedDir).map((name) => readFileSync(join(importedDir, name), "utf8"));
  expect(left.filter((text) => text.includes(PLANTED))).toHaveLength(2); // the clone's and the "newer" environment's
  await runs.stop(offline);
});
