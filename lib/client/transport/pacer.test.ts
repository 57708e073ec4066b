import { Pacer, readRateLimitHeaders } from "./pacer";

describe("readRateLimitHeaders", () => {
  it("reads seconds and milliseconds timestamps", () => {
    expect(readRateLimitHeaders({ "x-svc-remaining": "3", "x-svc-reset-timestamp": "1700000000" })).toEqual({
      remaining: 3,
      resetAtMs: 1_700_000_000_000,
    });
    expect(readRateLimitHeaders({ "x-svc-remaining": "0", "x-svc-reset-timestamp": "1700000000123" })).toEqual({
      remaining: 0,
      resetAtMs: 1_700_000_000_123,
    });
  });
  it("returns undefined when a header is missing or garbage", () => {
    expect(readRateLimitHeaders({ "x-svc-reset-timestamp": "1700000000" })).toBeUndefined();
    expect(readRateLimitHeaders({ "x-svc-remaining": "x", "x-svc-reset-timestamp": "1700000000" })).toBeUndefined();
  });
});

describe("Pacer", () => {
  let now = 1_000_000;
  beforeEach(() => {
    jest.useFakeTimers();
    now = 1_000_000;
  });
  afterEach(() => jest.useRealTimers());

  async function granted(promises: Promise<unknown>[]): Promise<number> {
    let count = 0;
    for (const p of promises) void p.then(() => count++);
    await Promise.resolve();
    await Promise.resolve();
    return count;
  }

  it("sends one request at a time until the budget is known", async () => {
    const pacer = new Pacer({ now: () => now, resetMarginMs: 0 });
    const first = pacer.acquire();
    const others = [pacer.acquire(), pacer.acquire()];
    expect(await granted([first, ...others])).toBe(1);
    pacer.release(await first, { remaining: 5, resetAtMs: now + 60_000 }, true);
    expect(await granted(others)).toBe(2);
  });

  it("holds callers at zero remaining until the reset plus margin, then probes with one", async () => {
    const pacer = new Pacer({ now: () => now, resetMarginMs: 1000 });
    const t0 = await pacer.acquire();
    pacer.release(t0, { remaining: 1, resetAtMs: now + 10_000 }, true);
    const a = pacer.acquire();
    const b = pacer.acquire();
    const c = pacer.acquire();
    expect(await granted([a, b, c])).toBe(1);
    pacer.release(await a, { remaining: 0, resetAtMs: now + 10_000 }, true);
    expect(await granted([b, c])).toBe(0);
    now += 10_500;
    jest.advanceTimersByTime(10_500);
    expect(await granted([b, c])).toBe(0);
    now += 600;
    jest.advanceTimersByTime(600);
    expect(await granted([b, c])).toBe(1); // the probe
    pacer.release(await b, { remaining: 4, resetAtMs: now + 50_000 }, true);
    expect(await granted([c])).toBe(1);
  });

  it("counts requests still in flight against the reported budget", async () => {
    const pacer = new Pacer({ now: () => now, resetMarginMs: 0 });
    pacer.release(await pacer.acquire(), { remaining: 3, resetAtMs: now + 60_000 }, true);
    const [a, b, c] = [pacer.acquire(), pacer.acquire(), pacer.acquire()];
    const d = pacer.acquire();
    expect(await granted([a, b, c, d])).toBe(3);
    // a's answer says 2 left, but b and c are still out and may not be counted yet: 2 - 2 = 0.
    pacer.release(await a, { remaining: 2, resetAtMs: now + 60_000 }, true);
    expect(await granted([d])).toBe(0);
  });

  it("ignores the headers of an answer older than one already applied", async () => {
    const pacer = new Pacer({ now: () => now, resetMarginMs: 0 });
    pacer.release(await pacer.acquire(), { remaining: 2, resetAtMs: now + 60_000 }, true);
    const [a, b] = [pacer.acquire(), pacer.acquire()];
    const ta = await a;
    const tb = await b;
    pacer.release(tb, { remaining: 0, resetAtMs: now + 60_000 }, true);
    pacer.release(ta, { remaining: 7, resetAtMs: now + 60_000 }, true); // stale: sent before b
    expect(await granted([pacer.acquire()])).toBe(0);
  });

  it("blocks everyone after a 429 until the given time", async () => {
    const pacer = new Pacer({ now: () => now, resetMarginMs: 0 });
    pacer.release(await pacer.acquire(), { remaining: 100, resetAtMs: now + 60_000 }, true);
    pacer.blockUntil(now + 5_000);
    const next = pacer.acquire();
    expect(await granted([next])).toBe(0);
    now += 5_001;
    jest.advanceTimersByTime(5_001);
    expect(await granted([next])).toBe(1);
  });

  it("stops pacing when successful answers carry no rate limit headers", async () => {
    const pacer = new Pacer({ now: () => now });
    pacer.release(await pacer.acquire(), undefined, true);
    expect(await granted([pacer.acquire(), pacer.acquire(), pacer.acquire()])).toBe(3);
  });

  it("does not let a header-less error answer (a proxy's 503) switch pacing off", async () => {
    const pacer = new Pacer({ now: () => now });
    pacer.release(await pacer.acquire(), undefined, false);
    expect(await granted([pacer.acquire(), pacer.acquire()])).toBe(1);
  });
});
