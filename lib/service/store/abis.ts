/**
 * ABIs users add for contracts nobody verified (`POST .../vnet/{vnetId}/abis`, `chainform abi add`), by Virtual
 * Environment and address: the explorer and the dashboard decode those contracts' calls and events with them. A
 * contract verified on the explorer is decoded with its verified ABI instead.
 */
import type { SqlDatabase } from "../sqlite";

/** The table (a migration of ./database.ts; IF NOT EXISTS, as every migration after the first, so a migration run again is harmless). */
export const USER_ABI_TABLES = `
  CREATE TABLE IF NOT EXISTS user_abis (
    vnet_id TEXT NOT NULL REFERENCES vnets(id) ON DELETE CASCADE,
    address TEXT NOT NULL,
    name TEXT NOT NULL,
    abi TEXT NOT NULL,
    added_at TEXT NOT NULL,
    PRIMARY KEY (vnet_id, address)
  );
`;

/** An ABI a user added for an address. */
export interface UserAbiRow {
  readonly vnetId: string;
  /** Lowercase. */
  readonly address: string;
  /** The contract's name, when the artifact says it (else empty). */
  readonly name: string;
  /** The ABI's JSON text (an array). */
  readonly abi: string;
  readonly addedAt: string;
}

/** Reads and writes the ABIs users added. */
export class UserAbis {
  private readonly statements;

  constructor(db: SqlDatabase) {
    this.statements = {
      upsert: db.prepare(
        `INSERT INTO user_abis (vnet_id, address, name, abi, added_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (vnet_id, address) DO UPDATE SET name = excluded.name, abi = excluded.abi, added_at = excluded.added_at`,
      ),
      get: db.prepare("SELECT vnet_id, address, name, abi, added_at FROM user_abis WHERE vnet_id = ? AND address = ?"),
      list: db.prepare("SELECT vnet_id, address, name, abi, added_at FROM user_abis WHERE vnet_id = ? ORDER BY address"),
    };
  }

  /** Saves (or replaces) the ABI of an address. */
  save(vnetId: string, address: string, name: string, abi: string, addedAt: string): UserAbiRow {
    this.statements.upsert.run(vnetId, address.toLowerCase(), name, abi, addedAt);
    return { vnetId, address: address.toLowerCase(), name, abi, addedAt };
  }

  /** The ABI added for an address, if any. */
  get(vnetId: string, address: string): UserAbiRow | undefined {
    const row = this.statements.get.get(vnetId, address.toLowerCase()) as DbRow | undefined;
    return row && fromRow(row);
  }

  /** Every ABI added on a Virtual Environment, by address. */
  list(vnetId: string): UserAbiRow[] {
    return (this.statements.list.all(vnetId) as DbRow[]).map(fromRow);
  }
}

interface DbRow {
  vnet_id: string;
  address: string;
  name: string;
  abi: string;
  added_at: string;
}

function fromRow(row: DbRow): UserAbiRow {
  return { vnetId: row.vnet_id, address: row.address, name: row.name, abi: row.abi, addedAt: row.added_at };
}
