/**
 * Storage benchmark (`npm run bench -- store`): the store's own operations, without HTTP, on each SQLite binding
 * this Node.js can run (node:sqlite where present; better-sqlite3 below Node.js 24, where it is safe), on a WAL
 * file in a temporary data dir as the service keeps it. Each figure is the best of REPEATS rounds of ROUND
 * operations, so a machine busy with other work still shows what the storage layer costs. Operations:
 * - createDelete: create an environment with two Virtual Environments (one transaction), read it, delete it;
 * - recordTransaction: upsert one transaction record;
 * - listEnvironments: one page of 20 of a project's environments, with their vnets;
 * - listTransactions: one filtered page of 20 transactions.
 * The last line is one JSON object: operations per second per binding, and node:sqlite's ratio to better-sqlite3
 * where both ran (>= 1: node:sqlite is as fast or faster).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { Store } from "../lib/service/store";
import { DRIVER_VARIABLE, hasNodeSqlite, type SqliteDriver } from "../lib/service/sqlite";
import { applySeed, DEFAULT_SEED } from "../lib/service/seed";
import type { Transaction } from "../lib/api";

const ROUND = Number(process.env.BENCH_ROUND ?? 400);
const REPEATS = Number(process.env.BENCH_REPEATS ?? 5);

const major = Number(process.versions.node.split(".")[0]);
const drivers: SqliteDriver[] = [
  ...(hasNodeSqlite() ? (["node:sqlite"] as const) : []),
  ...(major < 24 ? (["better-sqlite3"] as const) : []),
];

function best(operation: () => void): number {
  let fastest = Infinity;
  for (let r = 0; r < REPEATS; r++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < ROUND; i++) operation();
    fastest = Math.min(fastest, Number(process.hrtime.bigint() - start) / 1e6);
  }
  return Math.round((ROUND / fastest) * 1000);
}

function measure(driver: SqliteDriver): Record<string, number> {
  process.env[DRIVER_VARIABLE] = driver;
  const dataDir = mkdtempSync(join(tmpdir(), "chainform-bench-store-"));
  const store = Store.open({ dataDir });
  try {
    applySeed(store, DEFAULT_SEED);
    const owner = store.accounts.bySlug("acme")!;
    const project = store.projects.bySlug(owner.id, "demo")!;
    const network = { network_id: "1", chain_id: 1 } as never;
    const newEnvironment = (slug: string) => ({
      projectId: project.id,
      slug,
      displayName: slug,
      networkConfigs: [network],
      bridgeConfig: { enabled: false } as never,
      vnets: ["1", "8453"].map((id) => ({
        networkId: id,
        networkName: `net ${id}`,
        chainId: BigInt(id),
        slug: `${slug}-${id}`,
        displayName: `${slug} ${id}`,
        blockNumber: "0x1",
        accounts: [{ address: `0x${"11".repeat(20)}`, balance: "0x1" }],
      })),
    });
    let n = 0;
    const figures: Record<string, number> = {};
    figures.createDelete = best(() => {
      const result = store.environments.create(newEnvironment(`bench-${++n}`));
      if (!("created" in result)) throw new Error("slug taken");
      store.environments.get(project.id, result.created.id);
      store.environments.delete(project.id, [result.created.id]);
    });
    const kept = Array.from({ length: 20 }, (_, i) => store.environments.create(newEnvironment(`kept-${i}`)));
    const vnet = ("created" in kept[0] ? kept[0].created : undefined)!.vnets[0];
    figures.recordTransaction = best(() =>
      store.records.recordTransaction({
        vnet_id: vnet.id,
        hash: `0x${randomBytes(32).toString("hex")}`,
        status: "success",
        category: "write",
        kind: "transaction",
        from: `0x${"22".repeat(20)}`,
        to: `0x${"33".repeat(20)}`,
      } as unknown as Transaction),
    );
    figures.listEnvironments = best(() => store.environments.page(project.id, 1, 20));
    figures.listTransactions = best(() => store.records.transactions(vnet.instance_id, { status: "success" } as never, 1, 20));
    return figures;
  } finally {
    store.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const results: Record<string, Record<string, number>> = {};
for (const driver of drivers) {
  results[driver] = measure(driver);
  console.log(
    `${driver}: ${Object.entries(results[driver])
      .map(([k, v]) => `${k} ${v}/s`)
      .join(", ")}`,
  );
}
const ratios =
  results["node:sqlite"] && results["better-sqlite3"]
    ? Object.fromEntries(
        Object.keys(results["node:sqlite"]).map((k) => [k, Number((results["node:sqlite"][k] / results["better-sqlite3"][k]).toFixed(2))]),
      )
    : undefined;
console.log(
  JSON.stringify({ benchmark: "store", node: process.version, round: ROUND, repeats: REPEATS, operationsPerSecond: results, ratios }),
);
