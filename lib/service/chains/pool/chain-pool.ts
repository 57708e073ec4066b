/**
 * Lazily started, idle-stopped chains keyed by id (a Virtual Environment id, or a network id for replicas).
 * Every use goes through the chain's readers-writer lock; the first use starts the node (concurrent first uses
 * share one start), an idle node is stopped with its state kept, and a destroyed one is killed. Pools may share a
 * `ChainBudget` (./chain-budget.ts), a cap on the nodes running at once, which sees a pool as a `BudgetedPool`. A node whose call missed its deadline is
 * checked, and killed when it no longer answers; its next use starts it again (and the engine's start applies its
 * journal again).
 */
import type { ChainLog, ChainNode } from "../node/backend";
import { DEFAULT_RPC_TIMEOUT_MS } from "../wire/chain-timeout";
import type { BudgetedPool, ChainBudget } from "./chain-budget";
import { RwLock, type LockMode } from "./rw-lock";

/** One key's node, lock and timers. */
interface Slot {
  readonly key: string;
  readonly lock: RwLock;
  node: ChainNode | null;
  starting: Promise<ChainNode> | null;
  idleTimer: NodeJS.Timeout | null;
  lastUsed: number;
  /** Open WebSocket subscriptions on the node: a pinned node is never idle-stopped. */
  pins: number;
  /** Being stopped to make room under the budget. */
  evicting: boolean;
  /** Order of last use across every pool (timestamps tie within a millisecond): the idlest has the smallest. */
  lastTouch: number;
}

/** Counts uses, process-wide, to order them. */
let touches = 0;

/** Options of a pool. */
export interface ChainPoolOptions {
  /** Starts the node of a key (and prepares a fresh chain). */
  readonly launch: (key: string) => Promise<ChainNode>;
  /** A node unused for this long is stopped (state kept); 0 never stops. */
  readonly idleTimeoutMs: number;
  /** Keys whose node must not be stopped when idle (e.g. it holds snapshots, which a restart loses). */
  readonly keepRunning?: (key: string) => boolean;
  /** The cap on running nodes this pool counts against (shared with other pools); none by default. */
  readonly budget?: ChainBudget;
  /**
   * The deadline of a call to a node (../wire/chain-timeout.ts): a node whose call missed it is checked, and killed when it
   * does not answer (the next use starts it again); a deletion waits this long for calls in flight, then kills.
   * @default 30000
   */
  readonly rpcTimeoutMs?: number;
  /** Where the pool reports a chain it killed because it stopped answering; default: nowhere. */
  readonly log?: ChainLog;
  /** Runs on a running node about to be stopped with its state kept, the lock held alone (never fails the stop). */
  readonly beforeStop?: (key: string, node: ChainNode) => Promise<void>;
}

/** Longest a check of a node that missed a deadline waits for its answer. */
const PROBE_TIMEOUT_MS = 5_000;

/** The running chains of one kind. */
export class ChainPool implements BudgetedPool {
  private readonly slots = new Map<string, Slot>();
  private closed = false;
  /** Nodes being checked after a missed deadline. */
  private readonly checking = new WeakSet<ChainNode>();

  constructor(private readonly options: ChainPoolOptions) {
    options.budget?.pools.add(this);
  }

  /** Runs `work` with the key's node started and the lock held in `mode`. */
  async use<T>(key: string, mode: LockMode, work: (node: ChainNode) => Promise<T>): Promise<T> {
    if (this.closed) throw new Error("chain pool is closed");
    const slot = this.slot(key);
    const release = slot.lock.tryAcquire(mode) ?? (await slot.lock.acquire(mode));
    try {
      return await work(slot.node ?? (await this.ensureStarted(slot)));
    } finally {
      this.release(slot, release);
    }
  }

  /**
   * Runs `work` with the lock held in `mode` if the key's node is running once the lock is held (else nothing, and
   * undefined): for work on a running node that must not start a stopped one, such as saving its state.
   */
  async useIfRunning<T>(key: string, mode: LockMode, work: (node: ChainNode) => Promise<T>): Promise<T | undefined> {
    const slot = this.runningSlot(key);
    if (slot === null) return undefined;
    const release = await slot.lock.acquire(mode);
    try {
      return slot.node && !this.closed ? await work(slot.node) : undefined;
    } finally {
      this.release(slot, release);
    }
  }

