/**
 * The client against the real local service behind a fault-injecting proxy: dropped connections (before and
 * after the service acted), delays past the client's timeout, and 503s. Environment creation must survive all of
 * them and never leave a duplicate; non-idempotent POSTs must not be repeated after an ambiguous failure.
 */
import { ConnectionError, createClient, type Client } from "../lib/client";
import { startFaultProxy, type FaultProxy } from "./helpers/fault-proxy";
import { startTestService, type TestService } from "./helpers/service";

let service: TestService;
let proxy: FaultProxy;
let client: Client;
let direct: Client;

const isCreate = (r: { method: string; url: string }) => r.method === "POST" && /\/environments$/.test(r.url);
const oneNetwork = [{ network_id: "1" }];

beforeAll(async () => {
  service = await startTestService();
  proxy = await startFaultProxy(service.baseUrl);
  const common = { accessKey: service.keys.alice, accountSlug: service.accountSlug, projectSlug: service.projectSlug };
  client = createClient({ baseUrl: proxy.baseUrl, ...common, timeoutMs: 400, retryBaseDelayMs: 20, retryMaxDelayMs: 100, maxRetries: 6 });
  direct = createClient({ baseUrl: service.baseUrl, ...common });
});
afterAll(async () => {
  await client.close();
  await direct.close();
  await proxy.close();
  await service.close();
});
beforeEach(() => {
  proxy.clear();
  proxy.log.length = 0;
});

/** Environments of the project with this display name, read straight from the service. */
async function named(displayName: string) {
  const found = [];
  for await (const environment of direct.iterateEnvironments()) if (environment.display_name === displayName) found.push(environment);
  return found;
}

describe("environment creation through faults", () => {
  it.each([
    ["the connection drops before the request is forwarded", ["drop-before"]],
    ["the connection drops after the service created it", ["drop-after"]],
    ["a proxy answers 503", ["503"]],
    ["503, drop-before and drop-after in a row", ["503", "drop-before", "drop-after"]],
  ] as const)("creates exactly one environment when %s", async (_, faults) => {
    for (const fault of faults) proxy.inject(fault, isCreate);
    const displayName = `Faulty ${faults.join(" ")}`;
    const environment = await client.createEnvironment({ display_name: displayName, network_configs: oneNetwork });
    const stored = await named(displayName);
    expect(stored.map((e) => e.id)).toEqual([environment.id]);
    expect(proxy.log.filter((r) => isCreate(r)).map((r) => r.fault)).toEqual(
      (faults as readonly string[]).includes("drop-after") ? [...faults] : [...faults, "pass"],
    );
  });

  it("creates exactly one when the first POST is delayed past the timeout and lands late", async () => {
    proxy.inject({ delayMs: 900 }, isCreate);
    const environment = await client.createEnvironment({ display_name: "Late lander", network_configs: oneNetwork });
    await new Promise((resolve) => setTimeout(resolve, 1200)); // let the delayed POST reach the service
    expect((await named("Late lander")).map((e) => e.id)).toEqual([environment.id]);
    const creates = proxy.log.filter((r) => isCreate(r));
    expect(creates.length).toBeGreaterThanOrEqual(2);
    // Whichever POST arrived second was refused by slug uniqueness, never accepted twice.
    expect(creates.filter((r) => r.upstreamStatus === 200)).toHaveLength(1);
  });

  it("returns the created environment for a caller-chosen slug after a drop-after", async () => {
    proxy.inject("drop-after", isCreate);
    const environment = await client.createEnvironment({ display_name: "Chosen", slug: "chosen-slug", network_configs: oneNetwork });
    expect(environment.slug).toBe("chosen-slug");
    expect(await named("Chosen")).toHaveLength(1);
  });

  it("does not take a stranger's environment with the same caller-chosen slug for its own", async () => {
    await direct.createEnvironment({ display_name: "Stranger", slug: "contested", network_configs: [{ network_id: "8453" }] });
    proxy.inject("drop-before", isCreate);
    const error = await client
      .createEnvironment({ display_name: "Mine", slug: "contested", network_configs: oneNetwork })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 400, data: expect.objectContaining({ field: "/slug" }) });
    expect(await named("Mine")).toHaveLength(0);
  });
});

describe("other requests through faults", () => {
  it("retries reads through every kind of fault", async () => {
    for (const fault of ["drop-before", "drop-after", "503", { delayMs: 900 }] as const) proxy.inject(fault);
    await expect(client.listEnvironments({ perPage: 1 })).resolves.toBeInstanceOf(Array);
    expect(proxy.log).toHaveLength(5);
  });

  it("treats a retried delete whose first attempt succeeded as done when asked to ensure deletion", async () => {
    const environment = await direct.createEnvironment({ display_name: "Delete me", network_configs: oneNetwork });
    proxy.inject("drop-after", (r) => r.method === "DELETE");
    await expect(client.deleteEnvironment({ environmentId: environment.id, ensureDeleted: true })).resolves.toEqual({ deleted: false });
    expect(await named("Delete me")).toHaveLength(0);
  });

  it("finishes a batch delete whose first attempt was cut off after the service acted", async () => {
    const made = await Promise.all(
      [1, 2, 3].map((i) => direct.createEnvironment({ display_name: "Batch gone", network_configs: oneNetwork, slug: `batch-gone-${i}` })),
    );
    proxy.inject("drop-after", (r) => r.method === "DELETE");
    const result = await client.deleteEnvironments({ environmentIds: made.map((e) => e.id) });
    expect(result).toEqual({ requested: 3, deleted: 0, alreadyMissing: 3, batches: 1 });
    expect(await named("Batch gone")).toHaveLength(0);
  });

  it("does not repeat a transaction send after the connection broke once the request was out", async () => {
    const environment = await direct.createEnvironment({ display_name: "Sender", network_configs: oneNetwork });
    proxy.inject("drop-after", (r) => r.method === "POST");
    const error = await client
      .sendTransaction({
        environmentId: environment.id,
        instanceId: environment.active_instance.id,
        vnetId: environment.active_instance.vnets[0]!.id,
        callArgs: { from: "0x00000000000000000000000000000000000000aa", value: "0x1" },
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).toMatchObject({ sent: true, attempts: 1 });
    expect(proxy.log.filter((r) => r.method === "POST")).toHaveLength(1);
  });
});
