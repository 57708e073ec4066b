/**
 * The bridge's relays as rows: every deposit seen on a Virtual Environment of a bridged environment, and what became
 * of its relay, so that a relay survives a restart and runs exactly once (../bridge/relayer.ts).
 */
import type { SqlDatabase } from "../../sqlite";
import type { Hex } from "../evm/viem";
import { migrateChainTables } from "./schema";

/** A deposit waiting for, or done with, its relay. */
export interface BridgeRelay {
  readonly sourceVnetId: string;
  readonly depositId: Hex;
  /** Exact: chain ids may exceed 2^53. */
  readonly sourceChainId: bigint;
  readonly depositTxHash: string;
  readonly destinationVnetId: string;
  readonly recipient: string;
  readonly amount: string;
  readonly dueAt: number;
}

/**
 * `chain_bridge_relays` (./schema.ts): every deposit seen, with its relay's outcome. The relayer writes it
 * (../bridge/relayer.ts); the web UI's pages read which deposit a relay paid out.
 *
 * @example
 * const relays = new RelayStore(db);
 */
export class RelayStore {
  constructor(private readonly db: SqlDatabase) {
    migrateChainTables(db);
  }

  /** Adds deposits (a deposit already known is left alone). */
  add(relays: readonly BridgeRelay[]): void {
    const insert = this.db.prepare(`INSERT OR IGNORE INTO chain_bridge_relays
      (source_vnet_id, deposit_id, source_chain_id, deposit_tx_hash, destination_vnet_id, recipient, amount, due_at, status, created_at)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'pending', ?)`);
    const now = new Date().toISOString();
    this.db.transaction(() => {
      for (const r of relays) {
        insert.run(r.sourceVnetId, r.depositId, r.sourceChainId, r.depositTxHash, r.destinationVnetId, r.recipient, r.amount, r.dueAt, now);
      }
    })();
  }

  /** Pending relays, earliest first. */
  pending(): BridgeRelay[] {
    const rows = this.db
      .prepare(
        `SELECT *, CAST(source_chain_id AS TEXT) AS source_chain_text FROM chain_bridge_relays WHERE status = 'pending' ORDER BY due_at, created_at`,
      )
      .all() as Record<string, string | number>[];
    return rows.map((row) => ({
      sourceVnetId: String(row.source_vnet_id),
      depositId: String(row.deposit_id) as Hex,
      sourceChainId: BigInt(row.source_chain_text),
      depositTxHash: String(row.deposit_tx_hash),
      destinationVnetId: String(row.destination_vnet_id),
      recipient: String(row.recipient),
      amount: String(row.amount),
      dueAt: Number(row.due_at),
    }));
  }

  /** Marks a relay done or failed. */
  settle(relay: BridgeRelay, outcome: { status: "relayed" | "failed"; txHash?: string; error?: string }): void {
    this.db
      .prepare(`UPDATE chain_bridge_relays SET status = ?, relay_tx_hash = ?, error = ? WHERE source_vnet_id = ? AND deposit_id = ?`)
      .run(outcome.status, outcome.txHash ?? null, outcome.error ?? null, relay.sourceVnetId, relay.depositId);
  }

  /** The deposit a relay transaction paid out; undefined when the hash is no relay. */
  depositOf(relayTxHash: string): { sourceVnetId: string; depositTxHash: string } | undefined {
    const row = this.db
      .prepare("SELECT source_vnet_id, deposit_tx_hash FROM chain_bridge_relays WHERE relay_tx_hash = ?")
      .get(relayTxHash.toLowerCase()) as { source_vnet_id: string; deposit_tx_hash: string } | undefined;
    return row && { sourceVnetId: row.source_vnet_id, depositTxHash: row.deposit_tx_hash };
  }

  /** Fails the pending relays from or to deleted vnets. */
  dropVnets(vnetIds: readonly string[]): void {
    const update = this.db.prepare(`UPDATE chain_bridge_relays SET status = 'failed', error = 'Virtual Environment deleted'
      WHERE status = 'pending' AND (source_vnet_id = ? OR destination_vnet_id = ?)`);
    this.db.transaction(() => vnetIds.forEach((id) => update.run(id, id)))();
  }
}
