/** The rate limit headers of one answer (docs/api.md "Limits"). */
export interface RateLimitState {
  /** `X-Svc-Remaining`: requests left in the window. */
  remaining: number;
  /** `X-Svc-Reset-Timestamp` in epoch milliseconds: when the oldest counted request expires. */
  resetAtMs: number;
}

/**
 * Reads `X-Svc-Remaining` and `X-Svc-Reset-Timestamp`. The spec gives the timestamp in epoch seconds; a value
 * that can only be milliseconds (> 1e12) is taken as such. Returns undefined when either header is missing.
 */
export function readRateLimitHeaders(headers: Record<string, string | string[] | undefined>): RateLimitState | undefined {
  const remaining = Number(first(headers["x-svc-remaining"]));
  const reset = Number(first(headers["x-svc-reset-timestamp"]));
  if (!Number.isFinite(remaining) || !Number.isFinite(reset) || first(headers["x-svc-remaining"]) === undefined) return undefined;
  return { remaining: Math.max(0, Math.floor(remaining)), resetAtMs: reset > 1e12 ? reset : reset * 1000 };
}

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** A permission to send one request; hand it back to {@link Pacer.release} with the answer's headers. */
export interface Ticket {
  readonly seq: number;
}

/** Settings of a {@link Pacer}. */
export interface PacerOptions {
  /**
   * Added to a reset timestamp before sending again. The header has second resolution and may be rounded down,
   * so the default is one second.
   */
  resetMarginMs?: number;
  /** Clock, for tests. */
  now?: () => number;
}

/**
 * Keeps one key under the service's sliding-window limit instead of letting requests run into 429.
 *
 * It tracks an estimate of the remaining budget: every send takes one, every answer replaces the estimate with
 * the header value minus the requests still in flight (conservatively assumed not yet counted). At zero it holds
 * callers, first in first out, until the reset timestamp has passed, then lets one request probe the fresh budget
 * before releasing the rest. While nothing is known (first request, or after a reset) one request is in flight at
 * a time. Answers without the headers switch pacing off for that key.
 */
export class Pacer {
  private remaining: number | undefined;
  private resetAtMs = 0;
  private unlimited = false;
  private inFlight = 0;
  private seq = 0;
  private appliedSeq = -1;
  private readonly waiters: { grant: (ticket: Ticket) => void }[] = [];
  private timer: NodeJS.Timeout | undefined;
  private readonly marginMs: number;
  private readonly now: () => number;

  constructor(options: PacerOptions = {}) {
    this.marginMs = options.resetMarginMs ?? 1000;
    this.now = options.now ?? Date.now;
  }

  /** Waits for permission to send one request. */
  acquire(): Promise<Ticket> {
    return new Promise((grant) => {
      this.waiters.push({ grant });
      this.pump();
    });
  }

  /** Hands a ticket back, with the answer's rate limit headers when there was an answer. */
  release(ticket: Ticket, state: RateLimitState | undefined, hadAnswer: boolean): void {
    this.inFlight--;
    if (hadAnswer && ticket.seq > this.appliedSeq) {
      this.appliedSeq = ticket.seq;
      if (state) {
        this.unlimited = false;
        this.remaining = Math.max(0, state.remaining - this.inFlight);
        this.resetAtMs = state.resetAtMs;
      } else {
        this.unlimited = true;
      }
    }
    this.pump();
  }

  /** Records a 429: nothing more is sent on this key before `untilMs`. */
  blockUntil(untilMs: number): void {
    const resetAtMs = untilMs - this.marginMs;
    this.resetAtMs = this.remaining === 0 && !this.unlimited ? Math.max(this.resetAtMs, resetAtMs) : resetAtMs;
    this.unlimited = false;
    this.remaining = 0;
    this.pump();
  }

  private pump(): void {
    while (this.waiters.length > 0) {
      if (!this.unlimited && this.remaining === 0 && this.now() >= this.resetAtMs + this.marginMs) {
        this.remaining = undefined; // the window has moved: probe it
      }
      const canSend = this.unlimited || (this.remaining === undefined ? this.inFlight === 0 : this.remaining > 0);
      if (!canSend) break;
      if (this.remaining !== undefined && !this.unlimited) this.remaining--;
      this.inFlight++;
      this.waiters.shift()!.grant({ seq: this.seq++ });
    }
    this.schedule();
  }

  private schedule(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (this.waiters.length === 0 || this.remaining !== 0) return;
    const waitMs = Math.max(0, this.resetAtMs + this.marginMs - this.now());
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.pump();
    }, waitMs + 1);
  }
}
