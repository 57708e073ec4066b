/** Transactions the chain engine reports, and saved project simulations. Records are kept as JSON. */
import type { SqlDatabase, SqlStatement } from "../sqlite";
import type { ListTransactionsQuery, Simulation, Transaction } from "../../api";

/** Transaction filters of the list endpoint (addresses compared case-insensitively). */
export type TransactionFilters = Pick<ListTransactionsQuery, "status" | "category" | "kind" | "from" | "to">;

/** Reads and writes transactions and simulations. */
export class Records {
  private readonly statements;
  private readonly listCache = new Map<string, SqlStatement>();

  constructor(private readonly db: SqlDatabase) {
    this.statements = {
      upsertTransaction: db.prepare(
        `INSERT INTO transactions (vnet_id, instance_id, hash, status, category, kind, from_address, to_address, record)
         SELECT v.id, e.instance_id, @hash, @status, @category, @kind, @from_address, @to_address, @record
         FROM vnets v JOIN environments e ON e.id = v.environment_id WHERE v.id = @vnet_id
         ON CONFLICT (vnet_id, hash) DO UPDATE SET status = excluded.status, category = excluded.category,
           kind = excluded.kind, from_address = excluded.from_address, to_address = excluded.to_address, record = excluded.record`,
      ),
      transaction: db.prepare("SELECT record FROM transactions WHERE instance_id = ? AND hash = ? ORDER BY seq DESC LIMIT 1"),
      insertSimulation: db.prepare("INSERT INTO simulations (id, project_id, record) VALUES (?, ?, ?)"),
      simulations: db.prepare("SELECT record FROM simulations WHERE project_id = ? ORDER BY seq DESC LIMIT ? OFFSET ?"),
    };
  }

  /** Records a transaction of a vnet; a vnet that no longer exists is ignored. Recording it again updates it. */
  recordTransaction(transaction: Transaction): void {
    this.statements.upsertTransaction.run({
      vnet_id: transaction.vnet_id,
      hash: transaction.tx_hash.toLowerCase(),
      status: transaction.status,
      category: transaction.category,
      kind: transaction.kind,
      from_address: transaction.from.toLowerCase(),
      to_address: transaction.to?.toLowerCase() ?? null,
      record: JSON.stringify(transaction),
    });
  }

  /** One transaction of an environment instance by hash. */
  transaction(instanceId: string, hash: string): Transaction | undefined {
    const row = this.statements.transaction.get(instanceId, hash.toLowerCase()) as { record: string } | undefined;
    return row && JSON.parse(row.record);
  }

  /** A page of an instance's transactions, newest first, filtered. */
  transactions(instanceId: string, filters: TransactionFilters, page: number, perPage: number): Transaction[] {
    const clauses: string[] = [];
    const values: unknown[] = [instanceId];
    for (const [column, value] of [
      ["status", filters.status],
      ["category", filters.category],
      ["kind", filters.kind],
      ["from_address", filters.from?.toLowerCase()],
      ["to_address", filters.to?.toLowerCase()],
    ] as const) {
      if (value === undefined) continue;
      clauses.push(` AND ${column} = ?`);
      values.push(value);
    }
    const sql = `SELECT record FROM transactions WHERE instance_id = ?${clauses.join("")} ORDER BY seq DESC LIMIT ? OFFSET ?`;
    let statement = this.listCache.get(sql);
    if (!statement) this.listCache.set(sql, (statement = this.db.prepare(sql)));
    const rows = statement.all(...values, perPage, (page - 1) * perPage) as { record: string }[];
    return rows.map((r) => JSON.parse(r.record));
  }

  /** Saves a project simulation. */
  saveSimulation(projectId: string, simulation: Simulation): void {
    this.statements.insertSimulation.run(simulation.id, projectId, JSON.stringify(simulation));
  }

  /** A page of a project's saved simulations, newest first. */
  simulations(projectId: string, page: number, perPage: number): Simulation[] {
    const rows = this.statements.simulations.all(projectId, perPage, (page - 1) * perPage) as { record: string }[];
    return rows.map((r) => JSON.parse(r.record));
  }
}
