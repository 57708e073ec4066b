/**
 * Every client operation against the local service over real HTTP (in-process service on 127.0.0.1, with its
 * default anvil chain engine). A second service without a chain engine pins the typed 402 of chain operations.
 */
import {
  ApiError,
  ClientConfigError,
  InsecureUrlError,
  createClient,
  clientFromEnv,
  deleteEnvironments,
  getEnvironment,
  iterateEnvironments,
  type Client,
  type ResponseEvent,
} from "../lib/client";
import { NoChainEngine } from "../lib/service/no-chain-engine";
import { startTestService, type TestService } from "./helpers/service";

let service: TestService;
let client: Client;
const events: ResponseEvent[] = [];

beforeAll(async () => {
  service = await startTestService();
  client = createClient({
    baseUrl: service.baseUrl,
    accessKey: service.keys.alice,
    accountSlug: service.accountSlug,
    projectSlug: service.projectSlug,
    onResponse: (event) => events.push(event),
  });
});
afterAll(async () => {
  await client.close();
  await service.close();
});
beforeEach(() => (events.length = 0));

const oneNetwork = [{ network_id: "1" }];

describe("account and project operations", () => {
  it("lists projects and delivery channels of the account", async () => {
    const projects = await client.listProjects();
    expect(projects.map((p) => p.slug).sort()).toEqual(["demo", "secret-sauce"]);
    const channels = await client.listDeliveryChannels();
    expect(channels.map((c) => c.type).sort()).toEqual(["email", "slack"]);
  });

  it("lists supported networks without sending credentials", async () => {
    const anonymous = createClient({ baseUrl: service.baseUrl });
    const networks = await anonymous.listSupportedNetworks();
    expect(networks.find((n) => n.chain_id === "8453")?.network_name).toBe("Base");
    await expect(anonymous.listProjects({ accountSlug: "acme" })).rejects.toMatchObject({ status: 401, slug: "unauthorized" });
    await anonymous.close();
  });

  it("stops a Web3 Action, twice, and reports an unknown one as 404 rid:action", async () => {
    const { id } = service.app.service.store.db.prepare("SELECT id FROM actions WHERE name = 'price-watcher'").get() as { id: string };
    await expect(client.stopAction({ actionId: id })).resolves.toEqual({ id, name: "price-watcher", status: "stopped" });
    await expect(client.stopAction({ actionId: id })).resolves.toMatchObject({ status: "stopped" });
    await expect(client.stopAction({ actionId: "no-such-action" })).rejects.toMatchObject({ status: 404, rid: "rid:action" });
  });

  it("authenticates with Basic and Bearer as well as the key header", async () => {
    for (const auth of [{ accessKey: service.keys.alice, authMode: "basic" as const }, { bearerToken: service.token("alice") }]) {
      const other = createClient({ baseUrl: service.baseUrl, accountSlug: "acme", ...auth });
      await expect(other.listProjects()).resolves.toHaveLength(2);
      await other.close();
    }
  });

  it("maps 401, 403 and 404 to ApiError with the body's fields", async () => {
    const wrongKey = createClient({ baseUrl: service.baseUrl, accessKey: "cf_not_a_key", accountSlug: "acme", projectSlug: "demo" });
    await expect(wrongKey.listEnvironments()).rejects.toMatchObject({ status: 401, slug: "unauthorized" });
    await wrongKey.close();
    const readOnly = createClient({ baseUrl: service.baseUrl, accessKey: service.keys.bob, accountSlug: "acme", projectSlug: "demo" });
    const forbidden = await readOnly.createEnvironment({ display_name: "nope", network_configs: oneNetwork }).catch((e: unknown) => e);
    expect(forbidden).toBeInstanceOf(ApiError);
    expect(forbidden).toMatchObject({ status: 403, slug: "insufficient_permissions", method: "POST" });
    expect((forbidden as ApiError).errorId).not.toBe("");
    await readOnly.close();
    const outsider = createClient({
      baseUrl: service.baseUrl,
      accessKey: service.keys.outsider,
      accountSlug: "acme",
      projectSlug: "secret-sauce",
    });
    await expect(outsider.listEnvironments()).rejects.toMatchObject({ status: 404, slug: "resource_not_found" });
    await outsider.close();
  });

  it("refuses plain http to a non-loopback host before sending, and needs a project for project calls", async () => {
    expect(() => createClient({ baseUrl: "http://example.com", accessKey: "k" })).toThrow(InsecureUrlError);
    const noProject = createClient({ baseUrl: service.baseUrl, accessKey: service.keys.alice, accountSlug: "acme" });
    await expect(noProject.listEnvironments()).rejects.toThrow(ClientConfigError);
    await noProject.close();
  });

  it("reads its settings from CHAINFORM_* variables", async () => {
    const fromEnv = clientFromEnv(
      {},
      {
        CHAINFORM_BASE_URL: service.baseUrl,
        CHAINFORM_ACCESS_KEY: service.keys.alice,
        CHAINFORM_ACCOUNT: "acme",
        CHAINFORM_PROJECT: "demo",
      },
    );
    await expect(fromEnv.listEnvironments({ perPage: 1 })).resolves.toBeInstanceOf(Array);
    await fromEnv.close();
  });
});

