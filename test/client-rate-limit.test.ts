/**
 * Pacing against the real service's sliding window. The window is shortened from the spec's 60 s to 6 s (a service
 * setting) so that the burst, which must take about two windows, runs in seconds; the pacing logic is the same.
 */
import { createClient, RateLimitError, type ResponseEvent } from "../lib/client";
import { startTestService, type TestService } from "./helpers/service";

const LIMIT = 20;
const CALLS = 60;
const WINDOW_MS = 6_000;

let service: TestService;
beforeAll(async () => {
  service = await startTestService({ rateLimits: { rateLimit: LIMIT, burstLimit: LIMIT, windowMs: WINDOW_MS } });
});
afterAll(() => service.close());

it(
  `completes a burst of ${CALLS} calls under ${LIMIT} per window without a single 429, in about two windows`,
  async () => {
    const events: ResponseEvent[] = [];
    const client = createClient({
      baseUrl: service.baseUrl,
      accessKey: service.keys.alice,
      accountSlug: service.accountSlug,
      projectSlug: service.projectSlug,
      onResponse: (event) => events.push(event),
    });
    const started = Date.now();
    const results = await Promise.allSettled(Array.from({ length: CALLS }, () => client.listEnvironments({ perPage: 1 })));
    const elapsedMs = Date.now() - started;
    await client.close();

    expect(results.filter((r) => r.status === "rejected")).toEqual([]);
    // Not only did the caller see no 429: none was ever sent into one (the pacer waited instead of retrying).
    expect(events.map((e) => e.status).filter((s) => s !== 200)).toEqual([]);
    expect(events).toHaveLength(CALLS);
    // 20 go at once, 20 when the first window has passed, 20 after the second: just over 2 windows (the reset
    // timestamp has whole seconds and the client adds a safety margin to each wait).
    expect(elapsedMs).toBeGreaterThanOrEqual(2 * WINDOW_MS);
    expect(elapsedMs).toBeLessThan(2 * WINDOW_MS + 6_000);
  },
  3 * WINDOW_MS,
);

it("gives up with RateLimitError when the wait would outlast the retry budget (pacing off)", async () => {
  const client = createClient({
    baseUrl: service.baseUrl,
    accessKey: service.keys.bob, // a fresh key: its own window
    accountSlug: service.accountSlug,
    projectSlug: service.projectSlug,
    pacing: false,
    maxRetryTimeMs: 2_000,
  });
  const results = await Promise.allSettled(Array.from({ length: LIMIT + 1 }, () => client.listEnvironments({ perPage: 1 })));
  await client.close();
  const rejected = results.flatMap((r) => (r.status === "rejected" ? [r.reason as unknown] : []));
  expect(rejected).toHaveLength(1);
  expect(rejected[0]).toBeInstanceOf(RateLimitError);
  expect(rejected[0]).toMatchObject({ status: 429, slug: "too_many_requests", attempts: 1 });
  expect((rejected[0] as RateLimitError).retryAfterMs).toBeGreaterThan(3_000);
});
