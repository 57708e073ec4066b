/**
 * The write journal of a Virtual Environment's chain: every state-changing call the chain acknowledged since its
 * state was last saved, in order, with the timestamps and hashes of the blocks those calls mined. A chain that dies
 * under the service (a crash, `kill -9`, the OOM killer, a restart after a wedge) starts again from its saved state
 * and the engine applies the journal to it before it answers anything else (./recovery.ts), so nothing a caller was
 * told succeeded is lost, and nothing is applied twice: each row has a sequence number (`seq`, never reused), a saved
 * state names the last row it holds (its generation, ./state-files.ts), and a start applies only the rows after it.
 * A completed save then clears the rows it holds (docs/chain-state.md "What survives what").
 *
 * Rows are appended in the same SQLite transaction as the transaction records of the same calls, after the chain
 * acknowledged them and before the caller hears back: a record never claims a change the journal cannot bring back.
 */
import type { SqlDatabase } from "../../sqlite";
import { migrateChainTables } from "./schema";
import { saveStep } from "../node/state-files";

/** One state-changing call as it was sent to the chain. */
export interface JournalCall {
  readonly method: string;
  /** Positional params (as sent: canonical JSON, re-serialised by the engine). */
  readonly params: readonly unknown[];
  /** The hash of the transaction the call sent, when it sent one: the replay checks it gets the same. */
  readonly txHash?: string;
  /** The transaction was mined before the call was acknowledged: the replay waits for it too, before the next call. */
  readonly mined?: boolean;
}

/** A block mined by journaled calls: replay mines it again at the same timestamp, so that its hash is the same. */
export interface JournalBlock {
  readonly number: bigint;
  /** Seconds since the epoch. */
  readonly timestamp: number;
  /** Its base fee (hex; absent before London): anvil's next base fee after loading a state is not always the same. */
  readonly baseFee?: string;
  readonly hash: string;
}

/** The journal of a service's chains: tables `chain_journal`, `chain_journal_blocks` and `chain_genesis` (./schema.ts). */
export class ChainJournal {
  private readonly statements;

  constructor(private readonly db: SqlDatabase) {
    migrateChainTables(db);
    this.statements = {
      insertCall: db.prepare("INSERT INTO chain_journal (vnet_id, method, params, tx_hash, mined) VALUES (?, ?, ?, ?, ?)"),
      insertBlock: db.prepare(
        "INSERT OR REPLACE INTO chain_journal_blocks (vnet_id, number, timestamp, base_fee, hash) VALUES (?, ?, ?, ?, ?)",
      ),
      calls: db.prepare("SELECT method, params, tx_hash, mined FROM chain_journal WHERE vnet_id = ? AND seq > ? ORDER BY seq"),
      last: db.prepare("SELECT max(seq) AS seq FROM chain_journal WHERE vnet_id = ?"),
      blocks: db.prepare("SELECT number, timestamp, base_fee, hash FROM chain_journal_blocks WHERE vnet_id = ?"),
      count: db.prepare("SELECT count(*) AS n FROM chain_journal WHERE vnet_id = ?"),
      clearCalls: db.prepare("DELETE FROM chain_journal WHERE vnet_id = ?"),
      clearCallsThrough: db.prepare("DELETE FROM chain_journal WHERE vnet_id = ? AND seq <= ?"),
      clearBlocks: db.prepare("DELETE FROM chain_journal_blocks WHERE vnet_id = ?"),
      genesis: db.prepare("SELECT timestamp FROM chain_genesis WHERE vnet_id = ?"),
      setGenesis: db.prepare("INSERT OR IGNORE INTO chain_genesis (vnet_id, timestamp) VALUES (?, ?)"),
      forgetGenesis: db.prepare("DELETE FROM chain_genesis WHERE vnet_id = ?"),
      vnets: db.prepare("SELECT vnet_id FROM chain_journal UNION SELECT vnet_id FROM chain_genesis"),
    };
  }

