/**
 * Secrets never reach the client's errors or hooks: access keys (header and Basic forms), bearer tokens and
 * Admin RPC URLs. Errors come from the real local service (and the fault proxy, for transport failures); each is
 * scanned in its message, details, JSON, string form and stack. Also pins a real ApiError message as a snapshot.
 */
import { ApiError, BaseError, createClient, TimeoutError, type ResponseEvent } from "../lib/client";
import { startFaultProxy, type FaultProxy } from "./helpers/fault-proxy";
import { startTestService, type TestService } from "./helpers/service";

let service: TestService;
let proxy: FaultProxy;
beforeAll(async () => {
  service = await startTestService();
  proxy = await startFaultProxy(service.baseUrl);
});
afterAll(async () => {
  await proxy.close();
  await service.close();
});

/** Every text a user could print or log from an error. */
function surfaces(error: unknown): string {
  const e = error as BaseError;
  return [e.message, e.shortMessage, e.details, String(e), e.stack, JSON.stringify(e), JSON.stringify(e.metaMessages)].join("\n");
}

function expectFreeOf(error: unknown, secrets: string[]) {
  expect(error).toBeInstanceOf(BaseError);
  const text = surfaces(error);
  for (const secret of secrets) expect(text).not.toContain(secret);
}

const scope = { accountSlug: "acme", projectSlug: "demo" };

it("keeps a wrong access key out of 401 errors, in header and Basic form", async () => {
  const key = "cf_this_is_a_secret_key_0123456789";
  for (const authMode of ["header", "basic"] as const) {
    const client = createClient({ baseUrl: service.baseUrl, accessKey: key, authMode, ...scope });
    const error = await client.listEnvironments().catch((e: unknown) => e);
    await client.close();
    expect(error).toMatchObject({ status: 401 });
    expectFreeOf(error, [key, Buffer.from(`${key}:`).toString("base64")]);
  }
});

it("keeps a bad bearer token out of 401 errors", async () => {
  const token = `${service.token("alice").slice(0, -6)}AAAAAA`; // wrong signature
  const client = createClient({ baseUrl: service.baseUrl, bearerToken: token, ...scope });
  const error = await client.listEnvironments().catch((e: unknown) => e);
  await client.close();
  expect(error).toMatchObject({ status: 401 });
  expectFreeOf(error, [token, token.split(".")[2]!]);
});

describe("Admin RPC URLs", () => {
  let adminUrl: string;
  let secretPath: string;
  const events: ResponseEvent[] = [];
  beforeAll(async () => {
    const client = createClient({ baseUrl: service.baseUrl, accessKey: service.keys.alice, ...scope });
    const environment = await client.createEnvironment({ display_name: "Secret keeper", network_configs: [{ network_id: "1" }] });
    await client.close();
    adminUrl = environment.active_instance.vnets[0]!.rpcs.find((r) => r.name === "Admin RPC")!.url;
    secretPath = new URL(adminUrl).pathname;
    expect(secretPath).toMatch(/^\/rpc\/admin\/.{16,}/);
  });

  it("redacts the secret from the path of an ApiError and from response events", async () => {
    const client = createClient({ baseUrl: service.baseUrl, accessKey: service.keys.alice, onResponse: (e) => events.push(e) });
    const error = await client.request({ method: "GET", path: `${secretPath}/nothing-here` }).catch((e: unknown) => e);
    await client.close();
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).path).toBe("/rpc/admin/[redacted]/nothing-here");
    expectFreeOf(error, [secretPath.split("/").pop()!]);
    expect(JSON.stringify(events)).not.toContain(secretPath.split("/").pop()!);
  });

  it("redacts the secret from a timeout on the Admin RPC path", async () => {
    proxy.inject({ delayMs: 500 });
    const client = createClient({ baseUrl: proxy.baseUrl, timeoutMs: 100, maxRetries: 0 });
    const error = await client
      .request({ method: "POST", path: secretPath, body: { jsonrpc: "2.0", id: 1, method: "eth_chainId" } })
      .catch((e: unknown) => e);
    await client.close();
    expect(error).toBeInstanceOf(TimeoutError);
    expectFreeOf(error, [secretPath.split("/").pop()!, adminUrl]);
  });
});

it("pins the message of a real 404 from the service", async () => {
  const client = createClient({ baseUrl: service.baseUrl, accessKey: service.keys.alice, ...scope });
  const error = (await client
    .getEnvironment({ environmentId: "00000000-0000-4000-8000-000000000000" })
    .catch((e: unknown) => e)) as ApiError;
  await client.close();
  expect(error.errorId).toMatch(/\S/);
  const stable = error.message
    .split(error.errorId)
    .join("<error id>")
    .replace(/chainform@\S+/, "chainform@<version>");
  expect(stable).toMatchInlineSnapshot(`
"environment 00000000-0000-4000-8000-000000000000 not found

Request: GET /public/v1/account/acme/project/demo/environments/00000000-0000-4000-8000-000000000000
Status: 404 resource_not_found (rid:vnet)
Error ID: <error id>

Docs: lib/client/README.md#apierror
Version: chainform@<version>"
`);
});
