/**
 * Exactly once (docs/chain-state.md "What survives what"): the service SIGKILLed at each step of a chain's save, while
 * it runs and as it stops, then started again: every acknowledged write is on the chain once, never twice, with its
 * transaction's hash. Real service over HTTP (test/chains-save-crash-child.ts), real anvil, real database.
 *
 * The workload is the one that found the fault (issue 47, item 5): `tenderly_addBalance` of 1 wei and transfers of
 * 1 wei, here each to an address of its own, so that every write is counted by itself.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { stateGeneration } from "../lib/service/chains/node/state-files";
import { SqlDatabase } from "../lib/service/sqlite";
import { temporaryDataDir } from "./chains-host";

const CHILD = join(__dirname, "chains-save-crash-child.ts");
/** A running chain is saved every this many writes. */
const SAVE_AFTER_WRITES = 10;
/** Writes per run: not a multiple of the above, so that no save is under way when the service is told to stop. */
const WRITES = 45;
const FUNDED = "0x00000000000000000000000000000000000f00d5";

interface Ready {
  readonly baseUrl: string;
  readonly accessKey: string;
  readonly accountSlug: string;
  readonly projectSlug: string;
}

interface Child {
  readonly process: ChildProcess;
  readonly ready: Promise<Ready>;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const children = new Set<ChildProcess>();
const dataDirs: string[] = [];
afterAll(() => {
  for (const child of children) child.kill("SIGKILL"); // only after a failure
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
});

function startChild(dataDir: string, crash: readonly string[] = []): Child {
  const child = spawn(process.execPath, ["--import", "tsx", CHILD, dataDir, String(SAVE_AFTER_WRITES), ...crash], {
    stdio: ["ignore", "pipe", "pipe"],
    cwd: join(__dirname, ".."),
  });
  children.add(child);
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => {
      children.delete(child);
      resolve({ code, signal });
    }),
  );
  const ready = new Promise<Ready>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once("line", (line) => resolve(JSON.parse(line) as Ready));
    void exited.then(({ code, signal }) => reject(new Error(`the service exited (${code ?? signal}) before listening: ${stderr}`)));
  });
  ready.catch(() => undefined);
  return { process: child, ready, exited };
}

async function createEnvironment(ready: Ready): Promise<{ vnetId: string; adminPath: string }> {
  const response = await fetch(`${ready.baseUrl}/public/v1/account/${ready.accountSlug}/project/${ready.projectSlug}/environments`, {
    method: "POST",
    headers: { "x-access-key": ready.accessKey, "content-type": "application/json" },
    body: JSON.stringify({
      display_name: "exactly once",
      network_configs: [{ network_id: "1", accounts: [{ address: FUNDED, balance: "0xde0b6b3a7640000" }] }],
    }),
  });
  expect(response.status).toBe(200);
  const vnet = ((await response.json()) as any).active_instance.vnets[0];
  return { vnetId: vnet.id, adminPath: new URL(vnet.rpcs.find((r: { name: string }) => r.name === "Admin RPC").url).pathname };
}