describe("environments", () => {
  it("creates, gets, finds by slug and deletes an environment", async () => {
    const created = await client.createEnvironment({
      display_name: "Ops test",
      network_configs: [{ network_id: "1" }, { network_id: "8453", chain_config_overrides: { chain_id: "84530001" } }],
      bridge_config: { enabled: true, relay_mode: "delayedRelay", delay_seconds: 5 },
    });
    expect(created.slug).toBe("ops-test");
    expect(created.active_instance.vnets).toHaveLength(2);
    expect(await getEnvironment(client, { environmentId: created.id })).toEqual(created);
    expect((await client.getEnvironmentBySlug({ slug: created.slug }))?.id).toBe(created.id);
    expect(await client.getEnvironmentBySlug({ slug: "no-such-slug" })).toBeNull();
    await expect(client.deleteEnvironment({ environmentId: created.id })).resolves.toEqual({ deleted: true });
    await expect(client.deleteEnvironment({ environmentId: created.id })).rejects.toMatchObject({ status: 404 });
    await expect(client.deleteEnvironment({ environmentId: created.id, ensureDeleted: true })).resolves.toEqual({ deleted: false });
  });

  it("keeps a caller's slug and reports a taken one as 400 naming /slug", async () => {
    const env = await client.createEnvironment({ display_name: "Fixed", slug: "fixed-slug", network_configs: oneNetwork });
    expect(env.slug).toBe("fixed-slug");
    const taken = await client
      .createEnvironment({ display_name: "Fixed", slug: "fixed-slug", network_configs: oneNetwork })
      .catch((e: unknown) => e);
    expect(taken).toMatchObject({ status: 400, slug: "bad_request", data: expect.objectContaining({ field: "/slug" }) });
    await client.deleteEnvironment({ environmentId: env.id });
  });

  it("ensureEnvironment creates once, then returns the existing one with a diff of what differs", async () => {
    const spec = { display_name: "Ensure me", network_configs: [{ network_id: "1", block_number: "0x100" }] };
    const first = await client.ensureEnvironment(spec);
    expect(first).toMatchObject({ created: true, differences: [] });
    expect(first.environment.slug).toBe("ensure-me");
    const again = await client.ensureEnvironment(spec);
    expect(again).toMatchObject({ created: false, differences: [] });
    expect(again.environment.id).toBe(first.environment.id);
    const drifted = await client.ensureEnvironment({
      ...spec,
      network_configs: [{ network_id: "1", block_number: "0x200" }],
      bridge_config: { enabled: true },
    });
    expect(drifted.created).toBe(false);
    // Only what the documented response shows is compared: the bridge is not in it.
    expect(drifted.differences).toEqual([{ path: "/network_configs/0/block_number", expected: "0x200", actual: "0x100" }]);
    await client.deleteEnvironment({ environmentId: first.environment.id });
  });

  it("reports a 400 for an invalid create body with the field at fault", async () => {
    const error = await client
      .createEnvironment({ display_name: "Bad", network_configs: [{ network_id: "999999999" }] })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 400, slug: "bad_request" });
    expect((error as ApiError).data?.["field"]).toMatch(/^\/network_configs\/0/);
  });
});

describe("pagination across 250 environments", () => {
  const ids: string[] = [];
  beforeAll(async () => {
    for (let i = 0; i < 250; i += 25) {
      const batch = await Promise.all(
        Array.from({ length: 25 }, (_, j) => client.createEnvironment({ display_name: `Page ${i + j}`, network_configs: oneNetwork })),
      );
      ids.push(...batch.map((e) => e.id));
    }
  }, 120_000);

  it("iterates every environment in 3 pages of 100", async () => {
    const seen: string[] = [];
    for await (const environment of iterateEnvironments(client)) seen.push(environment.id);
    expect(seen).toHaveLength(250);
    expect(new Set(seen)).toEqual(new Set(ids));
    expect(events.map((e) => e.path)).toEqual([1, 2, 3].map((page) => expect.stringContaining(`page=${page}&perPage=100`)));
  });

  it("reads single pages with page and perPage", async () => {
    const page3 = await client.listEnvironments({ page: 3, perPage: 100 });
    expect(page3).toHaveLength(50);
    expect(await client.listEnvironments()).toHaveLength(20);
  });

  it("batch-deletes in chunks of 100, counting missing ids as already deleted", async () => {
    const ghost = "00000000-0000-4000-8000-00000000dead";
    const result = await deleteEnvironments(client, { environmentIds: [...ids, ids[0]!, ghost] });
    expect(result).toEqual({ requested: 251, deleted: 250, alreadyMissing: 1, batches: 3 });
    expect(events.filter((e) => e.method === "DELETE")).toHaveLength(3);
    await expect(client.listEnvironments()).resolves.toEqual([]);
    await expect(client.deleteEnvironments({ environmentIds: ids.slice(0, 10) })).resolves.toMatchObject({
      deleted: 0,
      alreadyMissing: 10,
    });
  });
});

