/**
 * When a Virtual Environment's chain state is saved, and what a start does so that nothing acknowledged is lost: a
 * fresh chain is saved once prepared, a running chain every `saveAfterWrites` journaled writes (in the background,
 * with the chain held alone), a chain started again after it died gets its journal applied again first
 * (./recovery.ts), and a chain that is not a fork always starts from the same genesis (docs/chain-state.md "What
 * survives what"). A save at stop is anvil's own (../node/anvil.ts); `stateSaved` then clears the journal.
 */
import type { ChainLog, ChainNode } from "../node/backend";
import type { LockMode } from "../pool/rw-lock";
import { JournaledWrites } from "./recovery";
import type { SnapshotBook } from "../node/snapshots";

/** How many journaled writes a running chain keeps at most before its state is saved. */
export const DEFAULT_SAVE_AFTER_WRITES = 500;

/** Runs work on a vnet's running node, the lock held in `mode`; nothing when it does not run (../pool/chain-pool.ts). */
export type UseIfRunning = <T>(vnetId: string, mode: LockMode, work: (node: ChainNode) => Promise<T>) => Promise<T | undefined>;

/** The saved states of a service's Virtual Environments' chains. */
export class VnetStates {
  /** Saves in progress or queued, by vnet: one at a time. */
  private readonly saving = new Set<string>();

  constructor(
    private readonly writes: JournaledWrites,
    private readonly snapshots: SnapshotBook,
    private readonly useIfRunning: UseIfRunning,
    private readonly saveAfterWrites: number,
    private readonly log: ChainLog | undefined,
  ) {}

  /** The genesis timestamp a chain that is not a fork starts with (undefined until its first start kept one). */
  genesisTimestamp(vnetId: string): number | undefined {
    return this.writes.journal.genesisTimestamp(vnetId);
  }

  /** anvil saved the chain's state as it stopped: every write journaled is in it. */
  stateSaved(vnetId: string): void {
    this.writes.journal.clear(vnetId);
  }

  /**
   * What a start does once the node runs (and a fresh chain is prepared): keeps a new chain's genesis timestamp,
   * applies the writes journaled since the last save again, then saves when it applied any or the chain is fresh.
   * Snapshots taken again are noted for the dashboard's list.
   */
  async started(node: ChainNode, vnetId: string, options: { readonly fresh: boolean; readonly keepGenesis: boolean }): Promise<void> {
    if (options.keepGenesis) {
      const genesis = await node.rpc.request<{ timestamp: string } | null>("eth_getBlockByNumber", ["earliest", false]).catch(() => null);
      if (genesis) this.writes.journal.keepGenesisTimestamp(vnetId, Number(BigInt(genesis.timestamp)));
    }
    const began = Date.now();
    const report = await this.writes.replay(node, vnetId, async (call, answer) => {
      if (call.method === "evm_snapshot" && "result" in answer) await this.snapshots.note(node, vnetId, [String(answer.result)]);
    });
    JournaledWrites.report(this.log, vnetId, report, Date.now() - began);
    if (options.fresh || report.calls > 0) await this.save(node, vnetId);
  }

  /** Saves a running chain's state in the background once `saveAfterWrites` writes are journaled since its last save. */
  saveIfDue(vnetId: string): void {
    if (this.saving.has(vnetId) || this.snapshots.holds(vnetId)) return;
    if (this.writes.journal.count(vnetId) < this.saveAfterWrites) return;
    this.saving.add(vnetId);
    void this.useIfRunning(vnetId, "exclusive", (node) => this.save(node, vnetId))
      .catch((error: Error) => this.log?.warn({ vnetId, reason: error.message }, "a chain's state could not be saved; its journal is kept"))
      .finally(() => this.saving.delete(vnetId));
  }

  /** Forgets a deleted vnet's journal and genesis. */
  forget(vnetId: string): void {
    this.writes.journal.forget(vnetId);
  }

  /**
   * Saves a running chain's state (call it with the chain held alone); its journal is cleared once the save is
   * complete. A chain holding snapshots is not saved: its journal is what brings them back after a crash.
   */
  private async save(node: ChainNode, vnetId: string): Promise<void> {
    if (this.snapshots.holds(vnetId) || !node.saveState) return;
    const failure = await node.saveState();
    if (failure) this.log?.warn({ vnetId, reason: failure }, "a chain's state could not be saved; its journal is kept");
    else this.writes.journal.clear(vnetId);
  }
}