/** One call through the Admin RPC of the service as it runs now; throws when the service is gone. */
async function call<T>(ready: Ready, adminPath: string, method: string, params: unknown[]): Promise<{ result?: T; error?: unknown }> {
  const response = await fetch(`${ready.baseUrl}${adminPath}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  return (await response.json()) as { result?: T; error?: unknown };
}

const recipient = (i: number) => `0x${(0xe0000000n + BigInt(i)).toString(16).padStart(40, "0")}`;

/** Journal rows of a vnet and the generation its saved state holds, read from the data dir of a dead service. */
function journalAndState(dataDir: string, vnetId: string): { rows: number[]; generation: number } {
  const db = SqlDatabase.open(join(dataDir, "chainform.db"), { readonly: true });
  try {
    const rows = (db.prepare("SELECT seq FROM chain_journal WHERE vnet_id = ? ORDER BY seq").all(vnetId) as { seq: number }[]).map((row) =>
      Number(row.seq),
    );
    return { rows, generation: stateGeneration(join(dataDir, "chains", `${vnetId}.json`)) };
  } finally {
    db.close();
  }
}

/** Every write on the chain once at most, every acknowledged one once, each transfer's transaction with its hash. */
async function expectExactlyOnce(ready: Ready, adminPath: string, acknowledged: Map<number, string | null>): Promise<void> {
  const balances: bigint[] = [];
  for (let i = 0; i < WRITES; i++)
    balances.push(BigInt((await call<string>(ready, adminPath, "eth_getBalance", [recipient(i), "latest"])).result!));
  expect(balances.filter((balance) => balance > 1n)).toEqual([]);
  for (const i of acknowledged.keys()) expect({ write: i, balance: balances[i] }).toEqual({ write: i, balance: 1n });
  // At most the write in flight at the kill is on the chain unacknowledged (it ran; its answer was lost).
  expect(balances.filter((balance, i) => balance === 1n && !acknowledged.has(i)).length).toBeLessThanOrEqual(1);
  // One nonce per transfer on the chain: none sent twice.
  const transfers = balances.filter((balance, i) => i % 2 === 1 && balance === 1n).length;
  const nonce = BigInt((await call<string>(ready, adminPath, "eth_getTransactionCount", [FUNDED, "latest"])).result!);
  expect(nonce).toBe(BigInt(transfers));
  for (const [i, hash] of acknowledged) {
    if (hash === null) continue;
    const onChain = (await call<{ to: string } | null>(ready, adminPath, "eth_getTransactionByHash", [hash])).result;
    expect({ write: i, to: onChain?.to }).toEqual({ write: i, to: recipient(i) });
  }
}

/** [step of the save, when ("running": the second save due to writes; "stop": the save at SIGTERM), occurrence]. */
const CRASHES: readonly [string, "running" | "stop", number][] = [
  // the chain's first save (it is fresh) is the first occurrence; the writes' first save the second
  ["state-written", "running", 3],
  ["state-renamed", "running", 3],
  ["journal-cleared", "running", 3],
  ["state-written", "stop", 1],
  ["state-renamed", "stop", 1],
];

test.each(CRASHES)(
  "kill -9 of the service at %s of a save (%s): every acknowledged write on the chain exactly once after a restart",
  async (step, when, occurrence) => {
    const dataDir = temporaryDataDir();
    dataDirs.push(dataDir);
    // GIVEN a service that dies at that step of a save
    let child = startChild(dataDir, [step, when, String(occurrence)]);
    let ready = await child.ready;
    const { vnetId, adminPath } = await createEnvironment(ready);
    // WHEN writes are sent one at a time until it dies (or all are sent and it is told to stop)
    const acknowledged = new Map<number, string | null>();
    for (let i = 0; i < WRITES; i++) {
      const [method, params] =
        i % 2 === 0
          ? ["tenderly_addBalance", [recipient(i), "0x1"]]
          : ["eth_sendTransaction", [{ from: FUNDED, to: recipient(i), value: "0x1" }]];
      const answer = await call<string | null>(ready, adminPath, method, params).catch(() => null);
      if (answer === null) break; // the service is gone
      expect(answer.error).toBeUndefined();
      acknowledged.set(i, method === "eth_sendTransaction" ? (answer.result as string) : null);
    }
    if (when === "stop") {
      expect(acknowledged.size).toBe(WRITES);
      child.process.kill("SIGTERM");
    }
    expect(await child.exited).toEqual({ code: null, signal: "SIGKILL" });
    expect(acknowledged.size).toBeGreaterThanOrEqual(when === "stop" ? WRITES : 2 * SAVE_AFTER_WRITES);
    // the kill left what it was meant to: the save's rows journaled, and in the state on disk after the rename only
    const { rows, generation } = journalAndState(dataDir, vnetId);
    const held = rows.filter((seq) => seq <= generation).length;
    if (step === "state-written") expect({ held, after: rows.length - held }).toEqual({ held: 0, after: rows.length });
    if (step === "state-renamed") expect({ held, after: rows.length - held }).toEqual({ held: rows.length, after: 0 });
    if (step === "journal-cleared") expect(rows).toEqual([]);
    expect(rows.length).toBe(step === "journal-cleared" ? 0 : when === "stop" ? WRITES % SAVE_AFTER_WRITES : SAVE_AFTER_WRITES);

    // THEN after a restart every acknowledged write is on the chain once
    child = startChild(dataDir);
    ready = await child.ready;
    await expectExactlyOnce(ready, adminPath, acknowledged);
    // and still after a clean stop and start (the start saved the state again and cleared what it held)
    child.process.kill("SIGTERM");
    expect(await child.exited).toEqual({ code: 0, signal: null });
    expect(journalAndState(dataDir, vnetId).rows).toEqual([]);
    child = startChild(dataDir);
    ready = await child.ready;
    await expectExactlyOnce(ready, adminPath, acknowledged);
    child.process.kill("SIGTERM");
    expect(await child.exited).toEqual({ code: 0, signal: null });
  },
  120_000,
);
