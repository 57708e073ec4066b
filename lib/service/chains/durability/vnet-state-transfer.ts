/**
 * A Virtual Environment's chain state carried out of and into a service (the export and import of environments):
 * its state as anvil dumps it, read under the chain's lock with the fork it reads, and a state placed for a vnet not
 * started yet, which loads it at its first start as a restarted chain does.
 */
import { rmSync, writeFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import type { ChainNode } from "../node/backend";
import { commitDump, temporaryStatePath } from "../node/state-files";
import { ChainRequestError, type VnetFork } from "../types";
import type { ForkedVnets } from "./forked-vnets";
import { clockOfState, stateWithClock, type ChainClocks } from "./clock";

/** Runs work on a vnet's chain, started if stopped, its lock held shared. */
export type SharedChainUse = <T>(vnetId: string, work: (node: ChainNode) => Promise<T>) => Promise<T>;

/** The states of a service's vnets, out and in. */
export class VnetStateTransfer {
  constructor(
    private readonly forkedVnets: ForkedVnets,
    /** Where a vnet's saved state lives. */
    private readonly statePathOf: (vnetId: string) => string,
    private readonly useShared: SharedChainUse,
    /** The chains' clocks, which travel inside the state (./clock.ts): anvil's own state does not hold them. */
    private readonly clocks: ChainClocks,
  ) {}

  /**
   * A vnet's chain state as anvil dumps it (its state JSON), taken under the chain's lock, and the fork it reads, if
   * any. `read` runs while the lock is held, so that what it reads beside the state (the transaction records, written
   * under the same lock) is of the same moment. Starts a stopped chain.
   */
  read<T>(vnetId: string, read: (state: Buffer, fork: VnetFork | null) => T): Promise<T> {
    return this.useShared(vnetId, async (node) => {
      // anvil answers the state gzip'd, as hex; `--load-state` reads it as JSON.
      const dumped = Buffer.from((await node.rpc.request<string>("anvil_dumpState")).replace(/^0x/, ""), "hex");
      const state = dumped[0] === 0x1f && dumped[1] === 0x8b ? gunzipSync(dumped) : dumped;
      return read(stateWithClock(state, this.clocks.get(vnetId)), this.forkedVnets.forkOf(vnetId));
    });
  }

  /**
   * Makes `state` the saved state of a vnet that has not started yet, forking `fork` when given. Synchronous, so that
   * it runs inside the store transaction that creates the vnet: a failure throws and the caller removes what was
   * placed (`discard`).
   */
  install(vnetId: string, state: Buffer, fork: VnetFork | null): void {
    const statePath = this.statePathOf(vnetId);
    const temporary = temporaryStatePath(statePath);
    writeFileSync(temporary, state, { mode: 0o600 });
    // Generation 0 (../node/state-files.ts): a new vnet has no journal row, and an imported number must not skip later ones.
    const failure = commitDump(temporary, statePath, 0);
    if (failure) throw new ChainRequestError(503, `the imported state of Virtual Environment ${vnetId} could not be saved: ${failure}`);
    const clock = clockOfState(state);
    if (clock) this.clocks.set(vnetId, clock);
    if (fork) this.forkedVnets.note(vnetId, fork);
  }

  /** Removes a state placed by `install` whose vnet was not created after all. */
  discard(vnetId: string): void {
    rmSync(this.statePathOf(vnetId), { force: true });
  }
}
