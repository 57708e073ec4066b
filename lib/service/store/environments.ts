/**
 * Environments and their Virtual Environments. An environment and its vnets are written in one transaction, so a
 * reader never sees half of one; slugs are unique per project (checked in the same transaction, and by the
 * UNIQUE constraint behind it).
 */
import { randomBytes, randomUUID } from "node:crypto";
import type { SqlDatabase } from "../sqlite";
import type { NetworkConfig, StoredEnvironmentSettings } from "../../api";

/** A Virtual Environment as stored. */
export interface VnetRecord {
  readonly id: string;
  readonly environment_id: string;
  readonly instance_id: string;
  readonly project_id: string;
  readonly position: number;
  readonly network_entry_id: string;
  readonly network_id: string;
  readonly network_name: string;
  /** The chain id it answers with, decimal: exact above 2^53 (stored as a 64-bit INTEGER, read as text). */
  readonly chain_id: string;
  readonly display_name: string;
  readonly slug: string;
  readonly block_number: string;
  readonly accounts: readonly { address: string; balance: string }[];
  /** The Admin RPC URL's secret path segment. Never log it. */
  readonly admin_secret: string;
  readonly status: string;
}

/** An environment as stored, with its vnets in network order. */
export interface EnvironmentRecord {
  readonly id: string;
  readonly project_id: string;
  readonly slug: string;
  readonly display_name: string;
  readonly created_at: string;
  readonly instance_id: string;
  readonly network_configs: NetworkConfig[];
  readonly bridge_config: StoredEnvironmentSettings["bridge_config"];
  readonly vnets: VnetRecord[];
}

/** What creating an environment needs; the service has validated and normalized it. */
export interface NewEnvironment {
  readonly projectId: string;
  readonly slug: string;
  readonly displayName: string;
  readonly networkConfigs: NetworkConfig[];
  readonly bridgeConfig: StoredEnvironmentSettings["bridge_config"];
  readonly vnets: readonly {
    readonly networkId: string;
    readonly networkName: string;
    readonly chainId: bigint;
    readonly slug: string;
    readonly displayName: string;
    readonly blockNumber: string;
    readonly accounts: readonly { address: string; balance: string }[];
  }[];
}

/** The outcome of a create: the environment, or the id of the environment that already has the slug. */
export type CreateEnvironmentResult = { created: EnvironmentRecord } | { slugTakenBy: string };

interface EnvironmentRow {
  id: string;
  project_id: string;
  slug: string;
  display_name: string;
  created_at: string;
  instance_id: string;
  network_configs: string;
  bridge_config: string;
}

type VnetRow = Omit<VnetRecord, "accounts"> & { accounts: string };

const VNET_COLUMNS = `v.id, v.environment_id, e.instance_id, e.project_id, v.position, v.network_entry_id, v.network_id,
  v.network_name, CAST(v.chain_id AS TEXT) AS chain_id, v.display_name, v.slug, v.block_number, v.accounts, v.admin_secret, v.status`;

/** Reads and writes environments. */
export class Environments {
  private readonly statements;
  /** The stopped vnets' ids, loaded on first use and dropped on every status change. */
  private stoppedIds: Set<string> | undefined;

  constructor(private readonly db: SqlDatabase) {
    this.statements = {
      insert: db.prepare(
        `INSERT INTO environments (id, project_id, slug, display_name, created_at, instance_id, network_configs, bridge_config)
         VALUES (@id, @project_id, @slug, @display_name, @created_at, @instance_id, @network_configs, @bridge_config)`,
      ),
      insertVnet: db.prepare(
        `INSERT INTO vnets (id, environment_id, position, network_entry_id, network_id, network_name, chain_id, display_name,
           slug, block_number, accounts, admin_secret, status)
         VALUES (@id, @environment_id, @position, @network_entry_id, @network_id, @network_name, @chain_id, @display_name,
           @slug, @block_number, @accounts, @admin_secret, 'running')`,
      ),
      bySlug: db.prepare("SELECT id FROM environments WHERE project_id = ? AND slug = ?"),
      get: db.prepare("SELECT * FROM environments WHERE project_id = ? AND id = ?"),
      page: db.prepare("SELECT * FROM environments WHERE project_id = ? ORDER BY seq DESC LIMIT ? OFFSET ?"),
      vnetsOf: db.prepare(`SELECT ${VNET_COLUMNS} FROM vnets v JOIN environments e ON e.id = v.environment_id
        WHERE v.environment_id = ? ORDER BY v.position`),
      vnet: db.prepare(`SELECT ${VNET_COLUMNS} FROM vnets v JOIN environments e ON e.id = v.environment_id WHERE v.id = ?`),
      vnetBySecret: db.prepare(
        `SELECT ${VNET_COLUMNS} FROM vnets v JOIN environments e ON e.id = v.environment_id WHERE v.admin_secret = ?`,
      ),
      delete: db.prepare("DELETE FROM environments WHERE project_id = ? AND id = ?"),
      setStatus: db.prepare("UPDATE vnets SET status = ? WHERE id = ?"),
      stopped: db.prepare("SELECT id FROM vnets WHERE status = 'stopped'"),
    };
  }

