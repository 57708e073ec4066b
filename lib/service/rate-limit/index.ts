/**
 * Sliding-window rate limiting (docs/api.md "Limits", docs/service.md "Access"): each request counts for 60 s from when it
 * is made; requests refused with 429 do not count. `remaining = min(limit, burst) - counted`, and the reset
 * timestamp is when the oldest counted request expires.
 *
 * This folder is the rate limits' one home: the limiter and the limits (here, which the RPC URLs count in as well) and
 * the API's plugin (./plugin.ts).
 */

/** The window every request counts in (docs/api.md "Limits"). */
export const RATE_WINDOW_MS = 60_000;

/** The limits of the service (all per window). Tests lower them; benchmarks raise them. */
export interface RateLimitSettings {
  /** The sliding window, in ms. Default 60 000 (the spec's); tests shorten it to exercise pacing quickly. */
  readonly windowMs: number;
  /** Requests per key (authenticated). Default 400. */
  readonly rateLimit: number;
  /** Burst limit over the same window, applying to authenticated and anonymous requests. Default 250. */
  readonly burstLimit: number;
  /** Requests per client address without valid credentials. Default 100. */
  readonly unauthenticatedLimit: number;
  /**
   * Calls per RPC URL (an HTTP request, a WebSocket message or upgrade). The RPC URLs have their own limit, far above
   * what one chain can answer (`DEFAULT_RPC_LIMIT`), so that a test suite never meets it; `serve --rpc-rate-limit N`
   * sets it, `off` is `RPC_LIMIT_OFF`.
   */
  readonly rpcLimit: number;
}

/**
 * The default per-URL RPC limit: 10,000,000 calls a minute, about 166,000 a second. One anvil answers at most about
 * 25,000 cheap calls a second on a developer machine (docs/performance.md), so no suite on one machine reaches it.
 */
export const DEFAULT_RPC_LIMIT = 10_000_000;

/** `--rpc-rate-limit off`: a limit nothing reaches, still counted so that the `X-Svc-*` headers stay numbers. */
export const RPC_LIMIT_OFF = Number.MAX_SAFE_INTEGER;

/** The spec's default limits. */
export const DEFAULT_RATE_LIMITS: RateLimitSettings = {
  windowMs: RATE_WINDOW_MS,
  rateLimit: 400,
  burstLimit: 250,
  unauthenticatedLimit: 100,
  rpcLimit: DEFAULT_RPC_LIMIT,
};

/** The answer for one request: its `X-Svc-*` header values, and whether it may go on. */
export interface RateDecision {
  readonly allowed: boolean;
  readonly limit: number;
  readonly remaining: number;
  /** Unix epoch seconds when the oldest counted request expires. */
  readonly resetTimestamp: number;
}

/**
 * The requests counted in a window, as runs: `counts[i]` requests made at millisecond `times[i]`. A busy RPC URL makes
 * many requests in the same millisecond, so a window of a million calls holds at most 60,000 runs; expiry is exact
 * to the millisecond, as with one entry per request.
 */
interface Bucket {
  times: number[];
  counts: number[];
  head: number;
  /** Requests in the runs from `head` on. */
  total: number;
}

const SWEEP_EVERY = 10_000;

/**
 * Counts requests per bucket key in a sliding window.
 *
 * @example
 * const limiter = new SlidingWindowLimiter(60_000);
 * const { allowed, remaining } = limiter.take("key:cf_…", 400, 250);
 */
export class SlidingWindowLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private takes = 0;

  constructor(
    private readonly windowMs: number = RATE_WINDOW_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Counts one request of `bucketKey` unless `min(limit, burst)` requests already count in the window. With
   * `count: false` (CORS preflights) it only reports: nothing is counted and nothing is refused.
   */
  take(bucketKey: string, limit: number, burst: number, count = true): RateDecision {
    const now = this.now();
    if (++this.takes % SWEEP_EVERY === 0) this.sweep(now);
    let bucket = this.buckets.get(bucketKey);
    if (!bucket) this.buckets.set(bucketKey, (bucket = { times: [], counts: [], head: 0, total: 0 }));
    expire(bucket, now, this.windowMs);
    const cap = Math.min(limit, burst);
    const counted = bucket.total;
    if (!count) {
      const oldest = bucket.times.length > bucket.head ? bucket.times[bucket.head] : now;
      return { allowed: true, limit, remaining: Math.max(0, cap - counted), resetTimestamp: Math.ceil((oldest + this.windowMs) / 1000) };
    }
    const allowed = counted < cap;
    if (allowed) {
      const last = bucket.times.length - 1;
      if (last >= bucket.head && bucket.times[last] === now) bucket.counts[last] += 1;
      else {
        bucket.times.push(now);
        bucket.counts.push(1);
      }
      bucket.total += 1;
    }
    const oldest = bucket.times.length > bucket.head ? bucket.times[bucket.head] : now;
    return {
      allowed,
      limit,
      remaining: allowed ? cap - counted - 1 : 0,
      resetTimestamp: Math.ceil((oldest + this.windowMs) / 1000),
    };
  }

  /** How many buckets are held (one per key with requests in the window, until the next sweep). */
  get size(): number {
    return this.buckets.size;
  }

  /** Drops buckets with nothing left in the window, so idle clients cost no memory. */
  private sweep(now: number): void {
    for (const [key, bucket] of this.buckets) {
      expire(bucket, now, this.windowMs);
      if (bucket.head === bucket.times.length) this.buckets.delete(key);
    }
  }
}

function expire(bucket: Bucket, now: number, windowMs: number): void {
  const threshold = now - windowMs;
  while (bucket.head < bucket.times.length && bucket.times[bucket.head] <= threshold) {
    bucket.total -= bucket.counts[bucket.head];
    bucket.head++;
  }
  if (bucket.head > 1024 && bucket.head * 2 > bucket.times.length) {
    bucket.times = bucket.times.slice(bucket.head);
    bucket.counts = bucket.counts.slice(bucket.head);
    bucket.head = 0;
  }
}
