/**
 * Verified contracts, kept in the service's database in a table of the web part's own (`web_verified_contracts`, a
 * migration of lib/service/store/database.ts, reached through lib/service/web-interface.ts), by Virtual Environment
 * and address.
 */
import type { Abi, VerifiedContractRows } from "../../service/web-interface";

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

/** Reads and writes verified contracts. */
export class VerifiedContracts {
  constructor(private readonly rows: VerifiedContractRows) {}

  /** Saves (or replaces) a verified contract. */
  save(contract: VerifiedContract): void {
    this.rows.save(contract.vnetId, contract.address.toLowerCase(), JSON.stringify(contract));
  }

  /** The verified contract at an address of a Virtual Environment, if any. */
  get(vnetId: string, address: string): VerifiedContract | undefined {
    const record = this.rows.get(vnetId, address.toLowerCase());
    return record === undefined ? undefined : JSON.parse(record);
  }
}
