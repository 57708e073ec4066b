import { startTestService, type TestService } from "../../test/helpers/service";
import { call } from "../../test/helpers/http";

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
