import { startTestService, type TestService } from "../../../test/helpers/service";
import { call } from "../../../test/helpers/http";

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.close());

const origin = "https://dashboard.example";

test("a preflight is answered 204 with every CORS header the spec lists and the X-Svc-* headers", async () => {
  const result = await call(service, "OPTIONS", "/public/v1/account/acme/project/demo/environments", {
    headers: { origin, "access-control-request-method": "POST", "access-control-request-headers": "content-type, x-access-key" },
  });
  expect(result.status).toBe(204);
  expect(result.text).toBe("");
  expect(result.headers.get("access-control-allow-origin")).toBe(origin);
  expect(result.headers.get("access-control-allow-credentials")).toBe("true");
  expect(result.headers.get("access-control-allow-methods")).toBe("GET, POST, PUT, PATCH, DELETE, OPTIONS");
  expect(result.headers.get("access-control-allow-headers")).toBe("content-type, x-access-key");
  expect(result.headers.get("access-control-max-age")).toBe("86400");
  expect(result.headers.get("access-control-expose-headers")).toBe("X-Svc-Limit, X-Svc-Remaining, X-Svc-Reset-Timestamp");
  expect(result.headers.get("x-svc-remaining")).not.toBeNull();
});

test("cross-origin answers, success and error, echo the origin and expose the rate headers", async () => {
  for (const [path, as, status] of [
    ["/v1/account/acme/projects", "alice", 200],
    ["/v1/account/acme/projects", undefined, 401],
    ["/nothing-here", "alice", 404],
  ] as const) {
    const result = await call(service, "GET", path, { as, headers: { origin } });
    expect(result.status).toBe(status);
    expect(result.headers.get("access-control-allow-origin")).toBe(origin);
    expect(result.headers.get("access-control-allow-credentials")).toBe("true");
    expect(result.headers.get("access-control-expose-headers")).toContain("X-Svc-Reset-Timestamp");
    expect(result.headers.get("vary")).toContain("Origin");
  }
});

test("same-origin answers carry no CORS headers", async () => {
  const result = await call(service, "GET", "/v1/supported-networks");
  expect(result.headers.get("access-control-allow-origin")).toBeNull();
});

test("preflights are never counted and never get 429, even from a throttled client", async () => {
  const limited = await startTestService({ rateLimits: { unauthenticatedLimit: 2, burstLimit: 2 } });
  try {
    const preflight = () =>
      call(limited, "OPTIONS", "/v1/supported-networks", { headers: { origin, "access-control-request-method": "GET" } });
    for (let i = 0; i < 5; i++) expect((await preflight()).status).toBe(204);
    // The preflights took nothing: both requests of the limit are still there.
    expect((await call(limited, "GET", "/v1/supported-networks")).headers.get("x-svc-remaining")).toBe("1");
    expect((await call(limited, "GET", "/v1/supported-networks")).status).toBe(200);
    expect((await call(limited, "GET", "/v1/supported-networks")).status).toBe(429);
    // Throttled now; a preflight still passes, with the rate headers.
    const answer = await preflight();
    expect(answer.status).toBe(204);
    expect(answer.headers.get("x-svc-remaining")).toBe("0");
  } finally {
    await limited.close();
  }
});
