import { startTestService, type TestService } from "../../../../test/helpers/service";
import { call, expectErrorBody } from "../../../../test/helpers/http";
import { DEFAULT_SEED } from "../../seed";

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.close());

const slugs = (body: { projects: { slug: string }[] }) => body.projects.map((p) => p.slug).sort();

describe("GET /v1/account/{accountSlug}/projects", () => {
  test("alice (owner, explicit member of both) sees demo and secret-sauce, with owner, permissions and members", async () => {
    const { status, body } = await call(service, "GET", "/v1/account/acme/projects", { as: "alice" });
    expect(status).toBe(200);
    expect(slugs(body)).toEqual(["demo", "secret-sauce"]);
    const demo = body.projects.find((p: { slug: string }) => p.slug === "demo");
    const secret = body.projects.find((p: { slug: string }) => p.slug === "secret-sauce");
    expect(demo.owner).toMatchObject({ username: "acme", type: "organization", first_name: "", email: "" });
    expect(Object.values(demo.permissions).every((v) => v === true)).toBe(true);
    expect(demo.number_of_users).toBe(1);
    expect(demo.members).toBeUndefined();
    expect(demo.restricted).toBe(false);
    expect(secret.restricted).toBe(true);
    expect(secret.members.map((m: { username: string; accepted: boolean }) => [m.username, m.accepted])).toEqual([
      ["alice", true],
      ["carol", false],
    ]);
    expect(secret.number_of_users).toBe(2);
  });

  test("bob (member, not an explicit member of anything) sees the open project only, without owner/permissions", async () => {
    const { status, body } = await call(service, "GET", "/v1/account/acme/projects", { as: "bob" });
    expect(status).toBe(200);
    expect(slugs(body)).toEqual(["demo"]);
    expect(body.projects[0].owner).toBeUndefined();
    expect(body.projects[0].permissions).toBeUndefined();
    expect(body.projects[0].number_of_users).toBe(0);
  });

  test("carol (pending invitee) gets 403 insufficient_permissions", async () => {
    const result = await call(service, "GET", "/v1/account/acme/projects", { as: "carol" });
    expectErrorBody(result, 403, "insufficient_permissions");
  });

  test("an outsider gets 404 rid:account, the same as for an account that does not exist", async () => {
    const outsider = await call(service, "GET", "/v1/account/acme/projects", { as: "outsider" });
    const missing = await call(service, "GET", "/v1/account/no-such-account/projects", { as: "outsider" });
    expectErrorBody(outsider, 404, "resource_not_found");
    expect(outsider.body.error.data).toEqual({ rid: "rid:account" });
    expect(missing.body.error.data).toEqual(outsider.body.error.data);
    expect(missing.body.error.message.replace("no-such-account", "acme")).toBe(outsider.body.error.message);
  });

  test("a personal account: alice sees sandbox with her own email in owner; others get 404", async () => {
    const own = await call(service, "GET", "/v1/account/alice/projects", { as: "alice" });
    expect(slugs(own.body)).toEqual(["sandbox"]);
    expect(own.body.projects[0].owner).toMatchObject({ username: "alice", type: "user", email: "alice@acme.example" });
    expect(own.body.projects[0].restricted).toBe(false);
    expectErrorBody(await call(service, "GET", "/v1/account/alice/projects", { as: "bob" }), 404, "resource_not_found");
    const empty = await call(service, "GET", "/v1/account/outsider/projects", { as: "outsider" });
    expect(empty.body).toEqual({ projects: [] });
  });

  test("a read-only member of a restricted project sees it, with permissions all false", async () => {
    const seed = structuredClone(DEFAULT_SEED);
    seed.projects.find((p) => p.slug === "secret-sauce")!.members.push({ username: "bob", accepted: true });
    const other = await startTestService({ seed });
    try {
      const { body } = await call(other, "GET", "/v1/account/acme/projects", { as: "bob" });
      expect(slugs(body)).toEqual(["demo", "secret-sauce"]);
      const secret = body.projects.find((p: { slug: string }) => p.slug === "secret-sauce");
      expect(Object.values(secret.permissions)).toEqual(new Array(8).fill(false));
      expect(secret.number_of_users).toBe(3);
    } finally {
      await other.close();
    }
  });

  test("400 for an account slug over 100 characters, 401 without credentials", async () => {
    expectErrorBody(await call(service, "GET", `/v1/account/${"a".repeat(101)}/projects`, { as: "alice" }), 400, "bad_request");
    expectErrorBody(await call(service, "GET", "/v1/account/acme/projects"), 401, "unauthorized");
  });
});

