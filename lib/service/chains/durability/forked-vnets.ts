/**
 * Which Virtual Environments' chains are forks, and of which network at which block: `chain_forks` (./schema.ts). A
 * vnet's kind is decided at its first start and kept, so that a restart with other `--fork` settings changes no vnet;
 * an imported environment's state arrives with its fork.
 */
import type { SqlDatabase } from "../../sqlite";
import type { VnetFork } from "../types";
import { migrateChainTables } from "./schema";

/** The rows of `chain_forks`. */
export class ForkedVnets {
  private readonly statements;

  constructor(db: SqlDatabase) {
    migrateChainTables(db);
    this.statements = {
      get: db.prepare("SELECT network_id, block_number FROM chain_forks WHERE vnet_id = ?"),
      put: db.prepare("INSERT OR REPLACE INTO chain_forks (vnet_id, network_id, block_number) VALUES (?, ?, ?)"),
      remove: db.prepare("DELETE FROM chain_forks WHERE vnet_id = ?"),
    };
  }

  /** The fork a vnet's chain reads, or null when it is not a fork (or never started). */
  forkOf(vnetId: string): VnetFork | null {
    const row = this.statements.get.get(vnetId) as { network_id: string; block_number: string } | undefined;
    return row ? { networkId: row.network_id, blockNumber: row.block_number } : null;
  }

  /** Notes that a vnet's chain forks `fork` (block hex). */
  note(vnetId: string, fork: VnetFork): void {
    this.statements.put.run(vnetId, fork.networkId, fork.blockNumber);
  }

  /** Forgets a deleted vnet. */
  forget(vnetId: string): void {
    this.statements.remove.run(vnetId);
  }
}