  /**
   * Appends calls and the blocks they mined. Synchronous, so that callers run it inside the transaction that also
   * writes the calls' records.
   */
  append(vnetId: string, calls: readonly JournalCall[], blocks: readonly JournalBlock[]): void {
    for (const call of calls)
      this.statements.insertCall.run(vnetId, call.method, JSON.stringify(call.params), call.txHash ?? null, call.mined ? 1 : 0);
    for (const block of blocks)
      this.statements.insertBlock.run(vnetId, block.number.toString(), block.timestamp, block.baseFee ?? null, block.hash);
  }

  /** The calls journaled for a vnet after row `after` (a saved state's generation; 0: all of them), oldest first. */
  calls(vnetId: string, after = 0): JournalCall[] {
    const rows = this.statements.calls.all(vnetId, after) as { method: string; params: string; tx_hash: string | null; mined: number }[];
    return rows.map((row) => ({
      method: row.method,
      params: JSON.parse(row.params) as unknown[],
      ...(row.tx_hash ? { txHash: row.tx_hash } : {}),
      ...(Number(row.mined) === 1 ? { mined: true } : {}),
    }));
  }

  /** The blocks those calls mined, by number. */
  blocks(vnetId: string): Map<bigint, JournalBlock> {
    const rows = this.statements.blocks.all(vnetId) as { number: string; timestamp: number; base_fee: string | null; hash: string }[];
    return new Map(
      rows.map((row) => [
        BigInt(row.number),
        {
          number: BigInt(row.number),
          timestamp: Number(row.timestamp),
          hash: row.hash,
          ...(row.base_fee ? { baseFee: row.base_fee } : {}),
        },
      ]),
    );
  }

  /**
   * The generation a state saved now holds: the vnet's last row (call it with the chain held alone, so that every row
   * is on the chain and none comes between), 0 when it has none. Rows journaled later have greater numbers:
   * AUTOINCREMENT never hands out a number again, not even one deleted.
   */
  generation(vnetId: string): number {
    return Number((this.statements.last.get(vnetId) as { seq: number | null }).seq ?? 0);
  }

  /** Number of calls journaled for a vnet. */
  count(vnetId: string): number {
    return Number((this.statements.count.get(vnetId) as { n: number }).n);
  }

  /**
   * The timestamp of a chain's genesis block (not a fork), which every start passes to anvil: anvil loading a state
   * still at its genesis makes a new genesis block of the current time, on which the writes applied again would mine
   * other blocks.
   */
  genesisTimestamp(vnetId: string): number | undefined {
    const row = this.statements.genesis.get(vnetId) as { timestamp: number } | undefined;
    return row && Number(row.timestamp);
  }

  /** Keeps a chain's genesis timestamp (the first one kept stays). */
  keepGenesisTimestamp(vnetId: string, timestamp: number): void {
    this.statements.setGenesis.run(vnetId, timestamp);
  }

  /** The vnets the journal holds anything of. */
  vnetIds(): string[] {
    return (this.statements.vnets.all() as { vnet_id: string }[]).map((row) => row.vnet_id);
  }

  /** Forgets everything of a deleted vnet. */
  forget(vnetId: string): void {
    this.clear(vnetId);
    this.statements.forgetGenesis.run(vnetId);
  }

  /**
   * Forgets the rows a saved state holds (those through its `generation`), and the blocks once no row is left. Only
   * tidying: a start skips those rows anyway (./recovery.ts), so a crash before this commits loses and repeats nothing.
   */
  clearThrough(vnetId: string, generation: number): void {
    this.db.transaction(() => {
      this.statements.clearCallsThrough.run(vnetId, generation);
      if (this.count(vnetId) === 0) this.statements.clearBlocks.run(vnetId);
    })();
    saveStep("journal-cleared");
  }

  /** Forgets a vnet's whole journal (the vnet is deleted). */
  clear(vnetId: string): void {
    this.db.transaction(() => {
      this.statements.clearCalls.run(vnetId);
      this.statements.clearBlocks.run(vnetId);
    })();
  }
}