  /** Creates an environment and its vnets atomically, unless the slug is taken in the project. */
  create(input: NewEnvironment): CreateEnvironmentResult {
    return this.db
      .transaction((): CreateEnvironmentResult => {
        const taken = this.statements.bySlug.get(input.projectId, input.slug) as { id: string } | undefined;
        if (taken) return { slugTakenBy: taken.id };
        const id = randomUUID();
        this.statements.insert.run({
          id,
          project_id: input.projectId,
          slug: input.slug,
          display_name: input.displayName,
          created_at: new Date().toISOString(),
          instance_id: randomUUID(),
          network_configs: JSON.stringify(input.networkConfigs),
          bridge_config: JSON.stringify(input.bridgeConfig),
        });
        input.vnets.forEach((vnet, position) =>
          this.statements.insertVnet.run({
            id: randomUUID(),
            environment_id: id,
            position,
            network_entry_id: randomUUID(),
            network_id: vnet.networkId,
            network_name: vnet.networkName,
            chain_id: vnet.chainId,
            display_name: vnet.displayName,
            slug: vnet.slug,
            block_number: vnet.blockNumber,
            accounts: JSON.stringify(vnet.accounts),
            admin_secret: randomBytes(32).toString("base64url"),
          }),
        );
        return { created: this.get(input.projectId, id)! };
      })
      .immediate();
  }

  /** One environment of a project. */
  get(projectId: string, id: string): EnvironmentRecord | undefined {
    const row = this.statements.get.get(projectId, id) as EnvironmentRow | undefined;
    return row && this.toRecord(row);
  }

  /** A page of a project's environments, newest first. */
  page(projectId: string, page: number, perPage: number): EnvironmentRecord[] {
    const rows = this.statements.page.all(projectId, perPage, (page - 1) * perPage) as EnvironmentRow[];
    return rows.map((row) => this.toRecord(row));
  }

  /** A Virtual Environment by id. */
  vnet(vnetId: string): VnetRecord | undefined {
    const row = this.statements.vnet.get(vnetId) as VnetRow | undefined;
    return row && toVnet(row);
  }

  /** A Virtual Environment by its Admin RPC secret. */
  vnetBySecret(secret: string): VnetRecord | undefined {
    const row = this.statements.vnetBySecret.get(secret) as VnetRow | undefined;
    return row && toVnet(row);
  }

  /**
   * Sets a vnet's status (the hosted API's `PATCH .../vnets/{id} {status}`): a stopped vnet keeps its chain and data,
   * and its RPC URLs refuse calls until it runs again (docs/hosted-clients.md "A stopped vnet").
   */
  setStatus(vnetId: string, status: "running" | "stopped"): void {
    this.statements.setStatus.run(status, vnetId);
    this.stoppedIds = undefined;
  }

  /** Whether a vnet is stopped: read from memory on every RPC call, so kept as a set the writes above refresh. */
  isStopped(vnetId: string): boolean {
    this.stoppedIds ??= new Set((this.statements.stopped.all() as { id: string }[]).map((row) => row.id));
    return this.stoppedIds.size > 0 && this.stoppedIds.has(vnetId);
  }

  /**
   * Deletes those of `ids` that are environments of the project, atomically. Returns the ids that were missing
   * and the vnets that went with the deleted ones (their chains are to be destroyed).
   */
  delete(projectId: string, ids: readonly string[]): { missing: string[]; deletedVnetIds: string[] } {
    return this.db
      .transaction(() => {
        const missing: string[] = [];
        const deletedVnetIds: string[] = [];
        for (const id of new Set(ids)) {
          const vnets = this.statements.vnetsOf.all(id) as VnetRow[];
          if (this.statements.delete.run(projectId, id).changes === 0) missing.push(id);
          else deletedVnetIds.push(...vnets.map((v) => v.id));
        }
        return { missing, deletedVnetIds };
      })
      .immediate();
  }

  private toRecord(row: EnvironmentRow): EnvironmentRecord {
    return {
      id: row.id,
      project_id: row.project_id,
      slug: row.slug,
      display_name: row.display_name,
      created_at: row.created_at,
      instance_id: row.instance_id,
      network_configs: JSON.parse(row.network_configs),
      bridge_config: JSON.parse(row.bridge_config),
      vnets: (this.statements.vnetsOf.all(row.id) as VnetRow[]).map(toVnet),
    };
  }
}

function toVnet(row: VnetRow): VnetRecord {
  return { ...row, accounts: JSON.parse(row.accounts) };
}
