/**
 * Verified contracts, kept in the service's database in a table of the web part's own (`web_` prefix, created
 * if missing), by Virtual Environment and address.
 */
import type { SqlDatabase } from "../../service/store/sqlite";
import type { Abi } from "../../service/chains/viem";

/** A contract whose source reproduced its deployed code. */
export interface VerifiedContract {
  readonly vnetId: string;
  /** Lowercase. */
  readonly address: string;
  /** `path:Name` as submitted. */
  readonly contractName: string;
  /** E.g. `v0.8.37+commit.f401782d`. */
  readonly compilerVersion: string;
  readonly abi: Abi;
  /** The standard JSON input submitted (the source). */
  readonly standardJsonInput: string;
  readonly optimizationUsed: boolean;
  readonly runs: number;
  readonly evmVersion: string;
  readonly constructorArguments: string;
  readonly licenseType: string;
  readonly verifiedAt: string;
}

interface Row {
  vnet_id: string;
  address: string;
  record: string;
}

/** Reads and writes verified contracts. */
export class VerifiedContracts {
  private readonly statements;

  constructor(db: SqlDatabase) {
    this.statements = {
      upsert: db.prepare(
        `INSERT INTO web_verified_contracts (vnet_id, address, record) VALUES (?, ?, ?)
         ON CONFLICT (vnet_id, address) DO UPDATE SET record = excluded.record`,
      ),
      get: db.prepare("SELECT vnet_id, address, record FROM web_verified_contracts WHERE vnet_id = ? AND address = ?"),
    };
  }

  /** Saves (or replaces) a verified contract. */
  save(contract: VerifiedContract): void {
    this.statements.upsert.run(contract.vnetId, contract.address.toLowerCase(), JSON.stringify(contract));
  }

  /** The verified contract at an address of a Virtual Environment, if any. */
  get(vnetId: string, address: string): VerifiedContract | undefined {
    const row = this.statements.get.get(vnetId, address.toLowerCase()) as Row | undefined;
    return row && JSON.parse(row.record);
  }
}