  /**
   * The key's node with the lock held in `mode`, at once, when nothing needs waiting for (the node runs and the lock
   * is free), else null and the caller takes `use`. `finish` lets go of the lock, once the work is done. The RPC URLs'
   * pass-through calls come this way: without a promise, and what the chain answers is all the wait.
   */
  tryUse(key: string, mode: LockMode): { readonly node: ChainNode; readonly finish: () => void } | null {
    const slot = this.runningSlot(key);
    const release = slot?.lock.tryAcquire(mode) ?? null;
    if (slot === null || release === null) return null;
    return { node: slot.node, finish: () => this.release(slot, release) };
  }

  /** The key's slot while its node runs and the pool is open; null otherwise. */
  private runningSlot(key: string): (Slot & { node: ChainNode }) | null {
    const slot = this.slots.get(key);
    return this.closed || slot === undefined || slot.node === null ? null : (slot as Slot & { node: ChainNode });
  }

  /** Lets go of a hold on the slot's lock, counting the use: the slot's idle clock starts again. */
  private release(slot: Slot, release: () => void): void {
    slot.lastUsed = Date.now();
    slot.lastTouch = ++touches;
    release();
    this.armIdleTimer(slot);
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
        slot.lastTouch = ++touches;
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

  /**
   * Kills a key's node (waiting for work in progress, at most a call's deadline: then the node is killed under the
   * calls, which fail, so that a wedged chain cannot hold a deletion) and forgets it.
   */
  async destroy(key: string): Promise<void> {
    const slot = this.slots.get(key);
    if (!slot) return;
    const release = await this.acquireOrKill(slot);
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

  /** @internal Nodes running or starting (for the budget). */
  get occupied(): number {
    let n = 0;
    for (const slot of this.slots.values()) if (slot.node || slot.starting) n += 1;
    return n;
  }

  /**
   * @internal The idle node unused the longest that may be stopped (not in use, not kept running, not being stopped
   * already), with when it was last used, whether only WebSocket subscriptions hold it, and its stop (state kept), for
   * the budget. A node held only by subscriptions is offered when no other is idle: subscribers, anonymous ones
   * included, must not keep every other chain from starting (their connections are closed with a reason when the node
   * stops).
   */
  idlest(): { lastTouch: number; pinned: boolean; evict(): Promise<void> } | undefined {
    let best: Slot | undefined;
    let pinned: Slot | undefined;
    for (const slot of this.slots.values()) {
      if (!slot.node || slot.starting || slot.evicting || !slot.lock.idle) continue;
      if (this.options.keepRunning?.(slot.key)) continue;
      if (slot.pins > 0) {
        if (!pinned || slot.lastTouch < pinned.lastTouch) pinned = slot;
      } else if (!best || slot.lastTouch < best.lastTouch) best = slot;
    }
    const found = best ?? pinned;
    return found && { lastTouch: found.lastTouch, pinned: found === pinned, evict: () => this.evict(found) };
  }

  /** Stops a node to make room under the budget (state kept). */
  private async evict(slot: Slot): Promise<void> {
    slot.evicting = true;
    try {
      await this.stopSlot(slot);
    } finally {
      slot.evicting = false;
    }
  }

  /**
   * The slot's lock alone; when calls in flight hold it past a call's deadline (and a bit), the node is killed first,
   * which ends them.
   */
  private async acquireOrKill(slot: Slot): Promise<() => void> {
    const acquiring = slot.lock.acquire("exclusive");
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<"late">((resolve) => (timer = setTimeout(() => resolve("late"), this.rpcTimeoutMs + 1_000)));
    const first = await Promise.race([acquiring, late]);
    clearTimeout(timer);
    if (first !== "late") return first;
    const node = slot.node;
    if (node) {
      this.options.log?.warn({ key: slot.key }, "a chain's calls outlived their deadline; it is killed to let its stop go on");
      slot.node = null;
      await node.kill();
    }
    return acquiring;
  }

  private get rpcTimeoutMs(): number {
    return this.options.rpcTimeoutMs ?? DEFAULT_RPC_TIMEOUT_MS;
  }

  /**
   * Checks a node one of whose calls missed its deadline, with a cheap call of its own short deadline: a node that
   * does not answer it (wedged, stopped, out of memory) is killed; the next use starts it again from its saved state
   * and the writes journaled since (the engine's launch). One check at a time per node.
   */
  private async check(slot: Slot, node: ChainNode): Promise<void> {
    if (this.checking.has(node) || slot.node !== node) return;
    this.checking.add(node);
    try {
      const alive = await node.rpc
        .request("eth_chainId", [], Math.min(PROBE_TIMEOUT_MS, this.rpcTimeoutMs))
        .then(() => true)
        .catch(() => false);
      if (alive || slot.node !== node) return;
      // A warning, not an error: the next use starts it again with every acknowledged write (./lost-chains.ts).
      this.options.log?.warn({ key: slot.key }, "a chain stopped answering; it is killed and starts again at its next use");
      slot.node = null;
      await node.kill();
    } finally {
      this.checking.delete(node);
    }
  }

  /** Stops every node, keeping state. */
  async close(): Promise<void> {
    this.closed = true;
    this.options.budget?.pools.delete(this);
    await Promise.all([...this.slots.values()].map((slot) => this.stopSlot(slot)));
    this.slots.clear();
  }

  private slot(key: string): Slot {
    let slot = this.slots.get(key);
    if (!slot) {
      slot = {
        key,
        lock: new RwLock(),
        node: null,
        starting: null,
        idleTimer: null,
        lastUsed: Date.now(),
        pins: 0,
        evicting: false,
        lastTouch: ++touches,
      };
      this.slots.set(key, slot);
    }
    return slot;
  }

  private ensureStarted(slot: Slot): Promise<ChainNode> {
    if (slot.node) return Promise.resolve(slot.node);
    // `starting` is set at once, so that this start counts against the budget before any await.
    slot.starting ??= Promise.resolve()
      .then(() => this.options.budget?.makeRoom())
      .then(() => this.options.launch(slot.key))
      .then((node) => {
        this.options.log?.info({ key: slot.key }, "a chain is started (one stopped before is reloaded from its saved state)");
        slot.node = node;
        node.rpc.onTimeout = () => void this.check(slot, node);
        // A node that died (crash, kill -9) is forgotten; the next use starts it again from its saved state, and the
        // launch applies the writes journaled since (../durability/vnet-states.ts).
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

  /**
   * Makes sure the slot's node is looked at once it may have been idle long enough. A timer already armed stays: it
   * arms itself again for the rest of the time when the node was used meanwhile (stopIfIdle), so a busy chain costs
   * one timer per idle period, not one per call.
   */
  private armIdleTimer(slot: Slot, delayMs = this.options.idleTimeoutMs): void {
    if (this.options.idleTimeoutMs <= 0 || this.closed || slot.idleTimer) return;
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
    if (!slot.lock.idle || slot.pins > 0) {
      this.armIdleTimer(slot, this.options.idleTimeoutMs);
      return;
    }
    if (idleFor < this.options.idleTimeoutMs) {
      this.armIdleTimer(slot, Math.max(1, this.options.idleTimeoutMs - Math.max(0, idleFor)));
      return;
    }
    if (this.options.keepRunning?.(slot.key)) {
      this.armIdleTimer(slot, this.options.idleTimeoutMs);
      return;
    }
    this.options.log?.info({ key: slot.key, idleMs: idleFor }, "an idle chain is stopped, its state kept; its next call starts it again");
    await this.stopSlot(slot);
  }

  private async stopSlot(slot: Slot): Promise<void> {
    const release = await this.acquireOrKill(slot);
    try {
      this.clearIdleTimer(slot);
      const node = slot.node ?? (await slot.starting?.catch(() => null)) ?? null;
      if (node && this.options.beforeStop) await this.options.beforeStop(slot.key, node).catch(() => undefined);
      slot.node = null;
      if (node) await node.stop();
    } finally {
      release();
    }
  }
}
