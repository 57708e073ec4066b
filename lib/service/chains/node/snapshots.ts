/**
 * The snapshots (`evm_snapshot` ids) each Virtual Environment's chain holds, for the dashboard's list and for the
 * rules that follow from anvil keeping them in memory only: a chain holding snapshots is never stopped while idle or
 * evicted (../pool/chain-pool.ts `keepRunning`), and never saved while it runs (../durability/vnet-states.ts): its write journal is what
 * brings its snapshots back, with the same ids, after it died (docs/chain-state.md "What survives what").
 */
import type { ChainNode } from "./backend";
import type { VnetSnapshot } from "../types";

/** The snapshots taken through the RPC URLs, by vnet. */
export class SnapshotBook {
  private readonly taken = new Map<string, VnetSnapshot[]>();

  /** Whether the vnet's chain holds snapshots. */
  holds(vnetId: string): boolean {
    return this.taken.has(vnetId);
  }

  /** The vnet's snapshots, oldest first. */
  list(vnetId: string): readonly VnetSnapshot[] {
    return this.taken.get(vnetId) ?? [];
  }

  /** Notes snapshots just taken (or taken again by a replay: an id already listed stays as it was). */
  /** Notes the snapshots `evm_snapshot` calls took (their answers' ids), in the order the calls ran. */
  async noteTaken(node: ChainNode, vnetId: string, calls: readonly { request: { method: string }; answer: object }[]): Promise<void> {
    const taken = calls.flatMap(({ request, answer }) =>
      request.method === "evm_snapshot" && "result" in answer ? [String((answer as { result: unknown }).result)] : [],
    );
    if (taken.length > 0) await this.note(node, vnetId, taken);
  }

  async note(node: ChainNode, vnetId: string, ids: readonly string[]): Promise<void> {
    const list = this.taken.get(vnetId) ?? [];
    this.taken.set(vnetId, list);
    const blockNumber = await node.rpc.request<string>("eth_blockNumber").catch(() => "0x0");
    const takenAt = new Date().toISOString();
    for (const id of ids) if (!list.some((s) => s.id === id)) list.push({ id, blockNumber, takenAt });
  }

  /** Forgets a deleted vnet's snapshots. */
  forget(vnetId: string): void {
    this.taken.delete(vnetId);
  }
}
