/**
 * Listing, getting and deleting environments through the spec's API: newest first, pages, visibility across
 * projects, DELETE and batch DELETE with their refusals. Creating is ./create.test.ts's.
 */
import { startTestService, type TestService } from "../../../../test/helpers/service";
import { call, expectErrorBody } from "../../../../test/helpers/http";

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.close());

const base = "/public/v1/account/acme/project/demo/environments";
const create = (body: unknown, as = "alice", path = base) => call(service, "POST", path, { as, body });
let counter = 0;
const unique = () => `env ${++counter}`;

describe("GET environments (list) and GET environments/{id}", () => {
  const project = "/public/v1/account/acme/project/secret-sauce/environments";
  const ids: string[] = [];
  beforeAll(async () => {
    for (let i = 0; i < 5; i++)
      ids.push((await create({ display_name: `page ${i}`, network_configs: [{ network_id: "137" }] }, "alice", project)).body.id);
  });

  test("lists newest first, paginated with page and perPage", async () => {
    const all = await call(service, "GET", `${project}?perPage=100`, { as: "alice" });
    expect(all.status).toBe(200);
    const listed = all.body.environments.map((e: { id: string }) => e.id);
    expect(listed.slice(0, 5)).toEqual([...ids].reverse());
    const page2 = await call(service, "GET", `${project}?page=2&perPage=2`, { as: "alice" });
    expect(page2.body.environments.map((e: { id: string }) => e.id)).toEqual(listed.slice(2, 4));
    const beyond = await call(service, "GET", `${project}?page=1000`, { as: "alice" });
    expect(beyond.body).toEqual({ environments: [] });
    const max = await call(service, "GET", `${project}?perPage=100&page=1`, { as: "alice" });
    expect(max.status).toBe(200);
  });

  test("the default page size is 20", async () => {
    for (let i = 0; i < 17; i++) await create({ display_name: `more ${i}`, network_configs: [{ network_id: "56" }] }, "alice", project);
    const { body } = await call(service, "GET", project, { as: "alice" });
    expect(body.environments).toHaveLength(20);
  });

  test.each([
    "page=0",
    "page=-1",
    "page=1.5",
    "page=abc",
    "page=",
    "page=1e2",
    "page=0x10",
    "perPage=0",
    "perPage=101",
    "perPage=-5",
    "perPage=2.5",
    "page=1&page=2",
    "sort=asc",
  ])("400 for %s", async (query) => {
    const result = await call(service, "GET", `${project}?${query}`, { as: "alice" });
    expectErrorBody(result, 400, "bad_request");
  });

  test("get returns the environment; 404 rid:vnet for an unknown id; 400 for a malformed id", async () => {
    const one = await call(service, "GET", `${project}/${ids[0]}`, { as: "alice" });
    expect(one.status).toBe(200);
    expect(one.body.id).toBe(ids[0]);
    expect(one.body.active_instance.vnets).toHaveLength(1);
    const unknown = await call(service, "GET", `${project}/00000000-0000-4000-8000-000000000000`, { as: "alice" });
    expectErrorBody(unknown, 404, "resource_not_found");
    expect(unknown.body.error.data.rid).toBe("rid:vnet");
    expectErrorBody(await call(service, "GET", `${project}/not-a-uuid`, { as: "alice" }), 400, "bad_request");
  });

  test("visibility: bob and the outsider get 404 for the restricted project, carol 403", async () => {
    expectErrorBody(await call(service, "GET", project, { as: "bob" }), 404, "resource_not_found");
    expectErrorBody(await call(service, "GET", `${project}/${ids[0]}`, { as: "outsider" }), 404, "resource_not_found");
    expectErrorBody(await call(service, "GET", project, { as: "carol" }), 403, "insufficient_permissions");
    const demo = await call(service, "GET", base, { as: "bob" });
    expect(demo.status).toBe(200);
  });

  test("an environment of one project is not found through another", async () => {
    expectErrorBody(await call(service, "GET", `${base}/${ids[0]}`, { as: "alice" }), 404, "resource_not_found");
  });
});

