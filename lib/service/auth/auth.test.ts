import { startTestService, type TestService } from "../../../test/helpers/service";
import { call, expectErrorBody } from "../../../test/helpers/http";
import { signToken, verifyToken, MAX_TOKEN_LIFETIME_SECONDS } from "./index";

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.close());

const projects = "/v1/account/acme/projects";
const basic = (user: string, password = "") => `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`;

describe("the three authentication forms", () => {
  test("X-Access-Key", async () => {
    expect((await call(service, "GET", projects, { headers: { "X-Access-Key": service.keys.alice } })).status).toBe(200);
  });

  test("Basic with the key as username, with or without a password", async () => {
    expect((await call(service, "GET", projects, { headers: { authorization: basic(service.keys.alice) } })).status).toBe(200);
    expect((await call(service, "GET", projects, { headers: { authorization: basic(service.keys.alice, "ignored") } })).status).toBe(200);
    const noColon = `Basic ${Buffer.from(service.keys.alice).toString("base64")}`;
    expect((await call(service, "GET", projects, { headers: { authorization: noColon } })).status).toBe(200);
  });

  test("Bearer JWT issued for a user", async () => {
    const result = await call(service, "GET", projects, { headers: { authorization: `Bearer ${service.token("alice")}` } });
    expect(result.status).toBe(200);
    expect(result.body.projects.map((p: { slug: string }) => p.slug).sort()).toEqual(["demo", "secret-sauce"]);
  });

  test("a bearer token of a read-only user is read-only", async () => {
    const result = await call(service, "POST", "/public/v1/account/acme/project/demo/environments", {
      headers: { authorization: `Bearer ${service.token("bob")}` },
      body: { display_name: "x", network_configs: [{ network_id: "1" }] },
    });
    expectErrorBody(result, 403, "insufficient_permissions");
  });
});

describe("401 with the spec's error body", () => {
  const secret = () => service.app.service.store.secret("jwt_secret");
  const aliceId = () => service.app.service.store.accounts.bySlug("alice")!.id;
  const now = Math.floor(Date.now() / 1000);

  test.each<[string, () => Record<string, string>]>([
    ["no credentials", () => ({})],
    ["an unknown key", () => ({ "X-Access-Key": "cf_nope" })],
    ["an empty key", () => ({ "X-Access-Key": "" })],
    ["an unknown key in Basic", () => ({ authorization: basic("cf_nope") })],
    ["a malformed Basic value", () => ({ authorization: "Basic %%%" })],
    ["an unknown scheme", () => ({ authorization: `Token ${service.keys.alice}` })],
    ["a bare Authorization", () => ({ authorization: "Bearer" })],
    ["a malformed token", () => ({ authorization: "Bearer abc.def" })],
    ["a token signed with another secret", () => ({ authorization: `Bearer ${signToken({ sub: aliceId() }, "other secret")}` })],
    ["an expired token", () => ({ authorization: `Bearer ${signToken({ sub: aliceId(), ttlSeconds: 60 }, secret(), now - 120)}` })],
    [
      "a token of an unknown user",
      () => ({ authorization: `Bearer ${signToken({ sub: "00000000-0000-4000-8000-000000000000" }, secret())}` }),
    ],
    [
      "a valid key in Authorization but a wrong X-Access-Key",
      () => ({ "X-Access-Key": "wrong", authorization: basic(service.keys.alice) }),
    ],
  ])("%s", async (_name, headers) => {
    const result = await call(service, "GET", projects, { headers: headers() });
    expectErrorBody(result, 401, "unauthorized");
    expect(result.headers.get("x-svc-limit")).not.toBeNull();
    expect(result.text).not.toContain(service.keys.alice);
  });
});

describe("JWT", () => {
  test("round trip, expiry, lifetime cap, tampering", () => {
    const now = 1_800_000_000;
    const token = signToken({ sub: "u1" }, "s", now);
    expect(verifyToken(token, "s", now + 10)).toEqual({ sub: "u1" });
    expect(verifyToken(token, "s", now + MAX_TOKEN_LIFETIME_SECONDS)).toEqual({ error: "bearer token expired" });
    expect(verifyToken(token, "t", now)).toEqual({ error: "invalid bearer token signature" });
    const [header, , signature] = token.split(".");
    const forged = `${header}.${Buffer.from(JSON.stringify({ sub: "u2", exp: now + 10 })).toString("base64url")}.${signature}`;
    expect(verifyToken(forged, "s", now)).toEqual({ error: "invalid bearer token signature" });
    // A token asking for more than 30 days is capped at issue time.
    const long = signToken({ sub: "u1", ttlSeconds: MAX_TOKEN_LIFETIME_SECONDS * 2 }, "s", now);
    const claims = JSON.parse(Buffer.from(long.split(".")[1], "base64url").toString());
    expect(claims.exp - claims.iat).toBe(MAX_TOKEN_LIFETIME_SECONDS);
  });
});
