/**
 * The chain engine's own tables (prefix `chain_`), with their migrations; ./store/database.ts runs them in order
 * with those of the other owners. The SQL that reads and writes them lives beside: bridge.ts (`chain_bridge_relays`),
 * engine.ts (`chain_forks`), journal.ts (`chain_journal`, `chain_journal_blocks`), clock.ts (`chain_clocks`), trace-records.ts (`chain_traces`).
 */

/**
 * Migration 2 (the chain part): bridge relays and which vnets are forks. Earlier versions created these tables on
 * first use (IF NOT EXISTS, so that such a database migrates as it is).
 */
export const CHAIN_TABLES = `
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
 * Migration 3: the write journal (journal.ts), one row per state-changing call since the chain's state was last
 * saved, and the blocks those calls mined; the genesis timestamp of each chain that is not a fork (anvil makes a new
 * genesis block when it loads a state still at it, unless told its timestamp); and the lookup of a relay by its transaction (the explorer's and the
 * dashboard's pages of a relay ask `RelayStore.depositOf` by hash).
 */
export const CHAIN_JOURNAL_TABLES = `
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
 * Migration 4 (with `CHAIN_TRACE_TABLES`): each chain's clock (clock.ts), which anvil's saved state does not keep: its
 * time offset in seconds, the block interval set, and a next block's timestamp set but not used yet.
 */
export const CHAIN_CLOCK_TABLES = `
  CREATE TABLE IF NOT EXISTS chain_clocks (
    vnet_id TEXT PRIMARY KEY,
    offset_s INTEGER NOT NULL,
    interval_s INTEGER,
    next_ts INTEGER
  );
`;

/** Migration 4 (with `CHAIN_CLOCK_TABLES`): the call trace of each mined transaction (trace-records.ts), as JSON. */
export const CHAIN_TRACE_TABLES = `
  CREATE TABLE IF NOT EXISTS chain_traces (
    vnet_id TEXT NOT NULL,
    tx_hash TEXT NOT NULL,
    trace TEXT NOT NULL,
    PRIMARY KEY (vnet_id, tx_hash)
  );
`;