describe("transactions and simulations on anvil chains", () => {
  const from = "0x00000000000000000000000000000000000000aa";
  const to = "0x00000000000000000000000000000000000000bb";
  let env: Awaited<ReturnType<Client["createEnvironment"]>>;
  let instance: { environmentId: string; instanceId: string };
  let vnetId: string;
  beforeAll(async () => {
    env = await client.createEnvironment({
      display_name: "Tx",
      network_configs: [{ network_id: "1", accounts: [{ address: from, balance: "0xde0b6b3a7640000" }] }],
    });
    instance = { environmentId: env.id, instanceId: env.active_instance.id };
    vnetId = env.active_instance.vnets[0]!.id;
  }, 60_000);
  afterAll(() => client.deleteEnvironment({ environmentId: env.id, ensureDeleted: true }));

  it("sends a transaction, reads it back and finds it with filters", async () => {
    const sent = await client.sendTransaction({ ...instance, vnetId, callArgs: { from, to, value: "0x2a" } });
    // The documented record: tx_hash, status; the client reads it whatever the local service's extras.
    expect(sent).toMatchObject({ from, to, status: "success", vnet_id: vnetId });
    expect(sent.tx_hash).toMatch(/^0x[0-9a-f]{64}$/);
    // The send answers the record as a get does: with what it moved and wrote (local extras).
    expect(sent.asset_changes).toEqual([expect.objectContaining({ from, to, raw_amount: "0x2a", type: "Transfer" })]);
    await expect(client.getTransaction({ ...instance, txHash: sent.tx_hash! })).resolves.toEqual(sent);
    const matching = await client.listTransactions({ ...instance, status: "success", from });
    expect(matching.map((t) => t.tx_hash)).toContain(sent.tx_hash);
    await expect(client.listTransactions({ ...instance, status: "failed" })).resolves.toEqual([]);
    const all = [];
    for await (const tx of client.iterateTransactions({ ...instance, perPage: 1 })) all.push(tx.tx_hash);
    expect(all).toContain(sent.tx_hash);
    await expect(client.getTransaction({ ...instance, txHash: `0x${"ab".repeat(32)}` })).rejects.toMatchObject({ status: 404 });
  }, 60_000);

  it("simulates on a Virtual Environment and on an instance without keeping state", async () => {
    const onVnet = await client.simulateVnetTransaction({ vnetId, callArgs: { from, to, value: "0x1" } });
    expect(onVnet.status).toBe(true);
    expect(onVnet.blockNumber).toMatch(/^0x[0-9a-f]+$/);
    const onInstance = await client.simulateInstanceTransaction({ ...instance, vnetId, callArgs: { from, to, value: "0x1" } });
    expect(onInstance.status).toBe(true);
    expect(onInstance.stateChanges).toEqual(expect.arrayContaining([expect.objectContaining({ address: to, field: "balance" })]));
    const before = await client.listTransactions(instance);
    await client.simulateVnetTransaction({ vnetId, callArgs: { from, to, value: "0x1" } });
    expect(await client.listTransactions(instance)).toHaveLength(before.length);
  }, 60_000);

  it("simulates at project level, keeps saved simulations, and reports an unfundable one as a 402", async () => {
    const simulation = await client.simulateTransaction({ network_id: "1", from, to, value: "0x0", gas_price: "0x0", save: true });
    expect(simulation.simulation).toMatchObject({ network_id: "1" });
    const saved = await client.listSimulations({ perPage: 100 });
    expect(saved.map((s) => s.id)).toContain(simulation.simulation.id);
    const unfunded = await client
      .simulateTransaction({ network_id: "1", from, to, value: "0xffffffffffffffffffff" })
      .catch((e: unknown) => e);
    expect(unfunded).toBeInstanceOf(ApiError);
    expect(unfunded).toMatchObject({ status: 402, slug: "request_failed" });
  }, 60_000);
});

describe("chain operations on a service without a chain engine", () => {
  it("are typed 402 ApiErrors", async () => {
    const bare = await startTestService({ createChainEngine: () => new NoChainEngine() });
    const c = createClient({ baseUrl: bare.baseUrl, accessKey: bare.keys.alice, accountSlug: "acme", projectSlug: "demo" });
    const from = "0x00000000000000000000000000000000000000aa";
    try {
      const env = await c.createEnvironment({ display_name: "No chain", network_configs: oneNetwork });
      const instance = { environmentId: env.id, instanceId: env.active_instance.id, vnetId: env.active_instance.vnets[0]!.id };
      const results = await Promise.allSettled([
        c.simulateTransaction({ network_id: "1", from }),
        c.simulateVnetTransaction({ vnetId: instance.vnetId, callArgs: { from } }),
        c.simulateInstanceTransaction({ ...instance, callArgs: { from } }),
        c.sendTransaction({ ...instance, callArgs: { from } }),
      ]);
      for (const result of results) {
        expect(result.status).toBe("rejected");
        const error = (result as PromiseRejectedResult).reason as unknown;
        expect(error).toBeInstanceOf(ApiError);
        expect(error).toMatchObject({ status: 402, slug: "request_failed" });
      }
    } finally {
      await c.close();
      await bare.close();
    }
  });
});