describe("DELETE environments/{id} and batch DELETE environments", () => {
  const newId = async () => (await create({ display_name: unique(), network_configs: [{ network_id: "100" }] })).body.id as string;

  test("DELETE answers 204 with an empty body; a second DELETE is 404; the environment is gone", async () => {
    const id = await newId();
    const first = await call(service, "DELETE", `${base}/${id}`, { as: "alice" });
    expect(first.status).toBe(204);
    expect(first.text).toBe("");
    expectErrorBody(await call(service, "DELETE", `${base}/${id}`, { as: "alice" }), 404, "resource_not_found");
    expectErrorBody(await call(service, "GET", `${base}/${id}`, { as: "alice" }), 404, "resource_not_found");
    expect(service.app.service.store.db.prepare("SELECT COUNT(*) AS n FROM vnets WHERE environment_id = ?").get(id)).toEqual({ n: 0 });
  });

  test("DELETE: 403 read-only, 404 outsider, 401 anonymous, 404 malformed id", async () => {
    const id = await newId();
    expectErrorBody(await call(service, "DELETE", `${base}/${id}`, { as: "bob" }), 403, "insufficient_permissions");
    expectErrorBody(await call(service, "DELETE", `${base}/${id}`, { as: "outsider" }), 404, "resource_not_found");
    expectErrorBody(await call(service, "DELETE", `${base}/${id}`), 401, "unauthorized");
    // Deleting what does not exist is a not-found, malformed ids included (docs/api.md "Conventions").
    expectErrorBody(await call(service, "DELETE", `${base}/12345`, { as: "alice" }), 404, "resource_not_found");
    expectErrorBody(await call(service, "DELETE", `${base}/not-a-uuid`, { as: "alice" }), 404, "resource_not_found");
    expect((await call(service, "GET", `${base}/${id}`, { as: "alice" })).status).toBe(200);
  });

  test("batch delete: 204 when all exist", async () => {
    const ids = [await newId(), await newId()];
    const result = await call(service, "DELETE", base, { as: "alice", body: { environment_ids: ids } });
    expect(result.status).toBe(204);
    expect(result.text).toBe("");
    for (const id of ids) expect((await call(service, "GET", `${base}/${id}`, { as: "alice" })).status).toBe(404);
  });

  test("batch delete with missing ids: 404 with data.missing_ids, and the others are deleted", async () => {
    const ids = [await newId(), await newId()];
    const missing = ["00000000-0000-4000-8000-00000000000a", "00000000-0000-4000-8000-00000000000b"];
    const result = await call(service, "DELETE", base, {
      as: "alice",
      body: { environment_ids: [ids[0], missing[0], ids[1], missing[1]] },
    });
    expectErrorBody(result, 404, "resource_not_found");
    expect(result.body.error.data).toEqual({ rid: "rid:vnet", missing_ids: missing });
    for (const id of ids) expect((await call(service, "GET", `${base}/${id}`, { as: "alice" })).status).toBe(404);
  });

  test.each([
    ["no body", undefined],
    ["an empty list", { environment_ids: [] }],
    ["a non-uuid", { environment_ids: ["x"] }],
    ["a wrong field", { ids: ["00000000-0000-4000-8000-00000000000a"] }],
    ["101 ids", { environment_ids: Array.from({ length: 101 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`) }],
  ])("batch delete: 400 for %s", async (_name, body) => {
    expectErrorBody(await call(service, "DELETE", base, { as: "alice", body }), 400, "bad_request");
  });

  test("batch delete: 403 read-only, 401 anonymous", async () => {
    const body = { environment_ids: [await newId()] };
    expectErrorBody(await call(service, "DELETE", base, { as: "bob", body }), 403, "insufficient_permissions");
    expectErrorBody(await call(service, "DELETE", base, { body }), 401, "unauthorized");
  });
});