describe("GET /v1/account/{accountSlug}/delivery-channels", () => {
  test("lists the account's email and slack channels with their information shapes", async () => {
    const { status, body } = await call(service, "GET", "/v1/account/acme/delivery-channels", { as: "bob" });
    expect(status).toBe(200);
    const byType = Object.fromEntries(body.delivery_channels.map((c: { type: string }) => [c.type, c]));
    expect(byType.email.information).toEqual({ email: "ops@acme.example", emails: ["ops@acme.example", "alice@acme.example"] });
    expect(byType.email.project_id).toBeNull();
    expect(byType.slack.information).toEqual({ team_name: "ACME", channel_name: "alerts" });
    expect(byType.slack.enabled).toBe(true);
  });

  test("403 for a pending invitee, 404 for an outsider, 401 without a key, 400 for a bad slug", async () => {
    expectErrorBody(await call(service, "GET", "/v1/account/acme/delivery-channels", { as: "carol" }), 403, "insufficient_permissions");
    expectErrorBody(await call(service, "GET", "/v1/account/acme/delivery-channels", { as: "outsider" }), 404, "resource_not_found");
    expectErrorBody(await call(service, "GET", "/v1/account/acme/delivery-channels"), 401, "unauthorized");
    expectErrorBody(await call(service, "GET", `/v1/account/${"x".repeat(200)}/delivery-channels`, { as: "alice" }), 400, "bad_request");
  });
});

describe("POST .../actions/action/{actionId}/stop", () => {
  const actionIds = () =>
    service.app.service.store.db.prepare("SELECT id, name, status FROM actions ORDER BY name").all() as {
      id: string;
      name: string;
      status: string;
    }[];

  test("stops a running action (200 { action }), and stopping it again is 200 too", async () => {
    const running = actionIds().find((a) => a.status === "running")!;
    const path = `/v1/account/acme/project/demo/actions/action/${running.id}/stop`;
    const first = await call(service, "POST", path, { as: "alice" });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ action: { id: running.id, name: running.name, status: "stopped" } });
    const again = await call(service, "POST", path, { as: "alice", headers: { "content-type": "application/json" } });
    expect(again.status).toBe(200);
    expect(again.body.action.status).toBe("stopped");
  });

  test("404 rid:action for an unknown action, 403 for a read-only key, 404 for an invisible project, 401, 400", async () => {
    const unknown = await call(service, "POST", "/v1/account/acme/project/demo/actions/action/nope/stop", { as: "alice" });
    expectErrorBody(unknown, 404, "resource_not_found");
    expect(unknown.body.error.data.rid).toBe("rid:action");
    const id = actionIds()[0].id;
    expectErrorBody(
      await call(service, "POST", `/v1/account/acme/project/demo/actions/action/${id}/stop`, { as: "bob" }),
      403,
      "insufficient_permissions",
    );
    const hidden = await call(service, "POST", `/v1/account/acme/project/secret-sauce/actions/action/${id}/stop`, { as: "outsider" });
    expectErrorBody(hidden, 404, "resource_not_found");
    expectErrorBody(await call(service, "POST", `/v1/account/acme/project/demo/actions/action/${id}/stop`), 401, "unauthorized");
    expectErrorBody(
      await call(service, "POST", `/v1/account/acme/project/demo/actions/action/${"z".repeat(101)}/stop`, { as: "alice" }),
      400,
      "bad_request",
    );
  });
});

