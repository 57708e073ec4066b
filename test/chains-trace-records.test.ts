/**
 * Traces are records (docs/service.md "Running chains"): the call trace of a mined transaction (the callTracer tree
 * with its logs) is kept when it is mined, and the explorer's reads (lib/web/chain-reader.ts through
 * lib/service/web-interface.ts) give the same trace before and after an idle stop, a `kill -9` of the chain's anvil, a
 * restart, an export/import and a clone,
 * where the reloaded chain itself can no longer trace it. Real anvil, through the service over HTTP.
 */
import { rmSync } from "node:fs";
import { createAnvilEngine, type BackendChainEngine } from "../lib/service/chains";
import type { CallFrame } from "../lib/service/chains";
import { serviceForWeb } from "../lib/service/web-interface";
import { ChainReader } from "../lib/web/chain-reader";
import { temporaryDataDir } from "./chains-host";
import { DEPLOYER, ENVIRONMENTS, createEnvironment, exportFixture, importFixture, type CreatedEnvironment } from "./helpers/fixtures";
import { adminRpc, call, rpc } from "./helpers/http";
import { serviceRuns, type TestService } from "./helpers/service";

jest.setTimeout(240_000);

/**
 * A contract whose every call emits a log (LOG0) and calls the identity precompile: a trace with a log and a nested
 * frame. Runtime: PUSH1 0 PUSH1 0 LOG0, CALL(gas 0xffff, 0x04, 0, 0, 0, 0, 0), STOP; init code copies and returns it.
 */
const RUNTIME = `60006000a0${"6000".repeat(5)}600461ffffF100`.toLowerCase();
const INIT = `0x6016600c60003960166000f3${RUNTIME}`;

const runs = serviceRuns();
const dataDir = temporaryDataDir();
const targetDir = temporaryDataDir();
afterAll(async () => {
  await runs.closeAll();
  for (const dir of [dataDir, targetDir]) rmSync(dir, { recursive: true, force: true });
});

const engineOf = (service: TestService) => service.app.service.engine as BackendChainEngine;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What the explorer's transaction page reads: the transaction, its receipt and its trace. */
async function pageTrace(service: TestService, vnetId: string, hash: string): Promise<CallFrame | null> {
  const web = serviceForWeb(service.app.service.store, service.app.service.engine);
  return (await new ChainReader(web.chains, vnetId).transaction(hash))?.trace ?? null;
}

async function sendAndWait(url: string, tx: Record<string, string>): Promise<{ hash: string; contractAddress: string | null }> {
  const hash = await rpc<string>(url, "eth_sendTransaction", [{ from: DEPLOYER, ...tx }]);
  for (let i = 0; i < 200; i++) {
    const receipt = await rpc<{ contractAddress: string | null; status: string } | null>(url, "eth_getTransactionReceipt", [hash]);
    if (receipt) return { hash, contractAddress: receipt.contractAddress };
    await pause(50);
  }
  throw new Error(`${hash} was not mined`);
}

test("a transaction's trace is the same before and after an idle stop, a kill -9, a restart, an export/import and a clone", async () => {
  let service = await runs.start({ dataDir, createChainEngine: (host) => createAnvilEngine(host, { idleTimeoutMs: 1_500 }) });
  const environment: CreatedEnvironment = await createEnvironment(service, "Traced", [{ network_id: "1" }]);
  const vnetId = environment.active_instance.vnets[0].id;
  const url = adminRpc(environment);
  const { contractAddress } = await sendAndWait(url, { data: INIT });
  const { hash } = await sendAndWait(url, { to: contractAddress!, data: "0x" });
  await engineOf(service).flushTraces(vnetId);

  const fromChain = await rpc<CallFrame>(url, "debug_traceTransaction", [hash, { tracer: "callTracer", tracerConfig: { withLog: true } }]);
  expect(fromChain.logs).toHaveLength(1);
  expect(fromChain.calls?.[0]?.to).toBe("0x0000000000000000000000000000000000000004");
  const before = await pageTrace(service, vnetId, hash);
  expect(before).toEqual(fromChain);
  expect(engineOf(service).storedTrace(vnetId, hash)).toEqual(fromChain);

  // An idle stop: the chain is loaded from its saved state at the next read.
  await waitFor(() => engineOf(service).runningNode(vnetId) === null);
  expect(await pageTrace(service, vnetId, hash)).toEqual(before);

  // A kill -9 of the chain's anvil right after a transaction, before its trace is taken: the chain comes back from its
  // state and journal, and the trace is the same; so is the one kept before.
  const { hash: killed } = await sendAndWait(url, { to: contractAddress!, data: "0x" });
  const node = engineOf(service).runningNode(vnetId)!;
  process.kill(node.pids[1]!, "SIGKILL");
  await node.exited;
  expect(await pageTrace(service, vnetId, hash)).toEqual(before);
  expect(await pageTrace(service, vnetId, killed)).toEqual(before);
  await engineOf(service).flushTraces(vnetId);
  expect(engineOf(service).storedTrace(vnetId, killed)).toEqual(before);

  // A restart right after another transaction (the same call, so the same trace): its trace is taken before the stop.
  const { hash: second } = await sendAndWait(url, { to: contractAddress!, data: "0x" });
  await runs.stop(service);
  service = await runs.start({ dataDir });
  expect(await pageTrace(service, vnetId, hash)).toEqual(before);
  expect(engineOf(service).storedTrace(vnetId, second)).toEqual(before);
  // The reloaded chain itself has no trace of it to give (why the trace is kept): an error or an empty frame.
  const reloaded = await fetch(url.replace(/^http:\/\/[^/]+/, service.baseUrl), {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "debug_traceTransaction",
      params: [hash, { tracer: "callTracer", tracerConfig: { withLog: true } }],
    }),
  }).then((r) => r.json() as Promise<{ result?: CallFrame }>);
  expect(reloaded.result).not.toEqual(before);

  // An export and an import into another service.
  const target = await runs.start({ dataDir: targetDir });
  const imported = await importFixture(target, await exportFixture(service, environment.id));
  expect([imported.status, imported.body?.error?.message]).toEqual([201, undefined]);
  const copy = imported.body as CreatedEnvironment;
  expect(await pageTrace(target, copy.active_instance.vnets[0].id, hash)).toEqual(before);
  // A clone of the import.
  const cloned = await call(target, "POST", `${ENVIRONMENTS}/${copy.id}/clone`, { as: "alice", body: { display_name: "Traced clone" } });
  expect([cloned.status, cloned.body?.error?.message]).toEqual([201, undefined]);
  expect(await pageTrace(target, (cloned.body as CreatedEnvironment).active_instance.vnets[0].id, second)).toEqual(before);
});

async function waitFor(check: () => boolean, timeoutMs = 60_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error("timed out");
    await pause(100);
  }
}
