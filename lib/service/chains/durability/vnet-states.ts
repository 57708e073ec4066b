/**
 * When a Virtual Environment's chain state is saved, and what a start does so that nothing acknowledged is lost: a
 * fresh chain is saved once prepared, a running chain every `saveAfterWrites` journaled writes (in the background,
 * with the chain held alone), a chain started again after it died gets its journal applied again first
 * (./recovery.ts), and a chain that is not a fork always starts from the same genesis (docs/chain-state.md "What
 * survives what"). A save at stop is anvil's own (../node/anvil.ts), stamped with `generation`; `stateSaved` then clears
 * the journal rows it holds.
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

  /** The generation a state saved now holds (./journal.ts `generation`): call it with the chain held alone. */
  generation(vnetId: string): number {
    return this.writes.journal.generation(vnetId);
  }

  /**
   * A state stamped `generation` is in place: the rows through it can go. Never throws (anvil's exit calls it): a
   * clear that fails (a full disk) leaves rows that every start skips, and the next save clears.
   */
  stateSaved(vnetId: string, generation: number): void {
    try {
      this.writes.journal.clearThrough(vnetId, generation);
    } catch (error) {
      this.log?.warn({ vnetId, reason: (error as Error).message }, "the journal rows a saved state holds are kept; a start skips them");
    }
  }

  /**
   * What a start does once the node runs (and a fresh chain is prepared): keeps a new chain's genesis timestamp,
   * applies the writes journaled after the loaded state's `generation` again, sets a loaded chain's clock back
   * (./clock.ts), then saves when it applied any, when rows
   * the state already holds are still journaled (the service died between a save and its clear), or when the chain is
   * fresh. Snapshots taken again are noted for the dashboard's list.
   */
  async started(
    node: ChainNode,
    vnetId: string,
    options: { readonly fresh: boolean; readonly keepGenesis: boolean; readonly generation: number },
  ): Promise<void> {
    if (options.keepGenesis) {
      const genesis = await node.rpc.request<{ timestamp: string } | null>("eth_getBlockByNumber", ["earliest", false]).catch(() => null);
      if (genesis) this.writes.journal.keepGenesisTimestamp(vnetId, Number(BigInt(genesis.timestamp)));
    }
    const began = Date.now();
    const report = await this.writes.replay(node, vnetId, options.generation, async (call, answer) => {
      if (call.method === "evm_snapshot" && "result" in answer) await this.snapshots.note(node, vnetId, [String(answer.result)]);
    });
    JournaledWrites.report(this.log, vnetId, report, Date.now() - began);
    // After the replay, which moves the clock as the journaled calls did: the kept clock is as of the last of them.
    if (!options.fresh) await this.writes.clocks.restore(node, vnetId);
    if (options.fresh || report.calls > 0 || report.held > 0) await this.save(node, vnetId);
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

  /** Forgets a deleted vnet's journal, genesis and clock. */
  forget(vnetId: string): void {
    this.writes.journal.forget(vnetId);
    this.writes.clocks.forget(vnetId);
  }

  /**
   * Saves a running chain's state (call it with the chain held alone), stamped with the last journal row it holds, G;
   * the rows through G are cleared once the state is in place. A chain holding snapshots is not saved: its journal is
   * what brings them back after a crash.
   *
   * Every write is applied exactly once after a crash at any point, because the state file and its G are replaced
   * together by one rename, and a start applies only the rows after the G of the state it loads. With the chain held
   * alone, the rows through G are exactly the writes on the chain (each row is committed after its write ran, under
   * the same lock; a write the journal could not take was undone, ./recovery.ts `commit`), and any later row gets a
   * greater number. So a crash (kill -9, power loss):
   * - before the rename (dumping, writing, fsyncing the temporary file): the previous state, with its G0, is in
   *   place and no row was deleted: the start applies the rows after G0, those of this save among them. The
   *   temporary file is removed at start (./state-files.ts `removeOrphanedStates`).
   * - after the rename, before the clear commits: the new state with G is in place (renamed after its fsync; the
   *   directory is fsynced before the clear, so a power loss cannot undo a rename whose rows are gone); the rows
   *   through G are still journaled, and the start skips them (`ReplayReport.held`) and saves again, which clears them.
   * - after the clear commits: the new state with G, and only rows after G: the start applies those.
   * The save at stop (./anvil.ts) is the same, G read as the chain stops, with it held alone.
   */
  private async save(node: ChainNode, vnetId: string): Promise<void> {
    if (this.snapshots.holds(vnetId) || !node.saveState) return;
    const generation = this.writes.journal.generation(vnetId);
    const failure = await node.saveState(generation);
    if (failure) this.log?.warn({ vnetId, reason: failure }, "a chain's state could not be saved; its journal is kept");
    else this.stateSaved(vnetId, generation);
  }
}
