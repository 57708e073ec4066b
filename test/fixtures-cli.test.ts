/**
 * The fixture commands as users run them (bin/chainform, built): `chainform export` writes `<slug>.chainform` (or
 * `--output`), `chainform import` makes a new environment from it (another slug with `--slug`), a bad file is refused
 * in one line naming it with a non-zero exit and nothing created, and `chainform serve --import FILE` imports a
 * fixture at start, once: started twice on the same data dir, the second start finds it there.
 */
import { once } from "node:events";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { assertCliBuilt, runCli, serviceEnv, startCli, watchServe } from "./helpers/cli";
import { call, rpc, adminRpc } from "./helpers/http";
import { startTestService, type TestService } from "./helpers/service";
import { ENVIRONMENTS, chainFacts, createEnvironment, deployStore, type CreatedEnvironment } from "./helpers/fixtures";

jest.setTimeout(240_000);

let service: TestService;
let root: string;
let environment: CreatedEnvironment;
let address: string;

beforeAll(async () => {
  assertCliBuilt();
  root = mkdtempSync(join(tmpdir(), "chainform-fixture-cli-"));
  service = await startTestService();
  environment = await createEnvironment(service, "Handed over", [{ network_id: "8453" }]);
  address = await deployStore(service, environment, 0, 21);
});

afterAll(async () => {
  await service?.close();
  rmSync(root, { recursive: true, force: true });
});

const slugs = async (of: TestService = service) =>
  ((await call(of, "GET", `${ENVIRONMENTS}?perPage=100`, { as: "alice" })).body.environments as { slug: string }[]).map((e) => e.slug);

test("export by slug writes <slug>.chainform; import makes a new environment from it, under another slug", async () => {
  const exported = await runCli(["export", "handed-over"], { env: serviceEnv(service), cwd: root });
  expect([exported.code, exported.stderr]).toEqual([0, ""]);
  expect(exported.stdout).toContain(join(root, "handed-over.chainform"));
  const byId = await runCli(["export", environment.id, "--output", join(root, "by-id.chainform")], { env: serviceEnv(service) });
  expect(byId.code).toBe(0);
  expect(readFileSync(join(root, "by-id.chainform")).subarray(0, 18).toString()).toBe("chainform-fixture\n");

  const taken = await runCli(["import", join(root, "handed-over.chainform")], { env: serviceEnv(service) });
  expect(taken.code).toBe(1);
  expect(taken.stderr.trim().split("\n")).toHaveLength(1);
  expect(taken.stderr).toContain("handed-over");

  const imported = await runCli(["import", join(root, "handed-over.chainform"), "--slug", "colleague", "--display-name", "Colleague"], {
    env: serviceEnv(service),
  });
  expect([imported.code, imported.stderr]).toEqual([0, ""]);
  const printed = JSON.parse(imported.stdout) as CreatedEnvironment;
  expect([printed.slug, printed.display_name]).toEqual(["colleague", "Colleague"]);
  expect(imported.stdout).not.toContain("/rpc/admin/");
  const copy = (await call(service, "GET", `${ENVIRONMENTS}/${printed.id}`, { as: "alice" })).body as CreatedEnvironment;
  expect(await chainFacts(adminRpc(copy, 0), [address])).toEqual(await chainFacts(adminRpc(environment, 0), [address]));
});

test("a bad file or a missing one is refused in one line naming it, and nothing is created", async () => {
  const before = await slugs();
  const cut = join(root, "cut.chainform");
  const good = readFileSync(join(root, "by-id.chainform"));
  writeFileSync(cut, good.subarray(0, good.length - 300));
  for (const [file, message] of [
    [cut, /cut short/],
    [join(root, "nothing-here.chainform"), /cannot be read \(ENOENT\)/],
  ] as const) {
    const result = await runCli(["import", file], { env: serviceEnv(service) });
    expect(result.code).not.toBe(0);
    const lines = result.stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(file);
    expect(lines[0]).toMatch(message);
  }
  const missing = await runCli(["export", "no-such-environment"], { env: serviceEnv(service), cwd: root });
  expect(missing.code).toBe(1);
  expect(missing.stderr).toContain("no environment no-such-environment");
  expect(await slugs()).toEqual(before);
});

test("serve --import imports a fixture at start, and only once on the same data dir", async () => {
  const dataDir = join(root, "served");
  const file = join(root, "by-id.chainform");
  const serveOnce = async () => {
    const serve = startCli(["serve", "--data-dir", dataDir, "--port", "0", "--import", file]);
    const watched = watchServe(serve);
    try {
      const ready = await watched.ready;
      const listed = await fetch(`${ready.baseUrl}${ENVIRONMENTS}`, { headers: { "x-access-key": ready.accessKey } });
      const environments = ((await listed.json()) as { environments: CreatedEnvironment[] }).environments;
      // The imported chain's state, read through the restarted service too (the contract was set to 21).
      const slot = await rpc(adminRpc(environments[0], 0), "eth_getStorageAt", [address, "0x0", "latest"]);
      return { output: watched.output(), environments, slot };
    } finally {
      serve.kill("SIGTERM");
      if (serve.exitCode === null) await once(serve, "exit");
    }
  };
  const first = await serveOnce();
  expect(first.output).toContain(`${file}: imported as environment handed-over`);
  expect(first.environments.map((e) => e.slug)).toEqual(["handed-over"]);
  const second = await serveOnce();
  expect(second.output).toContain(`${file}: already present as environment handed-over (${first.environments[0].id})`);
  expect(second.environments.map((e) => e.id)).toEqual([first.environments[0].id]);
  expect([first.slot, second.slot]).toEqual([`0x${"0".repeat(62)}15`, `0x${"0".repeat(62)}15`]);

  // A bad fixture stops the start with one line naming it.
  const bad = await runCli(["serve", "--data-dir", join(root, "bad"), "--port", "0", "--import", join(root, "cut.chainform")]);
  expect(bad.code).not.toBe(0);
  expect(bad.stderr).toMatch(new RegExp(`${join(root, "cut.chainform").replace(/[.]/g, "\\.")}: is cut short`));
});
