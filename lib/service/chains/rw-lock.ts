/**
 * A fair readers-writer lock: reads (simulations, read-only RPC calls) share a chain, writes (transactions,
 * cheatcodes, starting and stopping) have it alone. Waiters are served in arrival order, so a write is never
 * starved by a stream of reads. A lease is a shared hold kept for as long as nobody wants the lock alone: the RPC
 * URLs' native hop holds one while it calls the chain (routes/rpc/native-hop.ts), and gives it back when asked.
 */
export type LockMode = "shared" | "exclusive";

interface Waiter {
  readonly mode: LockMode;
  readonly grant: () => void;
}

/** One lock per chain. */
export class RwLock {
  private readers = 0;
  private writing = false;
  private readonly waiters: Waiter[] = [];
  /** Leases held, each with what asks its holder to let go; asked once. */
  private readonly leases = new Map<object, () => void>();

  /** Waits for the lock; the returned function releases it (once). */
  acquire(mode: LockMode): Promise<() => void> {
    return new Promise((resolve) => {
      this.waiters.push({ mode, grant: () => resolve(this.releaser(mode)) });
      this.pump();
      if (mode === "exclusive") this.askLeases();
    });
  }

  /**
   * A shared hold taken at once, as `tryAcquire`, for a holder that keeps it until `giveWay` is called: the first
   * exclusive waiter calls it, and the holder then lets go (the returned function) once its reads are done. Null when
   * the lock cannot be shared now.
   */
  tryLease(giveWay: () => void): (() => void) | null {
    const release = this.tryAcquire("shared");
    if (release === null) return null;
    const lease = {};
    this.leases.set(lease, giveWay);
    return () => {
      this.leases.delete(lease);
      release();
    };
  }

  /**
   * Takes the lock at once when nobody waits and the mode allows it (the common case of read-only RPC calls, which
   * then cost no promise); null when the caller must `acquire` and wait.
   */
  tryAcquire(mode: LockMode): (() => void) | null {
    if (this.waiters.length > 0 || this.writing || (mode === "exclusive" && this.readers > 0)) return null;
    if (mode === "shared") this.readers += 1;
    else this.writing = true;
    return this.releaser(mode);
  }

  /** Asks every lease's holder to let go (each once): somebody waits for the lock alone. */
  private askLeases(): void {
    const asks = [...this.leases.values()];
    this.leases.clear();
    for (const giveWay of asks) giveWay();
  }

  /** True while nobody holds or waits for the lock. */
  get idle(): boolean {
    return this.readers === 0 && !this.writing && this.waiters.length === 0;
  }

  private releaser(mode: LockMode): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (mode === "shared") this.readers -= 1;
      else this.writing = false;
      this.pump();
    };
  }

  private pump(): void {
    while (this.waiters.length > 0 && !this.writing) {
      const next = this.waiters[0];
      if (next.mode === "exclusive" && this.readers > 0) return;
      this.waiters.shift();
      if (next.mode === "shared") this.readers += 1;
      else this.writing = true;
      next.grant();
    }
  }
}
