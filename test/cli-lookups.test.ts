/**
 * The lookups (`networks`, `projects`, `channels`, `environments`, `action stop`) as tables and with --json, and the
 * Admin RPC URLs of imported and cloned environments with --show-secrets, through the CLI as a child process against
 * the local service with its default seed.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  cloneEnvironment,
  type DeliveryChannel,
  type Environment,
  type Project,
  type SupportedNetwork,
  type Web3Action,
} from "../lib/client";
import { assertCliBuilt, createEnvironments, runCli, serviceEnv } from "./helpers/cli";
import { rpc } from "./helpers/http";
import { clientFor, startTestService, type TestService } from "./helpers/service";

/** The Admin RPC URLs (HTTP; the WebSocket ones beside them) of an environment's Virtual Environments. */
const adminUrls = (environment: Environment) =>
  environment.active_instance.vnets.flatMap((v) =>
    v.rpcs.filter((r) => r.name.startsWith("Admin") && r.url.startsWith("http")).map((r) => r.url),
  );

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

  it("Admin RPC URLs of imported and cloned environments: import and environments print them with --show-secrets only", async () => {
    const dir = mkdtempSync(join(tmpdir(), "chainform-cli-secrets-"));
    const client = clientFor(service);
    try {
      const [sourceId] = await createEnvironments(client, ["secrets-source"]);
      const file = join(dir, "source.chainform");
      expect((await cli("export", "secrets-source", "--output", file)).code).toBe(0);
      const imported = await cli("import", file, "--slug", "secrets-imported", "--show-secrets");
      expect(imported.code).toBe(0);
      const importedAdmin = adminUrls(JSON.parse(imported.stdout) as Environment);
      expect(importedAdmin).toHaveLength(1);
      const clone = await cloneEnvironment(client, { environmentId: sourceId!, display_name: "secrets clone", slug: "secrets-clone" });
      const cloneAdmin = adminUrls(clone);
      expect(cloneAdmin).toHaveLength(1);

      const listed = await json<Environment[]>("environments", "--show-secrets");
      const bySlug = new Map(listed.map((e) => [e.slug, adminUrls(e)]));
      expect(bySlug.get("secrets-imported")).toEqual(importedAdmin);
      expect(bySlug.get("secrets-clone")).toEqual(cloneAdmin);
      // They are the chains' Admin RPC URLs: a cheatcode works through them.
      for (const url of [...importedAdmin, ...cloneAdmin]) expect(await rpc(url, "evm_mine", [])).toBe("0x0");
      const table = await cli("environments", "--show-secrets");
      expect(table.stdout).toMatch(/^SLUG +NAME +NETWORKS +CREATED +ID +ADMIN RPC URLS$/m);
      expect(table.stdout).toContain(cloneAdmin[0]);

      // Without the flag, none of them shows anywhere.
      const plain = await cli("import", file, "--slug", "secrets-imported-2");
      expect(adminUrls(JSON.parse(plain.stdout) as Environment)).toEqual([]);
      expect((await cli("environments", "--json")).stdout).not.toMatch(/Admin RPC/);
      // A lookup whose list holds no secrets takes no --show-secrets.
      expect((await cli("networks", "--show-secrets")).code).toBe(2);
    } finally {
      const ids: string[] = [];
      for await (const environment of client.iterateEnvironments()) ids.push(environment.id);
      await client.deleteEnvironments({ environmentIds: ids });
      await client.close();
      rmSync(dir, { recursive: true, force: true });
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
