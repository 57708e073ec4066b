import { fullJitterDelay, parseRetryAfter } from "./backoff";

describe("fullJitterDelay", () => {
  it("draws between 0 and min(cap, base * 2^attempt)", () => {
    expect(fullJitterDelay(0, 250, 8000, () => 0)).toBe(0);
    expect(fullJitterDelay(0, 250, 8000, () => 0.999999)).toBe(249);
    expect(fullJitterDelay(3, 250, 8000, () => 0.5)).toBe(1000);
    expect(fullJitterDelay(10, 250, 8000, () => 0.999999)).toBe(7999);
  });
  it("spreads: many draws are not all equal", () => {
    const draws = new Set(Array.from({ length: 50 }, () => fullJitterDelay(4, 250, 8000)));
    expect(draws.size).toBeGreaterThan(10);
  });
});

describe("parseRetryAfter", () => {
  it("reads delay-seconds and HTTP dates", () => {
    expect(parseRetryAfter("3", 0)).toBe(3000);
    expect(parseRetryAfter("0.5", 0)).toBe(500);
    const now = Date.parse("2025-01-01T00:00:00Z");
    expect(parseRetryAfter("Wed, 01 Jan 2025 00:00:10 GMT", now)).toBe(10_000);
  });
  it("returns undefined for absent or unreadable values", () => {
    expect(parseRetryAfter(undefined, 0)).toBeUndefined();
    expect(parseRetryAfter("soon", 0)).toBeUndefined();
  });
});
