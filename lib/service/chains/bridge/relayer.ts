/**
 * The bridge's relayer: deposits seen on one Virtual Environment are paid out on their destination, at once
 * (`autoRelay`) or when their delay has passed (`delayedRelay`), exactly once, surviving restarts (RelayStore).
 */
import type { ChainNode } from "../node/backend";
import { RelayStore, type BridgeRelay } from "../durability/relays";
import { relayCall, relayedCall } from "./contract";
import type { Receipt } from "../evm/rpc-answers";
import type { CallEffects } from "../transactions/call-effects";
import type { JournaledWrites } from "../durability/recovery";
import type { ChainHost } from "../types";

/** Runs a function on a Virtual Environment's chain, alone (the engine's pool). */
export type ExclusiveChainUse = <T>(vnetId: string, fn: (node: ChainNode) => Promise<T>) => Promise<T>;

/** Schedules and runs the bridge relays of a service. */
export class BridgeRelayer {
  private readonly relays: RelayStore;
  private readonly inFlight = new Set<string>();
  private timer: NodeJS.Timeout | null = null;
  private closed = false;
  /** Until when runs wait after the store failed one (0: no wait). */
  private backoffUntil = 0;

  constructor(
    private readonly host: ChainHost,
    private readonly effects: CallEffects,
    private readonly useExclusive: ExclusiveChainUse,
    /** A relay is a write like any other: journaled with its record and its outcome (../durability/recovery.ts). */
    private readonly writes: JournaledWrites,
  ) {
    this.relays = new RelayStore(host.db);
    this.schedule();
  }

  /** Stores deposits and relays those due now (autoRelay) before returning; schedules the others. */
  async relay(deposits: readonly BridgeRelay[]): Promise<void> {
    if (deposits.length === 0) return;
    this.relays.add(deposits);
    const now = Date.now();
    for (const relay of deposits) if (relay.dueAt <= now) await this.run(relay);
    this.schedule();
  }

  /** Drops the pending relays of deleted Virtual Environments. */
  dropVnets(vnetIds: readonly string[]): void {
    this.relays.dropVnets(vnetIds);
  }

  /** Stops scheduling; pending relays stay stored for the next start. */
  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
  }

  private schedule(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.closed) return;
    const next = this.relays.pending().find((r) => !this.inFlight.has(relayKey(r)));
    if (!next) return;
    const wait = Math.max(0, next.dueAt - Date.now(), this.backoffUntil - Date.now());
    this.timer = setTimeout(() => void this.runDue(), wait);
    this.timer.unref();
  }

  /** Runs every relay that is due. Never rejects: it runs from a timer, where a rejection would end the process. */
  private async runDue(): Promise<void> {
    const now = Date.now();
    try {
      for (const relay of this.relays.pending()) if (relay.dueAt <= now && !this.closed) await this.run(relay);
    } catch {
      // The store could not be read or written (a full disk): the relays stay pending and are tried again later.
      this.backoffUntil = Date.now() + RETRY_AFTER_STORE_FAILURE_MS;
    }
    this.schedule();
  }

  /** Pays a deposit out on its destination, once: the contract's `relayed` map is checked first. */
  private async run(relay: BridgeRelay): Promise<void> {
    const key = relayKey(relay);
    if (this.inFlight.has(key) || this.closed) return;
    this.inFlight.add(key);
    try {
      const destination = this.host.resolveVnet(relay.destinationVnetId);
      if (!destination) return this.relays.settle(relay, { status: "failed", error: "destination Virtual Environment deleted" });
      await this.useExclusive(destination.vnetId, async (node) => {
        const done = await node.rpc.request<string>("eth_call", [relayedCall(relay), "latest"]);
        if (BigInt(done) !== 0n) return this.relays.settle(relay, { status: "relayed" });
        const before = await this.writes.begin(node);
        const call = relayCall(relay);
        const receipt = await node.rpc.request<Receipt>("eth_sendTransactionSync", [call]);
        const record = await this.effects.recordOfReceipt(node, destination, receipt, "bridge", "eth_sendTransaction");
        const sent = { method: "eth_sendTransactionSync", params: [call], txHash: receipt.transactionHash, mined: true };
        await this.writes.commit(node, destination.vnetId, before, [sent], [record], {
          also: () => this.relays.settle(relay, { status: record.status === "success" ? "relayed" : "failed", txHash: record.tx_hash }),
        });
      });
    } catch (error) {
      // Leave it pending when the engine is shutting down: the next start relays it. A settle that fails too (the
      // store cannot write) leaves it pending: runDue tries it again later.
      if (!this.closed) this.relays.settle(relay, { status: "failed", error: (error as Error).message });
    } finally {
      this.inFlight.delete(key);
    }
  }
}

/** How long the relayer waits before it tries again after the store failed it (a full disk frees up slowly). */
const RETRY_AFTER_STORE_FAILURE_MS = 5_000;

function relayKey(relay: BridgeRelay): string {
  return `${relay.sourceVnetId}/${relay.depositId}`;
}