describe("GET /v1/supported-networks", () => {
  test("is public: a top-level array of real networks, one without virtual_testnet", async () => {
    const { status, body } = await call(service, "GET", "/v1/supported-networks");
    expect(status).toBe(200);
    expect(Array.isArray(body)).toBe(true);
    const ids = body.map((n: { chain_id: string }) => n.chain_id);
    for (const id of ["1", "8453", "42161", "10", "137", "11155111", "84532", "56", "43114", "100", "324"]) expect(ids).toContain(id);
    const zksync = body.find((n: { chain_id: string }) => n.chain_id === "324");
    expect(zksync.supported_features.virtual_testnet).toBe(false);
    expect(zksync.network_slugs.vnet_rpc_slug).toBe("");
    expect(body[0]).not.toHaveProperty("latest_block");
  });

  test("404 for a wrong path under it", async () => {
    expectErrorBody(await call(service, "GET", "/v1/supported-networks/1"), 404, "resource_not_found");
  });
});

describe("spec fidelity: shared projects are reachable, lists are paginated", () => {
  let seeded: TestService;
  beforeAll(async () => {
    const seed = structuredClone(DEFAULT_SEED) as typeof DEFAULT_SEED & {
      projects: { account: string; slug: string; name: string; restricted: boolean; members: { username: string; accepted: boolean }[] }[];
    };
    // bob is an accepted member of alice's personal project: it is shared with him (docs/api.md "Endpoints": projects shared with the caller).
    seed.projects.find((p) => p.slug === "sandbox")!.members.push({ username: "bob", accepted: true });
    for (let i = 0; i < 25; i++)
      seed.projects.push({ account: "acme", slug: `extra-${i}`, name: `Extra ${i}`, restricted: false, members: [] });
    const channel = seed.delivery_channels[0];
    for (let i = 0; i < 25; i++) seed.delivery_channels.push({ ...channel, label: `Channel ${i}` });
    seeded = await startTestService({ seed });
  });
  afterAll(() => seeded.close());

  test("a project listed as shared with the requester is reachable under its owner's account path", async () => {
    const listed = await call(seeded, "GET", "/v1/account/bob/projects", { as: "bob" });
    expect(listed.status).toBe(200);
    const sandbox = listed.body.projects.find((p: { slug: string }) => p.slug === "sandbox");
    expect(sandbox.owner.username).toBe("alice");
    const environments = await call(seeded, "GET", `/public/v1/account/${sandbox.owner.username}/project/sandbox/environments`, {
      as: "bob",
    });
    expect(environments.status).toBe(200);
    expect((await call(seeded, "GET", "/v1/account/alice/project/sandbox/simulations", { as: "bob" })).status).toBe(200);
    // Not shared with the outsider; alice's account itself stays private to bob.
    expectErrorBody(
      await call(seeded, "GET", "/public/v1/account/alice/project/sandbox/environments", { as: "outsider" }),
      404,
      "resource_not_found",
    );
    expectErrorBody(await call(seeded, "GET", "/v1/account/alice/projects", { as: "bob" }), 404, "resource_not_found");
    // bob's key is read-only: reaching the project does not let him write to it.
    const body = { display_name: "by bob", network_configs: [{ network_id: "1" }] };
    expectErrorBody(
      await call(seeded, "POST", "/public/v1/account/alice/project/sandbox/environments", { as: "bob", body }),
      403,
      "insufficient_permissions",
    );
  });

  test.each([
    ["/v1/account/acme/projects", "projects", 27],
    ["/v1/account/acme/delivery-channels", "delivery_channels", 27],
  ])("%s: 20 by default, perPage up to 100, pages in order", async (path, key, total) => {
    const first = await call(seeded, "GET", path, { as: "alice" });
    expect(first.body[key]).toHaveLength(20);
    const all = await call(seeded, "GET", `${path}?perPage=100`, { as: "alice" });
    expect(all.body[key]).toHaveLength(total);
    const page2 = await call(seeded, "GET", `${path}?page=2&perPage=10`, { as: "alice" });
    expect(page2.body[key]).toEqual(all.body[key].slice(10, 20));
    expect((await call(seeded, "GET", `${path}?page=9`, { as: "alice" })).body[key]).toEqual([]);
    for (const query of ["page=0", "perPage=101", "page=0&perPage=101", "perPage=0", "page=-1", "page=1.5", "per_page=5"]) {
      expectErrorBody(await call(seeded, "GET", `${path}?${query}`, { as: "alice" }), 400, "bad_request");
    }
  });
});
