/**
 * A fair readers-writer lock: reads (simulations, read-only RPC calls) share a chain, writes (transactions,
 * cheatcodes, starting and stopping) have it alone. Waiters are served in arrival order, so a write is never
 * starved by a stream of reads.
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

  /** Waits for the lock; the returned function releases it (once). */
  acquire(mode: LockMode): Promise<() => void> {
    return new Promise((resolve) => {
      this.waiters.push({ mode, grant: () => resolve(this.releaser(mode)) });
      this.pump();
    });
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
