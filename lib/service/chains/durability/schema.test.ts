/**
 * The chain engine's own migrations (./schema.ts), on the service's database: made on the first use of a chain table,
 * once per connection, and a database whose store made them (chainform before the engine ran its own) keeps its rows.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase } from "../../store/database";
import { ForkedVnets } from "./forked-vnets";
import { migrateChainTables } from "./schema";

let dataDir: string;
beforeEach(() => (dataDir = mkdtempSync(join(tmpdir(), "chainform-chain-schema-"))));
afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

const chainTables = (db: ReturnType<typeof openDatabase>) =>
  (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'chain_%' ORDER BY name").all() as { name: string }[]).map(
    (t) => t.name,
  );

test("the first use of a chain table makes them all, and a second opening finds them migrated", () => {
  const path = join(dataDir, "chainform.db");
  const db = openDatabase(path);
  expect(chainTables(db)).toEqual([]);
  new ForkedVnets(db).note("v", { networkId: "1", blockNumber: "0x10" });
  expect(chainTables(db)).toEqual([
    "chain_bridge_relays",
    "chain_clocks",
    "chain_forks",
    "chain_genesis",
    "chain_journal",
    "chain_journal_blocks",
    "chain_schema",
    "chain_traces",
  ]);
  const version = (db.prepare("SELECT version FROM chain_schema").get() as { version: number }).version;
  db.close();
  const again = openDatabase(path);
  migrateChainTables(again);
  expect(again.prepare("SELECT count(*) AS n FROM chain_schema").get()).toEqual({ n: 1 });
  expect(again.prepare("SELECT version FROM chain_schema").get()).toEqual({ version });
  expect(new ForkedVnets(again).forkOf("v")).toEqual({ networkId: "1", blockNumber: "0x10" });
  again.close();
});

test("a database whose store made the chain tables (no chain_schema yet) migrates as it is and keeps its rows", () => {
  const path = join(dataDir, "chainform.db");
  const db = openDatabase(path);
  // GIVEN the tables as chainform's store migrations 2 and 3 made them, with a row
  db.exec(`CREATE TABLE chain_bridge_relays (source_vnet_id TEXT NOT NULL, deposit_id TEXT NOT NULL, source_chain_id INTEGER NOT NULL,
    deposit_tx_hash TEXT NOT NULL, destination_vnet_id TEXT NOT NULL, recipient TEXT NOT NULL, amount TEXT NOT NULL, due_at INTEGER NOT NULL,
    status TEXT NOT NULL, relay_tx_hash TEXT, error TEXT, created_at TEXT NOT NULL, PRIMARY KEY (source_vnet_id, deposit_id));
    CREATE TABLE chain_forks (vnet_id TEXT PRIMARY KEY, network_id TEXT NOT NULL, block_number TEXT NOT NULL);
    INSERT INTO chain_forks VALUES ('v', '1', '0x10');`);
  db.close();
  // WHEN the engine's room first uses it THEN every table is there and the row is kept
  const again = openDatabase(path);
  expect(new ForkedVnets(again).forkOf("v")).toEqual({ networkId: "1", blockNumber: "0x10" });
  expect(chainTables(again)).toContain("chain_journal");
  again.close();
});

test("chain tables a newer chainform wrote are refused, naming both versions", () => {
  const db = openDatabase(":memory:");
  db.exec("CREATE TABLE chain_schema (version INTEGER NOT NULL); INSERT INTO chain_schema VALUES (99);");
  expect(() => migrateChainTables(db)).toThrow(/newer chainform \(schema 99, this one knows \d+\)/);
  db.close();
});
