/**
 * The chains of `chainform serve` (real processes, real anvil): state files of deleted environments do not survive a
 * kill -9 during a batch delete, and `--max-chains` caps the chains running at once (the idlest is stopped with its
 * state kept; a start is refused with a clear error when every running chain is busy).
 */
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { randomUUID } from "node:crypto";
import { tmpdir } from "node:os";
import { join } from "node:path";
import WebSocket from "ws";
import { SqlDatabase } from "../lib/service/sqlite";
import { api, environmentsPath, killAllServed, rpc, startServe, stopServe, type Ready } from "./service-process";

let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "chainform-chains-"));
});
afterAll(() => {
  killAllServed();
  rmSync(root, { recursive: true, force: true });
});

/** Process ids of the anvil processes whose command line names this data dir. */
function anvilsOf(dataDir: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const argv = readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0");
      if (argv[0].endsWith("anvil") && argv.some((arg) => arg.startsWith(dataDir))) pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let i = 0; !condition(); i++) {
    if (i > 6000) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** The RPC URL of an environment's first vnet on the service as it runs now. */
function rpcUrl(ready: Ready, environment: any, name: string): string {
  const url = new URL(environment.active_instance.vnets[0].rpcs.find((r: { name: string }) => r.name === name).url as string);
  return `${ready.baseUrl}${url.pathname}`;
}

async function createEnvironments(ready: Ready, count: number, prefix: string): Promise<any[]> {
  const created: any[] = [];
  for (let i = 0; i < count; i++) {
    const answer = await api(ready, "POST", environmentsPath(ready), {
      display_name: `${prefix}-${i}`,
      network_configs: [{ network_id: "1" }],
    });
    expect(answer.status).toBe(200);
    created.push(answer.body);
  }
  return created;
}

async function inBatches<T>(items: readonly T[], size: number, work: (item: T) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map(work));
}

test("kill -9 during a batch delete: after a restart no state file of a deleted environment is left", async () => {
  const dataDir = join(root, "sigkill");
  const chainsDir = join(dataDir, "chains");
  // GIVEN 24 environments whose chains have saved state, and 12 of them running
  let served = startServe(["--data-dir", dataDir]);
  let ready = await served.ready;
  const environments = await createEnvironments(ready, 24, "doomed");
  await inBatches(environments, 4, (e) =>
    rpc(rpcUrl(ready, e, "Admin RPC"), "tenderly_setBalance", ["0x00000000000000000000000000000000000c0ffe", "0x111"]),
  );
  await stopServe(served);
  expect(readdirSync(chainsDir).filter((name) => name.endsWith(".json"))).toHaveLength(24);
  // (a state file kept aside, to plant an orphan below whatever the kill leaves: the delete may finish first)
  const keptState = join(root, "kept-state.json");
  copyFileSync(join(chainsDir, `${environments[0].active_instance.vnets[0].id}.json`), keptState);
  served = startServe(["--data-dir", dataDir]);
  ready = await served.ready;
  await inBatches(environments.slice(0, 12), 4, (e) => rpc(rpcUrl(ready, e, "Admin RPC"), "eth_chainId"));
  // WHEN a batch delete of all of them is under way (its rows are committed) and the service is SIGKILLed
  const db = SqlDatabase.open(join(dataDir, "chainform.db"), { readonly: true });
  const count = () => (db.prepare("SELECT count(*) AS n FROM environments").get() as { n: number }).n;
  const before = count();
  void api(ready, "DELETE", environmentsPath(ready), { environment_ids: environments.map((e) => e.id) }).catch(() => undefined);
  await until(() => count() < before, "the delete to commit");
  served.child.kill("SIGKILL");
  await served.exited;
  db.close();
  // (its chains, told by their supervisors, stop on their own and may write state as they go)
  await until(() => anvilsOf(dataDir).length === 0, "the chains of the killed service to exit");
  // and a crash also left the state of a long-deleted environment and a half-written dump
  const orphan = join(chainsDir, `${randomUUID()}.json`);
  copyFileSync(keptState, orphan);
  copyFileSync(orphan, `${orphan}.12345-1.tmp`);
  // THEN after a restart the chains dir holds no state of a deleted environment
  served = startServe(["--data-dir", dataDir]);
  ready = await served.ready;
  try {
    const left = (await api(ready, "GET", `${environmentsPath(ready)}?perPage=100`)).body.environments as any[];
    const liveVnets = new Set(left.flatMap((e) => e.active_instance.vnets.map((v: { id: string }) => v.id)));
    const files = readdirSync(chainsDir);
    expect(files.filter((name) => !liveVnets.has(name.replace(/\.json$/, "")))).toEqual([]);
  } finally {
    await stopServe(served);
  }
});

describe("--max-chains", () => {
  const ADDRESS = "0x00000000000000000000000000000000000c0ffe";

  test("beyond the cap the idlest chain is stopped (state kept); a chain held only by subscribers goes last, never blocks a start", async () => {
    const dataDir = join(root, "cap");
    const served = startServe(["--data-dir", dataDir, "--max-chains", "2"]);
    const ready = await served.ready;
    const sockets: WebSocket[] = [];
    try {
      const [a, b, c] = await createEnvironments(ready, 3, "capped");
      // a and b run; a gets a balance, then b is used after it, so a is the idlest
      expect((await rpc(rpcUrl(ready, a, "Admin RPC"), "tenderly_setBalance", [ADDRESS, "0x111"])).error).toBeUndefined();
      expect((await rpc(rpcUrl(ready, b, "Admin RPC"), "eth_chainId")).result).toBe("0x1");
      expect(anvilsOf(dataDir)).toHaveLength(2);
      // WHEN c starts THEN a third chain never runs: a was stopped
      expect((await rpc(rpcUrl(ready, c, "Public RPC"), "eth_chainId")).result).toBe("0x1");
      await until(() => anvilsOf(dataDir).length <= 2, "the idlest chain to stop");
      expect(anvilsOf(dataDir)).toHaveLength(2);
      // and a starts again with its state (stopping b, now the idlest)
      expect(await rpc(rpcUrl(ready, a, "Public RPC"), "eth_getBalance", [ADDRESS, "latest"])).toMatchObject({ result: "0x111" });
      expect(anvilsOf(dataDir).length).toBeLessThanOrEqual(2);

      // WHEN both running chains are held only by subscriptions THEN a third still starts: subscribers never keep every
      // other chain from running (issue 47.11); the subscriber of the chain stopped for it is told why (1011)
      const closes: Promise<number>[] = [];
      for (const environment of [a, c]) {
        const socket = new WebSocket(rpcUrl(ready, environment, "Public RPC").replace(/^http/, "ws"));
        sockets.push(socket);
        await new Promise((resolve, reject) => socket.once("open", resolve).once("error", reject));
        closes.push(new Promise<number>((resolve) => socket.once("close", (code) => resolve(code))));
        const subscribed = new Promise<any>((resolve) => socket.once("message", (data) => resolve(JSON.parse(data.toString()))));
        socket.send(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_subscribe", params: ["newHeads"] }));
        expect((await subscribed).result).toEqual(expect.any(String));
      }
      expect((await rpc(rpcUrl(ready, b, "Public RPC"), "eth_chainId")).result).toBe("0x1");
      expect(await Promise.race(closes)).toBe(1011);
      await until(() => anvilsOf(dataDir).length <= 2, "the subscribed chain to stop");
      expect(anvilsOf(dataDir).length).toBeLessThanOrEqual(2);
    } finally {
      for (const socket of sockets) socket.close();
      await stopServe(served);
    }
  });
});
