/**
 * The lookups (`networks`, `projects`, `channels`, `environments`, `action stop`) as tables and with --json,
 * through the CLI as a child process against the local service with its default seed.
 */
import type { DeliveryChannel, Environment, Project, SupportedNetwork, Web3Action } from "../lib/client";
import { assertCliBuilt, createEnvironments, runCli, serviceEnv } from "./helpers/cli";
import { clientFor, startTestService, type TestService } from "./helpers/service";

describe("chainform lookups", () => {
  let service: TestService;
  const cli = (...args: string[]) => runCli(args, { env: serviceEnv(service) });
  const json = async <T>(...args: string[]): Promise<T> => {
    const result = await cli(...args, "--json");
    expect(result.code).toBe(0);
    return JSON.parse(result.stdout) as T;
  };

  beforeAll(async () => {
    assertCliBuilt();
    service = await startTestService();
  });
  afterAll(async () => {
    await service?.close();
  });

  it("networks: the supported networks with their real chain ids, without a key", async () => {
    const networks = await json<SupportedNetwork[]>("networks");
    expect(networks.length).toBeGreaterThanOrEqual(10);
    expect(networks).toContainEqual(expect.objectContaining({ chain_id: "1" }));
    const table = await runCli(["networks"], { env: { CHAINFORM_BASE_URL: service.baseUrl } });
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/^CHAIN ID +NAME +VIRTUAL TESTNET +SIMULATOR$/m);
    expect(table.stdout).toMatch(/^8453 +Base +yes/m);
  });

  it("projects: what alice can see in acme", async () => {
    const projects = await json<Project[]>("projects");
    expect(projects.map((p) => p.slug).sort()).toEqual(["demo", "secret-sauce"]);
    expect((await cli("projects")).stdout).toMatch(/^secret-sauce +Secret Sauce +restricted /m);
  });

  it("channels: the seeded email and slack channels", async () => {
    const channels = await json<DeliveryChannel[]>("channels");
    expect(channels.map((c) => c.type).sort()).toEqual(["email", "slack"]);
    expect((await cli("channels")).stdout).toMatch(/^TYPE +LABEL +ENABLED +ID$/m);
  });

  it("environments: every page, newest first, without Admin RPC URLs even in JSON", async () => {
    const client = clientFor(service);
    try {
      await createEnvironments(
        client,
        Array.from({ length: 105 }, (_, i) => `lookup-${String(i).padStart(3, "0")}`),
      );
      const environments = await json<Environment[]>("environments");
      expect(environments).toHaveLength(105);
      const rpcs = environments.flatMap((e) => e.active_instance.vnets.flatMap((v) => v.rpcs));
      expect(rpcs.length).toBeGreaterThan(0);
      expect(rpcs.map((rpc) => rpc.name).filter((name) => name.startsWith("Admin"))).toEqual([]);
      expect(rpcs.some((rpc) => rpc.name === "Public RPC")).toBe(true);
      const table = await cli("environments");
      expect(table.stdout).toMatch(/^SLUG +NAME +NETWORKS +CREATED +ID$/m);
      expect(table.stdout.trim().split("\n")).toHaveLength(106);
      expect(table.stdout).not.toMatch(/rpc\/admin/);
    } finally {
      const ids: string[] = [];
      for await (const environment of client.iterateEnvironments()) ids.push(environment.id);
      await client.deleteEnvironments({ environmentIds: ids });
      await client.close();
    }
  });

  it("action stop: stops the running action; an unknown id is a 404 line", async () => {
    // The API has no list of actions: read the seeded running one's id from the store.
    const running = service.app.service.store.db.prepare("SELECT id, name FROM actions WHERE status = 'running'").get() as
      Web3Action | undefined;
    expect(running).toBeDefined();
    const stopped = await json<Web3Action>("action", "stop", running!.id);
    expect(stopped).toEqual({ id: running!.id, name: running!.name, status: "stopped" });
    const again = await cli("action", "stop", running!.id);
    expect(again.code).toBe(0);
    expect(again.stdout).toBe(`Action ${running!.name} (${running!.id}) is stopped.\n`);

    const unknown = await cli("action", "stop", "no-such-action");
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^chainform action: the service answered 404 resource_not_found/m);
    const usage = await cli("action", "start", "x");
    expect(usage.code).toBe(2);
    expect(usage.stderr).toBe("chainform action: expected `action stop ID`, got `action start`\n");
  });
});
