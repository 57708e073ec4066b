/**
 * The chain engine's own tables (prefix `chain_`), with their migrations, which this room runs itself through the
 * SQLite driver (lib/service/sqlite): the store's migrations (lib/service/store/database.ts) know nothing of them. The SQL
 * that reads and writes them lives beside: ./relays.ts (`chain_bridge_relays`), ./forked-vnets.ts (`chain_forks`),
 * ./journal.ts (`chain_journal`, `chain_journal_blocks`, `chain_genesis`).
 */
import type { SqlDatabase } from "../../sqlite";

/**
 * Chain migration 1 (the store's migration 2 before the engine ran its own): bridge relays and which vnets are forks.
 * Earlier versions created these tables on first use (IF NOT EXISTS, so that such a database migrates as it is).
 */
const CHAIN_TABLES = `
  CREATE TABLE IF NOT EXISTS chain_bridge_relays (
    source_vnet_id TEXT NOT NULL,
    deposit_id TEXT NOT NULL,
    source_chain_id INTEGER NOT NULL,
    deposit_tx_hash TEXT NOT NULL,
    destination_vnet_id TEXT NOT NULL,
    recipient TEXT NOT NULL,
    amount TEXT NOT NULL,
    due_at INTEGER NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('pending', 'relayed', 'failed')),
    relay_tx_hash TEXT,
    error TEXT,
    created_at TEXT NOT NULL,
    PRIMARY KEY (source_vnet_id, deposit_id)
  );
  CREATE TABLE IF NOT EXISTS chain_forks (vnet_id TEXT PRIMARY KEY, network_id TEXT NOT NULL, block_number TEXT NOT NULL);
`;

/**
 * Chain migration 2 (the store's migration 3 before): the write journal (journal.ts), one row per state-changing call since the chain's state was last
 * saved, and the blocks those calls mined; the genesis timestamp of each chain that is not a fork (anvil makes a new
 * genesis block when it loads a state still at it, unless told its timestamp); and the lookup of a relay by its transaction (the explorer's and the
 * dashboard's pages of a relay ask `RelayStore.depositOf` by hash).
 */
const CHAIN_JOURNAL_TABLES = `
  CREATE TABLE IF NOT EXISTS chain_journal (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    vnet_id TEXT NOT NULL,
    method TEXT NOT NULL,
    params TEXT NOT NULL,
    tx_hash TEXT,
    mined INTEGER NOT NULL DEFAULT 0
  );
  CREATE INDEX IF NOT EXISTS chain_journal_by_vnet ON chain_journal (vnet_id, seq);
  CREATE TABLE IF NOT EXISTS chain_journal_blocks (
    vnet_id TEXT NOT NULL,
    number TEXT NOT NULL,
    timestamp INTEGER NOT NULL,
    base_fee TEXT,
    hash TEXT NOT NULL,
    PRIMARY KEY (vnet_id, number)
  );
  CREATE TABLE IF NOT EXISTS chain_genesis (vnet_id TEXT PRIMARY KEY, timestamp INTEGER NOT NULL);
  CREATE INDEX IF NOT EXISTS chain_bridge_relays_by_relay_tx ON chain_bridge_relays (relay_tx_hash);
`;

/**
 * The chain migrations, one per entry, append only. Every statement is IF NOT EXISTS: a database whose store migrated
 * them (migrations 2 and 3 of chainform before the engine ran its own) has them already and keeps its rows.
 */
/**
 * Each chain's clock (./clock.ts), which anvil's saved state does not keep: its time offset in seconds, the block
 * interval set, and a next block's timestamp set but not used yet; and the call trace of each mined transaction
 * (./trace-records.ts), as JSON.
 */
const CHAIN_CLOCK_AND_TRACE_TABLES = `
  CREATE TABLE IF NOT EXISTS chain_clocks (
    vnet_id TEXT PRIMARY KEY,
    offset_s INTEGER NOT NULL,
    interval_s INTEGER,
    next_ts INTEGER
  );
  CREATE TABLE IF NOT EXISTS chain_traces (
    vnet_id TEXT NOT NULL,
    tx_hash TEXT NOT NULL,
    trace TEXT NOT NULL,
    PRIMARY KEY (vnet_id, tx_hash)
  );
`;

const CHAIN_MIGRATIONS: readonly string[] = [CHAIN_TABLES, CHAIN_JOURNAL_TABLES, CHAIN_CLOCK_AND_TRACE_TABLES];

/** Connections whose chain tables are up to date: each is migrated once, whichever room asks first. */
const migrated = new WeakSet<SqlDatabase>();

/**
 * Brings the chain tables of `db` up to date: each migration runs once, in one transaction, tracked by the one row
 * of `chain_schema`. Every class of this room that reads or writes them calls it first, so the tables exist whoever
 * opened the database (the service, a test, the web UI's read of relays).
 *
 * @example
 * migrateChainTables(db);
 */
export function migrateChainTables(db: SqlDatabase): void {
  if (migrated.has(db)) return;
  db.transaction(() => {
    db.exec("CREATE TABLE IF NOT EXISTS chain_schema (version INTEGER NOT NULL)");
    const row = db.prepare("SELECT version FROM chain_schema").get() as { version: number } | undefined;
    const current = row?.version ?? 0;
    if (current > CHAIN_MIGRATIONS.length) {
      throw new Error(`the chain tables were written by a newer chainform (schema ${current}, this one knows ${CHAIN_MIGRATIONS.length})`);
    }
    for (let version = current; version < CHAIN_MIGRATIONS.length; version++) db.exec(CHAIN_MIGRATIONS[version]);
    if (row === undefined) db.prepare("INSERT INTO chain_schema (version) VALUES (?)").run(CHAIN_MIGRATIONS.length);
    else if (current !== CHAIN_MIGRATIONS.length) db.prepare("UPDATE chain_schema SET version = ?").run(CHAIN_MIGRATIONS.length);
  }).immediate();
  migrated.add(db);
}
