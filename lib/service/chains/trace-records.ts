/**
 * The call traces of mined transactions, kept as records (`chain_traces`, ./schema.ts): the callTracer tree with its
 * logs (`CallFrame`, ./trace.ts), by vnet and transaction hash. anvil traces a transaction by running its block again,
 * which a chain loaded from a saved state cannot (its earlier states are gone): a trace asked of the chain after an
 * idle stop, a restart or an import is not there. So each mined transaction's trace is taken once, when its record is
 * committed, and kept: the explorer and the dashboard read the kept one (lib/service/web-interface.ts
 * `storedTrace`), fixtures and clones carry them.
 *
 * The capture is off the answer's path: it is queued on the chain's lock (shared) as the record commits, so it runs
 * right after the write's answer and before the next write and any stop of the chain (the lock is first come, first
 * served), and a chain started again after a death has run the journaled transactions again, so it can still trace
 * them.
 */
import type { SqlDatabase } from "../store/sqlite";
import type { ChainNode } from "./backend";
import type { CallFrame } from "./trace";

/** The callTracer options the kept traces are taken with (the tree with its logs). */
export const CALL_TRACER = { tracer: "callTracer", tracerConfig: { withLog: true } } as const;

/** Runs work on a vnet's chain, started if need be, with the lock held shared (./chain-pool.ts `use`). */
export type UseChain = <T>(vnetId: string, work: (node: ChainNode) => Promise<T>) => Promise<T>;

/** The kept traces of a service's chains. */
export class TraceRecords {
  private readonly statements;
  /** Captures queued or running, by vnet: `flush` waits for them. */
  private readonly pending = new Map<string, Promise<void>>();

  constructor(
    db: SqlDatabase,
    private readonly useChain: UseChain,
  ) {
    this.statements = {
      get: db.prepare("SELECT trace FROM chain_traces WHERE vnet_id = ? AND tx_hash = ?"),
      all: db.prepare("SELECT tx_hash, trace FROM chain_traces WHERE vnet_id = ? ORDER BY tx_hash"),
      put: db.prepare("INSERT OR REPLACE INTO chain_traces (vnet_id, tx_hash, trace) VALUES (?, ?, ?)"),
      forget: db.prepare("DELETE FROM chain_traces WHERE vnet_id = ?"),
    };
  }

  /** The kept trace of a transaction, or null when none is kept. */
  get(vnetId: string, txHash: string): CallFrame | null {
    const row = this.statements.get.get(vnetId, txHash.toLowerCase()) as { trace: string } | undefined;
    return row ? (JSON.parse(row.trace) as CallFrame) : null;
  }

  /** Every kept trace of a vnet, by lowercase hash (fixtures). */
  all(vnetId: string): Record<string, CallFrame> {
    const rows = this.statements.all.all(vnetId) as { tx_hash: string; trace: string }[];
    return Object.fromEntries(rows.map((row) => [row.tx_hash, JSON.parse(row.trace) as CallFrame]));
  }

  /** Keeps traces (an import's, inside its transaction). */
  put(vnetId: string, traces: Readonly<Record<string, unknown>>): void {
    for (const [hash, trace] of Object.entries(traces)) this.statements.put.run(vnetId, hash.toLowerCase(), JSON.stringify(trace));
  }

  /** Forgets a deleted vnet's traces. */
  forget(vnetId: string): void {
    this.statements.forget.run(vnetId);
  }

  /**
   * Queues the capture of mined transactions' traces (call it as their records commit, with the chain held alone: the
   * capture's place on the lock is taken at once). Never throws: a trace that cannot be taken is not kept, and the
   * pages say so.
   */
  capture(vnetId: string, txHashes: readonly string[]): void {
    if (txHashes.length === 0) return;
    const taking = this.useChain(vnetId, (node) => this.take(node, vnetId, txHashes)).catch(() => undefined);
    const after = Promise.all([this.pending.get(vnetId), taking]).then(() => undefined);
    this.pending.set(vnetId, after);
    void after.then(() => {
      if (this.pending.get(vnetId) === after) this.pending.delete(vnetId);
    });
  }

  /** Waits for the captures queued for a vnet (an export, a test). */
  async flush(vnetId: string): Promise<void> {
    await this.pending.get(vnetId);
  }

  /** Traces the transactions in one round trip and keeps those the chain answered. */
  private async take(node: ChainNode, vnetId: string, txHashes: readonly string[]): Promise<void> {
    const answers = await node.rpc.ask(
      txHashes.map((hash, id) => ({ jsonrpc: "2.0" as const, id, method: "debug_traceTransaction", params: [hash, CALL_TRACER] })),
    );
    const traces: Record<string, CallFrame> = {};
    for (const answer of answers) {
      const hash = typeof answer.id === "number" ? txHashes[answer.id] : undefined;
      if (hash !== undefined && "result" in answer && isCallFrame(answer.result)) traces[hash] = answer.result;
    }
    this.put(vnetId, traces);
  }
}

/** Deepest call tree taken: the EVM's call depth limit (1024) and the root. */
const MAX_DEPTH = 1025;

/** Whether a value has the shape of a callTracer frame (a fixture's traces are checked with it too). */
export function isCallFrame(value: unknown, depth = 0): value is CallFrame {
  if (depth > MAX_DEPTH || value === null || typeof value !== "object" || Array.isArray(value)) return false;
  const frame = value as Record<string, unknown>;
  if (typeof frame.type !== "string" || typeof frame.from !== "string") return false;
  return frame.calls === undefined || (Array.isArray(frame.calls) && frame.calls.every((call) => isCallFrame(call, depth + 1)));
}
