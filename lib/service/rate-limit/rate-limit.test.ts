import { startTestService, type TestService } from "../../../test/helpers/service";
import { call, expectErrorBody } from "../../../test/helpers/http";
import { RATE_WINDOW_MS, SlidingWindowLimiter } from "./index";

const headersOf = (result: { headers: Headers }) => ({
  limit: Number(result.headers.get("x-svc-limit")),
  remaining: Number(result.headers.get("x-svc-remaining")),
  reset: Number(result.headers.get("x-svc-reset-timestamp")),
});

describe("SlidingWindowLimiter", () => {
  test("counts each request for a full window from when it was made; refusals do not count", () => {
    let now = 1_000_000;
    const limiter = new SlidingWindowLimiter(RATE_WINDOW_MS, () => now);
    expect(limiter.take("k", 3, 10)).toEqual({
      allowed: true,
      limit: 3,
      remaining: 2,
      resetTimestamp: Math.ceil((1_000_000 + RATE_WINDOW_MS) / 1000),
    });
    now += 20_000;
    expect(limiter.take("k", 3, 10).remaining).toBe(1);
    now += 20_000;
    expect(limiter.take("k", 3, 10).remaining).toBe(0);
    const refused = limiter.take("k", 3, 10);
    expect(refused).toEqual({ allowed: false, limit: 3, remaining: 0, resetTimestamp: Math.ceil((1_000_000 + RATE_WINDOW_MS) / 1000) });
    now = 1_000_000 + RATE_WINDOW_MS + 1; // the first request expired, the other two still count
    const after = limiter.take("k", 3, 10);
    expect(after).toEqual({ allowed: true, limit: 3, remaining: 0, resetTimestamp: Math.ceil((1_020_000 + RATE_WINDOW_MS) / 1000) });
    expect(limiter.take("other", 3, 10).remaining).toBe(2);
  });

  test("requests made in the same millisecond count one by one, and expire together", () => {
    let now = 5_000_000;
    const limiter = new SlidingWindowLimiter(RATE_WINDOW_MS, () => now);
    for (let i = 0; i < 999; i += 1) limiter.take("k", 1_000, 1_000);
    now += 1;
    expect(limiter.take("k", 1_000, 1_000)).toMatchObject({ allowed: true, remaining: 0 });
    expect(limiter.take("k", 1_000, 1_000).allowed).toBe(false);
    now = 5_000_000 + RATE_WINDOW_MS; // the 999 expire, the last one still counts
    expect(limiter.take("k", 1_000, 1_000)).toMatchObject({ allowed: true, remaining: 998 });
  });

  test("the burst limit caps remaining below the limit", () => {
    const limiter = new SlidingWindowLimiter(RATE_WINDOW_MS, () => 0);
    expect(limiter.take("k", 400, 250)).toMatchObject({ limit: 400, remaining: 249 });
  });
});

describe("rate limiting over HTTP with lowered limits", () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService({ rateLimits: { rateLimit: 5, burstLimit: 4, unauthenticatedLimit: 3 } });
  });
  afterAll(() => service.close());

  test("per key: X-Svc-* on every answer, remaining = min(limit, burst) - counted, then 429 too_many_requests", async () => {
    const started = Math.floor(Date.now() / 1000);
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push(await call(service, "GET", "/v1/account/acme/projects", { as: "alice" }));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 429, 429]);
    expect(answers.map((a) => headersOf(a).limit)).toEqual([5, 5, 5, 5, 5, 5]);
    expect(answers.map((a) => headersOf(a).remaining)).toEqual([3, 2, 1, 0, 0, 0]);
    for (const answer of answers) {
      expect(headersOf(answer).reset).toBeGreaterThanOrEqual(started + 60);
      expect(headersOf(answer).reset).toBeLessThanOrEqual(started + 62);
    }
    expectErrorBody(answers[4], 429, "too_many_requests");
    // Another key has its own window; errors count too (a 404 here).
    const bob = await call(service, "GET", "/v1/account/nowhere/projects", { as: "bob" });
    expect(bob.status).toBe(404);
    expect(headersOf(bob)).toMatchObject({ limit: 5, remaining: 3 });
  });

  test("the same key through Basic shares the window of X-Access-Key", async () => {
    const basic = `Basic ${Buffer.from(`${service.keys.alice}:`).toString("base64")}`;
    const result = await call(service, "GET", "/v1/account/acme/projects", { headers: { authorization: basic } });
    expect(result.status).toBe(429);
  });

  test("without valid credentials: per client address at the unauthenticated limit, on 401 and public routes", async () => {
    const answers = [];
    answers.push(await call(service, "GET", "/v1/supported-networks"));
    answers.push(await call(service, "GET", "/v1/account/acme/projects", { headers: { "X-Access-Key": "bad" } }));
    answers.push(
      await call(service, "OPTIONS", "/v1/account/acme/projects", {
        headers: { origin: "http://a.example", "access-control-request-method": "GET" },
      }),
    );
    answers.push(await call(service, "GET", "/v1/supported-networks"));
    answers.push(await call(service, "GET", "/no/such/route"));
    // The preflight is reported but never counted (docs/service.md), so the next GET still fits.
    expect(answers.map((a) => a.status)).toEqual([200, 401, 204, 200, 429]);
    expect(answers.map((a) => headersOf(a).limit)).toEqual([3, 3, 3, 3, 3]);
    expect(answers.map((a) => headersOf(a).remaining)).toEqual([2, 1, 1, 0, 0]);
    expectErrorBody(answers[4], 429, "too_many_requests");
  });
});
