/**
 * The contract and wallet registry of a project (the hosted clients' "contracts" and "wallets"): which addresses of
 * which networks a project keeps, of what kind, under what display name and tags. One row per project, network and
 * lower-case address, with its migration beside it (./database.ts runs it after the other owners').
 */
import type { SqlDatabase } from "../sqlite";

/** Migration 4 (the registry). */
export const REGISTRY_TABLES = `
  CREATE TABLE IF NOT EXISTS registry_entries (
    project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    network_id TEXT NOT NULL,
    address TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('contract', 'unverified_contract', 'wallet')),
    display_name TEXT NOT NULL DEFAULT '',
    tags TEXT NOT NULL DEFAULT '[]',
    contract_name TEXT NOT NULL DEFAULT '',
    abi TEXT,
    created_at TEXT NOT NULL,
    PRIMARY KEY (project_id, network_id, address)
  );
`;

/** What a registry entry is: a verified contract, a contract without source, or a wallet. */
export type RegistryKind = "contract" | "unverified_contract" | "wallet";

/** One address a project keeps. */
export interface RegistryEntry {
  readonly networkId: string;
  /** Lower case. */
  readonly address: string;
  readonly kind: RegistryKind;
  readonly displayName: string;
  /** In the order they were added, no repeats. */
  readonly tags: readonly string[];
  /** The verified contract's name (`path:Name` or `Name`), empty when none is known. */
  readonly contractName: string;
  /** The ABI a verification gave it, as JSON; null when none. */
  readonly abi: string | null;
  readonly createdAt: string;
}

/** Filters of a listing; each list matches any of its values, an empty or absent list matches everything. */
export interface RegistryFilters {
  readonly addresses?: readonly string[];
  readonly networkIds?: readonly string[];
  readonly kinds?: readonly RegistryKind[];
  readonly displayNames?: readonly string[];
  readonly tags?: readonly string[];
}

interface Row {
  network_id: string;
  address: string;
  kind: RegistryKind;
  display_name: string;
  tags: string;
  contract_name: string;
  abi: string | null;
  created_at: string;
}

/** Reads and writes a project's registry. */
export class Registry {
  private readonly statements;

  constructor(db: SqlDatabase) {
    this.statements = {
      get: db.prepare("SELECT * FROM registry_entries WHERE project_id = ? AND network_id = ? AND address = ?"),
      all: db.prepare("SELECT * FROM registry_entries WHERE project_id = ? ORDER BY created_at, network_id, address"),
      // A wallet added over a contract stays a contract (and the other way round): the kind is what was seen first,
      // except that a verification makes an unverified contract a contract.
      upsert: db.prepare(
        `INSERT INTO registry_entries (project_id, network_id, address, kind, display_name, contract_name, abi, created_at)
         VALUES (@project_id, @network_id, @address, @kind, @display_name, @contract_name, @abi, @created_at)
         ON CONFLICT (project_id, network_id, address) DO UPDATE SET
           kind = CASE WHEN registry_entries.kind = 'unverified_contract' AND excluded.kind = 'contract' THEN 'contract'
                       ELSE registry_entries.kind END,
           display_name = CASE WHEN excluded.display_name = '' THEN registry_entries.display_name ELSE excluded.display_name END,
           contract_name = CASE WHEN excluded.contract_name = '' THEN registry_entries.contract_name ELSE excluded.contract_name END,
           abi = COALESCE(excluded.abi, registry_entries.abi)`,
      ),
      rename: db.prepare("UPDATE registry_entries SET display_name = ? WHERE project_id = ? AND network_id = ? AND address = ?"),
      setTags: db.prepare("UPDATE registry_entries SET tags = ? WHERE project_id = ? AND network_id = ? AND address = ?"),
      remove: db.prepare("DELETE FROM registry_entries WHERE project_id = ? AND network_id = ? AND address = ?"),
    };
  }

  /** One entry, if the project keeps it. */
  get(projectId: string, networkId: string, address: string): RegistryEntry | undefined {
    const row = this.statements.get.get(projectId, networkId, address.toLowerCase()) as Row | undefined;
    return row && entryOf(row);
  }

  /**
   * Adds an entry, or updates the one there: a new display name or contract name replaces the old one when given,
   * and a verified contract's ABI is kept. Returns the entry as stored.
   */
  put(
    projectId: string,
    entry: { networkId: string; address: string; kind: RegistryKind; displayName?: string; contractName?: string; abi?: string },
  ): RegistryEntry {
    this.statements.upsert.run({
      project_id: projectId,
      network_id: entry.networkId,
      address: entry.address.toLowerCase(),
      kind: entry.kind,
      display_name: entry.displayName ?? "",
      contract_name: entry.contractName ?? "",
      abi: entry.abi ?? null,
      created_at: new Date().toISOString(),
    });
    return this.get(projectId, entry.networkId, entry.address)!;
  }

  /** Renames an entry; false when the project does not keep it. */
  rename(projectId: string, networkId: string, address: string, displayName: string): boolean {
    return this.statements.rename.run(displayName, projectId, networkId, address.toLowerCase()).changes > 0;
  }

  /** Adds a tag to an entry (once); false when the project does not keep it. */
  tag(projectId: string, networkId: string, address: string, tag: string): boolean {
    const entry = this.get(projectId, networkId, address);
    if (!entry) return false;
    if (!entry.tags.includes(tag)) this.statements.setTags.run(JSON.stringify([...entry.tags, tag]), projectId, networkId, entry.address);
    return true;
  }

  /** Removes an entry; false when the project did not keep it. */
  remove(projectId: string, networkId: string, address: string): boolean {
    return this.statements.remove.run(projectId, networkId, address.toLowerCase()).changes > 0;
  }

  /** A project's entries that match every given filter, oldest first. */
  list(projectId: string, filters: RegistryFilters = {}): RegistryEntry[] {
    const matches = <T>(values: readonly T[] | undefined, test: (value: T) => boolean) =>
      values === undefined || values.length === 0 || values.some(test);
    const addresses = filters.addresses?.map((address) => address.toLowerCase());
    return (this.statements.all.all(projectId) as Row[])
      .map(entryOf)
      .filter(
        (entry) =>
          matches(addresses, (address) => address === entry.address) &&
          matches(filters.networkIds, (id) => id === entry.networkId) &&
          matches(filters.kinds, (kind) => kind === entry.kind) &&
          matches(filters.displayNames, (name) => name === entry.displayName) &&
          matches(filters.tags, (tag) => entry.tags.includes(tag)),
      );
  }
}

function entryOf(row: Row): RegistryEntry {
  return {
    networkId: row.network_id,
    address: row.address,
    kind: row.kind,
    displayName: row.display_name,
    tags: JSON.parse(row.tags) as string[],
    contractName: row.contract_name,
    abi: row.abi,
    createdAt: row.created_at,
  };
}
