/**
 * Issue 11, defect 1: a read-only key could change chain state. Bob's key is read-only: before the fix, his
 * `GET .../environments/{id}` returned the Admin RPC URL and `anvil_setBalance` through it succeeded. Callers who
 * may not write never receive Admin RPC URLs; the Public RPC entry stays.
 */
import { startTestService, type TestService } from "../../../../test/helpers/service";
import { call } from "../../../../test/helpers/http";

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.close());

const base = "/public/v1/account/acme/project/demo/environments";
type Rpc = { name: string; url: string };
type Env = { id: string; active_instance: { vnets: { id: string; rpcs: Rpc[] }[] } };
const rpcsOf = (env: Env) => env.active_instance.vnets.flatMap((v) => v.rpcs);

describe("Admin RPC URLs and read-only callers", () => {
  let created: Env;
  beforeAll(async () => {
    const { status, body } = await call(service, "POST", base, {
      as: "alice",
      body: { display_name: "Audience", network_configs: [{ network_id: "1" }, { network_id: "8453" }] },
    });
    expect(status).toBe(200);
    created = body as Env;
  });

  test("a caller who may write receives the Admin RPC entry", async () => {
    expect(rpcsOf(created).filter((r) => r.name === "Admin RPC")).toHaveLength(2);
    const { body } = await call(service, "GET", `${base}/${created.id}`, { as: "alice" });
    expect(rpcsOf(body as Env).filter((r) => r.name === "Admin RPC")).toHaveLength(2);
  });

  test("bob's get and list carry no Admin RPC entry, only the Public RPC", async () => {
    const one = await call(service, "GET", `${base}/${created.id}`, { as: "bob" });
    expect(one.status).toBe(200);
    const names = rpcsOf(one.body as Env).map((r) => r.name);
    expect(names.filter((name) => name === "Public RPC")).toHaveLength(2);
    expect(names.filter((name) => name.startsWith("Admin"))).toEqual([]);
    const list = await call(service, "GET", base, { as: "bob" });
    const listed = (list.body as { environments: Env[] }).environments.find((e) => e.id === created.id)!;
    expect(
      rpcsOf(listed)
        .map((r) => r.name)
        .filter((name) => name.startsWith("Admin")),
    ).toEqual([]);
    expect(JSON.stringify(list.body)).not.toContain("/rpc/admin/");
  });

  test("anvil_setBalance through every URL bob received is refused", async () => {
    const { body } = await call(service, "GET", `${base}/${created.id}`, { as: "bob" });
    for (const rpc of rpcsOf(body as Env).filter((r) => r.url.startsWith("http"))) {
      const response = await fetch(rpc.url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "anvil_setBalance", params: [`0x${"11".repeat(20)}`, "0x1"] }),
      });
      const answer = (await response.json()) as { result?: unknown; error?: { code: number } };
      expect(answer.result).toBeUndefined();
      expect(answer.error?.code).toBe(-32601);
    }
  });
});
