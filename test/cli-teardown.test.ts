/**
 * `chainform teardown` end to end: the CLI as a child process against the local service (in this process), with a
 * counting proxy in front of it where the number of API calls matters.
 */
import type { Client } from "../lib/client";
import { DEFAULT_MAX_RETRIES } from "../lib/client/client";
import { TEARDOWN_EXIT } from "../lib/cli/teardown-selection";
import { assertCliBuilt, createEnvironments, runCli, serviceEnv, slugsOf } from "./helpers/cli";
import { startFaultProxy, type FaultProxy } from "./helpers/fault-proxy";
import { clientFor, startTestService, type TestService } from "./helpers/service";

describe("chainform teardown", () => {
  let service: TestService;
  let client: Client;
  const teardown = (...args: string[]) => runCli(["teardown", ...args], { env: serviceEnv(service) });

  beforeAll(async () => {
    assertCliBuilt();
    service = await startTestService();
    client = clientFor(service);
  });
  afterAll(async () => {
    await client?.close();
    await service?.close();
  });
  afterEach(async () => {
    const ids: string[] = [];
    for await (const environment of client.iterateEnvironments()) ids.push(environment.id);
    if (ids.length > 0) await client.deleteEnvironments({ environmentIds: ids });
  });

  it("--prefix deletes exactly the environments whose slug starts with the prefix", async () => {
    // GIVEN two pull requests' environments and one that must stay
    await createEnvironments(client, ["pr-1-a", "pr-1-b", "pr-10-a", "pr-2-a", "keep-me"]);
    // WHEN pull request 1's are torn down
    const result = await teardown("--prefix", "pr-1-", "--yes");
    // THEN only they are gone, and the output names them
    expect(result.code).toBe(TEARDOWN_EXIT.deleted);
    expect(result.stdout).toMatch(/pr-1-a/);
    expect(result.stdout).toMatch(/Deleted 2 environment\(s\) of acme\/demo\./);
    expect(result.stderr).toMatch(/✓ delete 2 environment\(s\) in batches of 100 \(\d/);
    expect(await slugsOf(client)).toEqual(["keep-me", "pr-10-a", "pr-2-a"]);
  });

  it("--dry-run lists the selection, deletes nothing and exits 3", async () => {
    await createEnvironments(client, ["pr-3-a", "pr-3-b", "other"]);
    const result = await teardown("--all", "--dry-run");
    expect(result.code).toBe(TEARDOWN_EXIT.nothingToDo);
    expect(result.stdout).toMatch(/^SLUG +ID +CREATED +AGE$/m);
    for (const slug of ["pr-3-a", "pr-3-b", "other"]) expect(result.stdout).toMatch(new RegExp(`^${slug} `, "m"));
    expect(result.stdout).toMatch(/Dry run: 3 of 3 environments of acme\/demo would be deleted; nothing was deleted\./);
    expect(await slugsOf(client)).toEqual(["other", "pr-3-a", "pr-3-b"]);
  });

  it("--older-than selects by age: nothing younger than the duration, everything older", async () => {
    await createEnvironments(client, ["young-a", "young-b"]);
    // WHEN the environments are younger than the duration THEN nothing matches
    const none = await teardown("--older-than", "1h", "--yes");
    expect(none.code).toBe(TEARDOWN_EXIT.nothingToDo);
    expect(none.stdout).toMatch(
      /Nothing to do: acme\/demo has 2 environment\(s\) and the selection \(environments created more than 1h ago\) matches none\./,
    );
    expect(await slugsOf(client)).toEqual(["young-a", "young-b"]);
    // WHEN they have grown older than it THEN they go
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const old = await teardown("--older-than", "1s", "--yes", "--json");
    expect(old.code).toBe(TEARDOWN_EXIT.deleted);
    expect(JSON.parse(old.stdout)).toMatchObject({ matched: 2, deleted: 2, failed: 0, dryRun: false });
    expect(await slugsOf(client)).toEqual([]);
  });

  it("--all with nothing there exits 3; without --yes and without a terminal it refuses (exit 2) and deletes nothing", async () => {
    const empty = await teardown("--all", "--yes");
    expect(empty.code).toBe(TEARDOWN_EXIT.nothingToDo);
    expect(empty.stdout).toMatch(
      /Nothing to do: acme\/demo has 0 environment\(s\) and the selection \(every environment of the project\) matches none\./,
    );

    await createEnvironments(client, ["pr-4-a"]);
    const refused = await teardown("--all");
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/chainform teardown: stdin is not a terminal, so there is no one to confirm: add --yes to delete/);
    expect(await slugsOf(client)).toEqual(["pr-4-a"]);
  });

  it("rejects a bad selection with exit 2 and one line", async () => {
    for (const args of [[], ["--all", "--prefix", "pr-"], ["--prefix", ""], ["--older-than", "two hours"]]) {
      const result = await teardown(...args);
      expect(result.code).toBe(2);
      expect(result.stderr.trim().split("\n")).toHaveLength(1);
      expect(result.stderr).toMatch(/^chainform teardown: (give exactly one of|--prefix must not be empty|--older-than: )/);
    }
  });

  describe("through a counting proxy", () => {
    let proxy: FaultProxy;
    beforeAll(async () => {
      proxy = await startFaultProxy(service.baseUrl);
    });
    afterAll(async () => {
      await proxy?.close();
    });
    const viaProxy = (...args: string[]) =>
      runCli(["teardown", ...args], { env: { ...serviceEnv(service), CHAINFORM_BASE_URL: proxy.baseUrl } });

    it("tears down 250 environments with 3 list calls and 3 batch deletes", async () => {
      // GIVEN 250 environments
      const ids = await createEnvironments(
        client,
        Array.from({ length: 250 }, (_, i) => `bulk-${String(i).padStart(3, "0")}`),
      );
      proxy.log.length = 0;
      // WHEN all are torn down
      const result = await viaProxy("--all", "--yes", "--json");
      // THEN all are gone, in pages of 100 and batches of at most 100 ids
      expect(result.code).toBe(TEARDOWN_EXIT.deleted);
      expect(JSON.parse(result.stdout)).toMatchObject({ matched: 250, deleted: 250, alreadyMissing: 0, failed: 0 });
      expect(await slugsOf(client)).toEqual([]);
      const lists = proxy.log.filter((r) => r.method === "GET");
      const deletes = proxy.log.filter((r) => r.method === "DELETE");
      expect(lists.map((r) => new URL(r.url, "http://x").searchParams.get("page"))).toEqual(["1", "2", "3"]);
      expect(lists.every((r) => new URL(r.url, "http://x").searchParams.get("perPage") === "100")).toBe(true);
      expect(deletes).toHaveLength(3);
      expect(deletes.every((r) => r.upstreamStatus === 204)).toBe(true);
      expect(ids).toHaveLength(250);
    }, 120_000);

    it("reports a partial failure with exit 4 when one batch cannot be deleted, and a rerun finishes the job", async () => {
      // GIVEN 150 environments (two batches) and a service that fails the first batch delete on every attempt
      await createEnvironments(
        client,
        Array.from({ length: 150 }, (_, i) => `part-${String(i).padStart(3, "0")}`),
      );
      for (let attempt = 0; attempt <= DEFAULT_MAX_RETRIES; attempt++) proxy.inject("503", (r) => r.method === "DELETE");
      // WHEN torn down
      const result = await viaProxy("--prefix", "part-", "--yes");
      // THEN the other batch is deleted and the summary says what failed
      expect(result.code).toBe(TEARDOWN_EXIT.partialFailure);
      expect(result.stdout).toMatch(
        /Partial failure: deleted 50 of 150; 100 could not be deleted \(the service answered 503.*\)\. Run the same command again to retry them\./,
      );
      expect(await slugsOf(client)).toHaveLength(100);
      // AND the same command removes the rest
      const rerun = await viaProxy("--prefix", "part-", "--yes");
      expect(rerun.code).toBe(TEARDOWN_EXIT.deleted);
      expect(await slugsOf(client)).toEqual([]);
    }, 120_000);
  });
});
