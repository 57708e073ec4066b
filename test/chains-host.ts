/**
 * A real `ChainHost` for engine tests: Virtual Environments and transaction records live in tables of an
 * in-memory SQLite connection of the store's own kind (which the engine also uses for its own `chain_*` tables).
 */
import { randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ChainHost, VnetChainSpec } from "../lib/service/chains";
import { openDatabase } from "../lib/service/store/database";
import type { SqlDatabase } from "../lib/service/sqlite";
import type { RelayMode, Transaction } from "../lib/api";

/** A network of a test environment. */
export interface TestNetwork {
  readonly networkId: string;
  readonly chainId?: number;
  readonly forkBlockNumber?: string;
  readonly accounts?: readonly { address: string; balance: string }[];
}

/** A ChainHost over SQLite tables. */
export class TestChainHost implements ChainHost {
  readonly forkUrls: Record<string, string> = {};

  constructor(
    readonly dataDir: string | null,
    readonly db: SqlDatabase = openDatabase(":memory:"),
  ) {
    db.exec(`CREATE TABLE IF NOT EXISTS test_vnets (id TEXT PRIMARY KEY, spec TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS test_transactions (seq INTEGER PRIMARY KEY AUTOINCREMENT, hash TEXT NOT NULL, vnet_id TEXT NOT NULL, record TEXT NOT NULL);`);
  }

  /** Creates an environment: one vnet per network, peers of each other; returns their specs in order. */
  createEnvironment(
    networks: readonly TestNetwork[],
    bridge: { relayMode: RelayMode; delaySeconds: number } | null = null,
  ): VnetChainSpec[] {
    const environmentId = randomUUID();
    const instanceId = randomUUID();
    const ids = networks.map(() => randomUUID());
    const chainIds = networks.map((n) => BigInt(n.chainId ?? n.networkId));
    const specs = networks.map((n, i) => ({
      vnetId: ids[i],
      environmentId,
      instanceId,
      networkId: n.networkId,
      chainId: chainIds[i],
      forkBlockNumber: n.forkBlockNumber ?? "0x0",
      accounts: n.accounts ?? [],
      bridge,
      peers: ids.flatMap((id, j) => (j === i ? [] : [{ vnetId: id, chainId: chainIds[j] }])),
    }));
    const insert = this.db.prepare("INSERT INTO test_vnets (id, spec) VALUES (?, ?)");
    for (const spec of specs)
      insert.run(
        spec.vnetId,
        JSON.stringify(spec, (_key, value) => (typeof value === "bigint" ? `${value}n` : value)),
      );
    return specs;
  }

  deleteVnets(ids: readonly string[]): void {
    for (const id of ids) this.db.prepare("DELETE FROM test_vnets WHERE id = ?").run(id);
  }

  resolveVnet(vnetId: string): VnetChainSpec | undefined {
    const row = this.db.prepare("SELECT spec FROM test_vnets WHERE id = ?").get(vnetId) as { spec: string } | undefined;
    return row
      ? (JSON.parse(row.spec, (_key, value) =>
          typeof value === "string" && /^[0-9]+n$/.test(value) ? BigInt(value.slice(0, -1)) : value,
        ) as VnetChainSpec)
      : undefined;
  }

  recordTransaction(transaction: Transaction): void {
    this.db
      .prepare("INSERT INTO test_transactions (hash, vnet_id, record) VALUES (?, ?, ?)")
      .run(transaction.tx_hash, transaction.vnet_id, JSON.stringify(transaction));
  }

  /** Recorded transactions of a vnet, oldest first. */
  transactions(vnetId: string): Transaction[] {
    const rows = this.db.prepare("SELECT record FROM test_transactions WHERE vnet_id = ? ORDER BY seq").all(vnetId) as { record: string }[];
    return rows.map((r) => JSON.parse(r.record) as Transaction);
  }
}

/** A fresh temporary data dir. */
export function temporaryDataDir(): string {
  return mkdtempSync(join(tmpdir(), "chainform-chains-test-"));
}

/** A compiled contract of dist/contracts (built by `npm run build`). */
export function artifact(name: string): { abi: any[]; bytecode: `0x${string}`; deployedBytecode: `0x${string}` } {
  return JSON.parse(readFileSync(join(__dirname, "..", "dist", "contracts", `${name}.json`), "utf8"));
}

/** True while a process exists and is not a zombie. */
export function processAlive(pid: number): boolean {
  if (!existsSync("/proc")) {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return !/^\d+ \(.*\) [ZX] /.test(stat);
  } catch {
    return false;
  }
}

/** Waits until `check` holds (polling), failing after `timeoutMs`. */
export async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** 1 ether in wei. */
export const ETHER = 10n ** 18n;
/** Hex of a bigint. */
export const hex = (n: bigint | number) => `0x${BigInt(n).toString(16)}`;
