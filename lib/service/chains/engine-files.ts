/**
 * What the engine offers the export, import and clone of environments (lib/service/environment-files) and the pages
 * that show kept traces: a vnet's chain state with its fork and clock, its kept call traces, and a fork's recordings,
 * each read under the chain's lock or placed inside the store transaction that creates the vnet. The engine
 * (./engine.ts) extends it with the parts it holds.
 */
import type { CallFrame } from "./evm/trace";
import type { Forks } from "./fork";
import type { TraceRecords } from "./durability/trace-records";
import type { VnetStateTransfer } from "./durability/vnet-state-transfer";
import type { VnetChainSpec, VnetFork } from "./types";

/** The engine's side of environment files and kept traces, over the parts the engine holds. */
export abstract class VnetFilesPort {
  protected abstract readonly traces: TraceRecords;
  protected abstract readonly stateTransfer: VnetStateTransfer;
  abstract readonly forks: Forks;
  /** The vnet's spec; throws the spec's 404 for an unknown vnet. */
  protected abstract spec(vnetId: string): VnetChainSpec;

  /**
   * Fixtures (lib/service/environment-files): a vnet's chain state and its fork, read under the chain's lock
   * (`VnetStateTransfer.read`).
   */
  async withVnetState<T>(vnetId: string, read: (state: Buffer, fork: VnetFork | null) => T): Promise<T> {
    this.spec(vnetId);
    // Before the lock: a capture queued behind a writer waiting for this read would wait for it.
    await this.traces.flush(vnetId);
    return this.stateTransfer.read(vnetId, read);
  }

  /** Fixtures: places the saved state of a vnet not started yet, inside the creating transaction (`VnetStateTransfer.install`). */
  installVnetState(vnetId: string, state: Buffer, fork: VnetFork | null): void {
    this.stateTransfer.install(vnetId, state, fork);
  }

  storedTrace(vnetId: string, txHash: string): CallFrame | null {
    return this.traces.get(vnetId, txHash);
  }

  storedTraces(vnetId: string): Record<string, CallFrame> {
    return this.traces.all(vnetId);
  }

  installTraces(vnetId: string, traces: Readonly<Record<string, unknown>>): void {
    this.traces.put(vnetId, traces);
  }

  /** Tests: waits for the traces queued for capture on a vnet. */
  flushTraces(vnetId: string): Promise<void> {
    return this.traces.flush(vnetId);
  }

  /** Fixtures: removes a state (and recordings) placed for a vnet that was not created after all. */
  discardVnetState(vnetId: string): void {
    this.stateTransfer.discard(vnetId);
    void this.forks.forgetVnet(vnetId);
  }

  /** Fixtures: the recordings a vnet's fork reads (its own; with `shared`, the service's too), or null when there are none. */
  forkRecordings(vnetId: string, fork: VnetFork, shared: boolean): Promise<Record<string, unknown> | null> {
    return this.forks.savedRecordings(vnetId, fork.networkId, BigInt(fork.blockNumber), shared);
  }

  /** Fixtures: keeps an imported fixture's recordings for the vnet it creates (inside the creating transaction). */
  installForkRecordings(vnetId: string, fork: VnetFork, answers: Readonly<Record<string, unknown>>): void {
    this.forks.installRecordings(vnetId, fork.networkId, BigInt(fork.blockNumber), answers);
  }
}
