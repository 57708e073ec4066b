/**
 * A cap on the chains running at once across pools (`serve --max-chains`): a start beyond it first stops the idlest
 * node of any pool sharing it (state kept), and is refused with a 503 when every running node is busy.
 */
import { ChainRequestError } from "../types";

/**
 * Default cap on running chains: an idle anvil takes about 20 MB and a busy one a few hundred, so 64 leave most of
 * a 24 GiB machine to everything else while no test suite or team on one machine reaches it (`serve --max-chains`).
 */
export const DEFAULT_MAX_RUNNING_CHAINS = 64;

/**
 * What the budget sees of a pool that counts against it (./chain-pool.ts `ChainPool`): the budget knows pools only
 * through this, so that the pool imports the budget and never the other way round.
 */
export interface BudgetedPool {
  /** Nodes running or starting. */
  readonly occupied: number;
  /**
   * The idle node unused the longest that may be stopped to make room, with when it was last used, whether only
   * subscribers hold it (such a node goes after every other), and its stop.
   */
  idlest(): { readonly lastTouch: number; readonly pinned: boolean; evict(): Promise<void> } | undefined;
}

/** A cap on the nodes running at once, shared by the pools given it. */
export class ChainBudget {
  /** @internal the pools that count against this budget */
  readonly pools = new Set<BudgetedPool>();
  /** @internal stops in progress to make room */
  readonly evictions = new Set<Promise<void>>();

  constructor(
    /** At most this many nodes run (or start) at once. */
    readonly max: number,
  ) {
    if (!Number.isSafeInteger(max) || max < 1) throw new RangeError(`the cap on running chains must be a positive integer, got ${max}`);
  }

  /** Nodes running or starting, in every pool. */
  get occupied(): number {
    let n = 0;
    for (const pool of this.pools) n += pool.occupied;
    return n;
  }

  /**
   * Waits until the budget has room for one more node (the one asking, already counted as starting): stops the idlest
   * nodes of every pool sharing the budget, or refuses when every running node is busy.
   */
  async makeRoom(): Promise<void> {
    for (;;) {
      const excess = this.occupied - this.max;
      if (excess <= 0) return;
      if (this.evictions.size >= excess) {
        await Promise.race(this.evictions);
        continue;
      }
      let victim: { lastTouch: number; pinned: boolean; evict(): Promise<void> } | undefined;
      for (const pool of this.pools) {
        const candidate = pool.idlest();
        // A node held only by subscribers goes after every other idle one.
        const before =
          candidate && victim && candidate.pinned === victim.pinned ? candidate.lastTouch < victim.lastTouch : !candidate?.pinned;
        if (candidate && (!victim || before)) victim = candidate;
      }
      if (!victim) {
        throw new ChainRequestError(
          503,
          `all ${this.max} chains this service may run at once are busy: try again shortly (the operator can raise serve --max-chains)`,
        );
      }
      const eviction: Promise<void> = victim.evict().finally(() => this.evictions.delete(eviction));
      this.evictions.add(eviction);
    }
  }
}
