/**
 * `chainform serve` as a child process: the ready line, persistence of projects, environments, simulations and
 * action state across a restart, chains' acknowledged writes across a kill -9, `chainform token`, and a clean exit
 * on SIGTERM. Needs `npm run build` first
 * (`npm test` builds).
 */
import { spawn, execFile, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { promisify } from "node:util";
import { SqlDatabase } from "../lib/service/sqlite";

const BIN = join(__dirname, "..", "bin", "chainform");

interface Ready {
  event: "ready";
  baseUrl: string;
  accountSlug: string;
  projectSlug: string;
  accessKey: string;
  dashboardUrl: string;
}

interface Served {
  child: ChildProcess;
  ready: Ready;
  stderr: () => string;
}

const running = new Set<ChildProcess>();

async function serve(dataDir: string, env: Record<string, string> = {}): Promise<Served> {
  const child = spawn(process.execPath, [BIN, "serve", "--port", "0", "--data-dir", dataDir], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  running.add(child);
  child.once("exit", () => running.delete(child));
  let stderr = "";
  child.stderr!.on("data", (chunk) => (stderr += chunk));
  const lines = createInterface({ input: child.stdout! });
  const ready = await new Promise<Ready>((resolve, reject) => {
    lines.once("line", (line) => resolve(JSON.parse(line)));
    child.once("exit", (code) => reject(new Error(`serve exited with ${code} before ready: ${stderr}`)));
  });
  return { child, ready, stderr: () => stderr };
}

async function stop(served: Served): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    served.child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  served.child.kill("SIGTERM");
  return exited;
}

async function api(ready: Ready, method: string, path: string, body?: unknown, key = ready.accessKey) {
  const response = await fetch(`${ready.baseUrl}${path}`, {
    method,
    headers: { "x-access-key": key, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

let dataDir: string;
beforeAll(() => {
  dataDir = mkdtempSync(join(tmpdir(), "chainform-restart-"));
});
afterAll(() => {
  for (const child of running) child.kill("SIGKILL"); // only after a failure: a passing test stops its servers
  rmSync(dataDir, { recursive: true, force: true });
});

test("state survives a restart; SIGTERM exits cleanly", async () => {
  const first = await serve(dataDir);
  expect(first.ready).toMatchObject({ event: "ready", accountSlug: "acme", projectSlug: "demo" });
  expect(first.ready.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  expect(first.ready.accessKey).toMatch(/^cf_[A-Za-z0-9_-]{43}$/);
  expect(first.ready.dashboardUrl.startsWith(`${first.ready.baseUrl}/dashboard/login?token=`)).toBe(true);
  const signIn = await fetch(first.ready.dashboardUrl, { redirect: "manual" });
  expect([signIn.status, signIn.headers.get("location")]).toEqual([303, "/dashboard/"]);
  expect((await fetch(first.ready.dashboardUrl, { redirect: "manual" })).status).toBe(401); // single use
  const projectPath = `/v1/account/${first.ready.accountSlug}/project/${first.ready.projectSlug}`;
  const envPath = `/public${projectPath}/environments`;

  const environment = await api(first.ready, "POST", envPath, {
    display_name: "Survivor",
    network_configs: [{ network_id: "1", block_number: "0x10" }, { network_id: "10" }],
    bridge_config: { enabled: true },
  });
  expect(environment.status).toBe(200);
  const simulation = await api(first.ready, "POST", `${projectPath}/simulate`, {
    network_id: "1",
    from: `0x${"11".repeat(20)}`,
    to: `0x${"22".repeat(20)}`,
    save: true,
  });
  expect(simulation.status).toBe(200);
  const actionId = actionsByStatus("running")[0];
  expect((await api(first.ready, "POST", `${projectPath}/actions/action/${actionId}/stop`)).status).toBe(200);
  const projectsBefore = (await api(first.ready, "GET", `/v1/account/acme/projects`)).body;

  expect(await stop(first)).toEqual({ code: 0, signal: null });

  const second = await serve(dataDir);
  try {
    expect(second.ready.accessKey).toBe(first.ready.accessKey);
    const got = await api(second.ready, "GET", `${envPath}/${environment.body.id}`);
    expect(got.status).toBe(200);
    const withoutUrls = (e: { active_instance: { vnets: { rpcs: { url: string }[] }[] } }) =>
      JSON.stringify(e)
        .replaceAll(first.ready.baseUrl, "BASE")
        .replaceAll(second.ready.baseUrl, "BASE")
        .replaceAll(first.ready.baseUrl.replace(/^http/, "ws"), "BASE")
        .replaceAll(second.ready.baseUrl.replace(/^http/, "ws"), "BASE");
    expect(withoutUrls(got.body)).toBe(withoutUrls(environment.body));
    expect((await api(second.ready, "GET", `${projectPath}/simulations`)).body.simulations.map((s: { id: string }) => s.id)).toEqual([
      simulation.body.simulation.id,
    ]);
    expect((await api(second.ready, "GET", `/v1/account/acme/projects`)).body).toEqual(projectsBefore);
    expect(actionsByStatus("stopped")).toContain(actionId);
    expect(actionsByStatus("running")).not.toContain(actionId);

    const token = await promisify(execFile)(process.execPath, [BIN, "token", "--data-dir", dataDir, "--user", "bob"]);
    const asBob = await fetch(`${second.ready.baseUrl}/v1/account/acme/projects`, {
      headers: { authorization: `Bearer ${token.stdout.trim()}` },
    });
    expect(asBob.status).toBe(200);
  } finally {
    expect(await stop(second)).toEqual({ code: 0, signal: null });
  }
  expect(second.stderr()).not.toContain(first.ready.accessKey);
}, 60_000);

test("writes acknowledged just before a kill -9 of the service survive it, with their records (the write journal)", async () => {
  const dir = mkdtempSync(join(tmpdir(), "chainform-restart-kill-"));
  const funded = "0x00000000000000000000000000000000000f00d5";
  const first = await serve(dir);
  const envPath = `/public/v1/account/${first.ready.accountSlug}/project/${first.ready.projectSlug}/environments`;
  const environment = await api(first.ready, "POST", envPath, {
    display_name: "Journal",
    network_configs: [{ network_id: "1", accounts: [{ address: funded, balance: "0xd3c21bcecceda1000000" }] }],
  });
  expect(environment.status).toBe(200);
  const adminPath = new URL(environment.body.active_instance.vnets[0].rpcs.find((r: { name: string }) => r.name === "Admin RPC").url)
    .pathname;
  const call = async (ready: Ready, method: string, params: unknown[]) => {
    const response = await fetch(`${ready.baseUrl}${adminPath}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
    });
    return (await response.json()) as { result?: any; error?: { message: string } };
  };
  // GIVEN writes the service acknowledged: a cheatcode and a transaction
  expect(await call(first.ready, "tenderly_setBalance", [`0x${"ab".repeat(20)}`, "0x1234"])).toMatchObject({ result: null });
  const sent = await call(first.ready, "eth_sendTransaction", [{ from: funded, to: `0x${"cd".repeat(20)}`, value: "0x77" }]);
  expect(sent.result).toMatch(/^0x[0-9a-f]{64}$/);
  const record = await api(
    first.ready,
    "GET",
    `${envPath}/${environment.body.id}/instance/${environment.body.active_instance.id}/transactions/${sent.result}`,
  );
  expect(record.status).toBe(200);
  // WHEN the service is killed (no state saved: its chain's supervisor sees the pipe close, but nobody commits the dump)
  const killed = new Promise((resolve) => first.child.once("exit", resolve));
  first.child.kill("SIGKILL");
  await killed;
  // THEN after a restart the chain has both writes, and the transaction is in the block its record names
  const second = await serve(dir);
  try {
    expect(await call(second.ready, "eth_getBalance", [`0x${"ab".repeat(20)}`, "latest"])).toMatchObject({ result: "0x1234" });
    expect(await call(second.ready, "eth_getBalance", [`0x${"cd".repeat(20)}`, "latest"])).toMatchObject({ result: "0x77" });
    const onChain = await call(second.ready, "eth_getTransactionByHash", [sent.result]);
    expect(onChain.result).toMatchObject({ hash: sent.result, blockNumber: record.body.block_number });
    if (record.body.block_hash) expect(onChain.result.blockHash).toBe(record.body.block_hash);
  } finally {
    expect(await stop(second)).toEqual({ code: 0, signal: null });
    rmSync(dir, { recursive: true, force: true });
  }
}, 60_000);

test("CHAINFORM_ACCESS_KEY fixes the first user's key", async () => {
  const served = await serve(dataDir, { CHAINFORM_ACCESS_KEY: "cf_fixed_for_this_test" });
  try {
    expect(served.ready.accessKey).toBe("cf_fixed_for_this_test");
    expect((await api(served.ready, "GET", "/v1/account/acme/projects")).status).toBe(200);
  } finally {
    await stop(served);
  }
}, 30_000);

/** Ids of the seeded Web3 Actions in a state, read from the data dir's database (there is no GET for actions). */
function actionsByStatus(status: "running" | "stopped"): string[] {
  const db = SqlDatabase.open(join(dataDir, "chainform.db"), { readonly: true });
  try {
    return (db.prepare("SELECT id FROM actions WHERE status = ?").all(status) as { id: string }[]).map((r) => r.id);
  } finally {
    db.close();
  }
}
