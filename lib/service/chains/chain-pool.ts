/**
 * Lazily started, idle-stopped chains keyed by id (a Virtual Environment id, or a network id for replicas).
 * Every use goes through the chain's readers-writer lock; the first use starts the node (concurrent first uses
 * share one start), an idle node is stopped with its state kept, and a destroyed one is killed.
 */
import type { ChainNode } from "./backend";
import { RwLock, type LockMode } from "./rw-lock";

interface Slot {
  readonly key: string;
  readonly lock: RwLock;
  node: ChainNode | null;
  starting: Promise<ChainNode> | null;
  idleTimer: NodeJS.Timeout | null;
  lastUsed: number;
  /** Open WebSocket subscriptions on the node: a pinned node is never idle-stopped. */
  pins: number;
}

/** Options of a pool. */
export interface ChainPoolOptions {
  /** Starts the node of a key (and prepares a fresh chain). */
  readonly launch: (key: string) => Promise<ChainNode>;
  /** A node unused for this long is stopped (state kept); 0 never stops. */
  readonly idleTimeoutMs: number;
  /** Keys whose node must not be stopped when idle (e.g. it holds snapshots, which a restart loses). */
  readonly keepRunning?: (key: string) => boolean;
}

/** The running chains of one kind. */
export class ChainPool {
  private readonly slots = new Map<string, Slot>();
  private closed = false;

  constructor(private readonly options: ChainPoolOptions) {}

  /** Runs `work` with the key's node started and the lock held in `mode`. */
  async use<T>(key: string, mode: LockMode, work: (node: ChainNode) => Promise<T>): Promise<T> {
    if (this.closed) throw new Error("chain pool is closed");
    const slot = this.slot(key);
    const release = await slot.lock.acquire(mode);
    try {
      const node = await this.ensureStarted(slot);
      return await work(node);
    } finally {
      slot.lastUsed = Date.now();
      release();
      this.armIdleTimer(slot);
    }
  }

  /**
   * Runs `work` with the key's node started, and keeps the node from idle-stopping until the returned function is
   * called (a WebSocket subscription reads the node directly for as long as it is open).
   */
  async pin<T>(key: string, work: (node: ChainNode) => T): Promise<{ value: T; unpin: () => void }> {
    const value = await this.use(key, "shared", async (node) => work(node));
    const slot = this.slot(key);
    slot.pins += 1;
    let pinned = true;
    return {
      value,
      unpin: () => {
        if (!pinned) return;
        pinned = false;
        slot.pins -= 1;
        slot.lastUsed = Date.now();
        this.armIdleTimer(slot);
      },
    };
  }

  /** The node of a key if it is running (for tests and benchmarks). */
  running(key: string): ChainNode | null {
    return this.slots.get(key)?.node ?? null;
  }

  /** Number of running nodes. */
  get size(): number {
    let n = 0;
    for (const slot of this.slots.values()) if (slot.node) n += 1;
    return n;
  }

  /** Kills a key's node (waiting for work in progress) and forgets it. */
  async destroy(key: string): Promise<void> {
    const slot = this.slots.get(key);
    if (!slot) return;
    const release = await slot.lock.acquire("exclusive");
    try {
      this.clearIdleTimer(slot);
      const node = slot.node ?? (await slot.starting?.catch(() => null)) ?? null;
      slot.node = null;
      if (node) await node.kill();
    } finally {
      if (this.slots.get(key) === slot) this.slots.delete(key);
      release();
    }
  }

  /** Stops every node, keeping state. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.slots.values()].map((slot) => this.stopSlot(slot)));
    this.slots.clear();
  }

  private slot(key: string): Slot {
    let slot = this.slots.get(key);
    if (!slot) {
      slot = { key, lock: new RwLock(), node: null, starting: null, idleTimer: null, lastUsed: Date.now(), pins: 0 };
      this.slots.set(key, slot);
    }
    return slot;
  }

  private ensureStarted(slot: Slot): Promise<ChainNode> {
    if (slot.node) return Promise.resolve(slot.node);
    slot.starting ??= this.options
      .launch(slot.key)
      .then((node) => {
        slot.node = node;
        // A crashed node is forgotten; the next use starts it again from its last dumped state.
        void node.exited.then(() => {
          if (slot.node === node) slot.node = null;
        });
        return node;
      })
      .finally(() => {
        slot.starting = null;
      });
    return slot.starting;
  }

  private armIdleTimer(slot: Slot, delayMs = this.options.idleTimeoutMs): void {
    if (this.options.idleTimeoutMs <= 0 || this.closed) return;
    this.clearIdleTimer(slot);
    slot.idleTimer = setTimeout(() => void this.stopIfIdle(slot), delayMs);
    slot.idleTimer.unref();
  }

  private clearIdleTimer(slot: Slot): void {
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    slot.idleTimer = null;
  }

  /**
   * Stops the slot's node when it has been idle long enough. Timers may fire a little early (and the lock may be
   * busy): then the timer is armed again, so an idle chain always stops eventually.
   */
  private async stopIfIdle(slot: Slot): Promise<void> {
    slot.idleTimer = null;
    if (this.closed || this.slots.get(slot.key) !== slot || !slot.node) return;
    const idleFor = Date.now() - slot.lastUsed;
    if (!slot.lock.idle || slot.pins > 0 || idleFor < this.options.idleTimeoutMs) {
      this.armIdleTimer(slot, Math.max(1, this.options.idleTimeoutMs - Math.max(0, idleFor)));
      return;
    }
    if (this.options.keepRunning?.(slot.key)) {
      this.armIdleTimer(slot, this.options.idleTimeoutMs);
      return;
    }
    await this.stopSlot(slot);
  }

  private async stopSlot(slot: Slot): Promise<void> {
    const release = await slot.lock.acquire("exclusive");
    try {
      this.clearIdleTimer(slot);
      const node = slot.node ?? (await slot.starting?.catch(() => null)) ?? null;
      slot.node = null;
      if (node) await node.stop();
    } finally {
      release();
    }
  }
}
