/**
 * The call traces of mined transactions, kept as records (`chain_traces`, ./schema.ts): the callTracer tree with its
 * logs (`CallFrame`, ./trace.ts), by vnet and transaction hash. anvil traces a transaction by running its block again,
 * which a chain loaded from a saved state cannot (its earlier states are gone): a trace asked of the chain after an
 * idle stop, a restart or an import is not there. So each mined transaction's trace is taken once, when its record is
 * committed, and kept: the explorer and the dashboard read the kept one (lib/service/web-interface.ts
 * `storedTrace`), fixtures and clones carry them.
 *
 * The capture is off the answer's path: the hashes are gathered as records commit and traced together, in one round
 * trip, once the chain has been quiet a moment (at most 10 s later) or once enough wait (with the chain's lock held
 * shared), and always before the chain stops
 * (./chain-pool.ts `beforeStop`: an idle stop, an eviction, a shutdown). A chain that died meanwhile is started again
 * with its journaled transactions run again, so it can still trace them.
 */
import type { SqlDatabase } from "../../sqlite";
import type { ChainNode } from "../node/backend";
import type { CallFrame } from "../evm/trace";
import type { JournaledWrites } from "./recovery";

/** The callTracer options the kept traces are taken with (the tree with its logs). */
export const CALL_TRACER = { tracer: "callTracer", tracerConfig: { withLog: true } } as const;

/** Runs work on a vnet's chain, started if need be, with the lock held shared (./chain-pool.ts `use`). */
export type UseChain = <T>(vnetId: string, work: (node: ChainNode) => Promise<T>) => Promise<T>;

/** Most traces taken in one round trip; more pending are taken at once. */
const BATCH = 256;
/**
 * Traces wait until the chain has had no new record for this long (ms): tracing runs a transaction again, and while a
 * suite sends, that work would compete with it for the chain and the cores (the viem script of `bench -- rpc` ran
 * 1.57x of anvil with traces taken 250 ms after each first record, against 1.36x before traces were kept).
 */
const QUIET_MS = 250;
/** The longest a trace waits under a chain that never goes quiet (ms). */
const LONGEST_WAIT_MS = 10_000;

/** The kept traces of a service's chains. */
export class TraceRecords {
  private readonly statements;
  /** Hashes whose traces are to be taken, by vnet. */
  private readonly waiting = new Map<string, Set<string>>();
  /** A timer that takes a vnet's waiting traces, by vnet. */
  private readonly timers = new Map<string, NodeJS.Timeout>();
  /** When the oldest waiting hash of a vnet came (`LONGEST_WAIT_MS`). */
  private readonly firstWaiting = new Map<string, number>();
  /** Captures running, by vnet: `flush` waits for them. */
  private readonly running = new Map<string, Promise<void>>();

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

  /** Takes the trace of every transaction the journal's commits record as mined from now on. */
  follow(writes: Pick<JournaledWrites, "onRecorded">): void {
    writes.onRecorded = (vnetId, records) =>
      this.capture(
        vnetId,
        records.filter((record) => record.kind === "blockchain").map((record) => record.tx_hash),
      );
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

  /** Forgets a deleted vnet's traces, and those still to be taken. */
  forget(vnetId: string): void {
    this.waiting.delete(vnetId);
    this.firstWaiting.delete(vnetId);
    clearTimeout(this.timers.get(vnetId));
    this.timers.delete(vnetId);
    this.statements.forget.run(vnetId);
  }

  /**
   * Notes mined transactions whose traces are to be taken (call it as their records commit). They are taken together,
   * `GATHER_MS` after the first or once `BATCH` wait, with the chain's lock held shared, and in any case before the
   * chain stops (`beforeStop`). Never throws: a trace that cannot be taken is not kept, and the pages say so.
   */
  capture(vnetId: string, txHashes: readonly string[]): void {
    if (txHashes.length === 0) return;
    let waiting = this.waiting.get(vnetId);
    if (!waiting) this.waiting.set(vnetId, (waiting = new Set()));
    for (const hash of txHashes) waiting.add(hash.toLowerCase());
    if (waiting.size >= BATCH) return this.takeSoon(vnetId);
    const first = this.firstWaiting.get(vnetId) ?? Date.now();
    this.firstWaiting.set(vnetId, first);
    clearTimeout(this.timers.get(vnetId));
    const timer = setTimeout(() => this.takeSoon(vnetId), Math.max(0, Math.min(QUIET_MS, first + LONGEST_WAIT_MS - Date.now())));
    timer.unref();
    this.timers.set(vnetId, timer);
  }

  /** Takes a vnet's waiting traces on its chain about to stop (the pool calls it with the chain held alone). */
  async beforeStop(vnetId: string, node: ChainNode): Promise<void> {
    const hashes = this.drain(vnetId);
    if (hashes.length > 0) await this.take(node, vnetId, hashes).catch(() => undefined);
  }

  /** Takes a vnet's waiting traces now and waits for every capture of it (an export, a test). */
  async flush(vnetId: string): Promise<void> {
    this.takeSoon(vnetId);
    await this.running.get(vnetId);
  }

  /** Queues the capture of a vnet's waiting traces on its chain's lock. */
  private takeSoon(vnetId: string): void {
    const hashes = this.drain(vnetId);
    if (hashes.length === 0) return;
    const taking = this.useChain(vnetId, (node) => this.take(node, vnetId, hashes)).catch(() => undefined);
    const after = Promise.all([this.running.get(vnetId), taking]).then(() => undefined);
    this.running.set(vnetId, after);
    void after.then(() => {
      if (this.running.get(vnetId) === after) this.running.delete(vnetId);
    });
  }

  private drain(vnetId: string): string[] {
    clearTimeout(this.timers.get(vnetId));
    this.timers.delete(vnetId);
    const hashes = [...(this.waiting.get(vnetId) ?? [])];
    this.waiting.delete(vnetId);
    this.firstWaiting.delete(vnetId);
    return hashes;
  }

  /** Traces the transactions, `BATCH` a round trip, and keeps those the chain answered. */
  private async take(node: ChainNode, vnetId: string, txHashes: readonly string[]): Promise<void> {
    for (let start = 0; start < txHashes.length; start += BATCH) {
      const batch = txHashes.slice(start, start + BATCH);
      const answers = await node.rpc.batch(
        batch.map((hash, id) => ({ jsonrpc: "2.0" as const, id, method: "debug_traceTransaction", params: [hash, CALL_TRACER] })),
      );
      const traces: Record<string, CallFrame> = {};
      for (const answer of answers) {
        const hash = typeof answer.id === "number" ? batch[answer.id] : undefined;
        if (hash !== undefined && "result" in answer && isCallFrame(answer.result)) traces[hash] = answer.result;
      }
      this.put(vnetId, traces);
    }
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
