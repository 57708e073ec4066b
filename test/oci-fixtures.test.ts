/**
 * Fixture files in a real OCI registry (Debian's docker-registry, the CNCF distribution registry) as users run it:
 * `chainform export ENV --output oci://…:TAG`, `chainform import oci://…:TAG` and `chainform serve --import oci://…`,
 * over TLS with htpasswd auth, with token auth (the Bearer handshake) and credentials from a Docker config, and over
 * plain HTTP on loopback. Each failure a fleet meets (a refused token, a registry that is down, a tampered blob, a
 * manifest of another kind) is one line naming the artifact, a non-zero exit, and nothing created.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { RegistryClient } from "../lib/oci";
import { alive, expectSucceeded, RunnerJob } from "./helpers/actions-runner";
import { assertCliBuilt, runCli, serviceEnv, startCli, watchServe } from "./helpers/cli";
import { call, adminRpc } from "./helpers/http";
import { startTestService, type TestService } from "./helpers/service";
import { ENVIRONMENTS, chainFacts, createEnvironment, deployStore, type CreatedEnvironment } from "./helpers/fixtures";
import { startRegistry, type TestRegistry } from "./helpers/registry";

jest.setTimeout(240_000);

let service: TestService;
let registry: TestRegistry;
let root: string;
let environment: CreatedEnvironment;
let address: string;

beforeAll(async () => {
  assertCliBuilt();
  root = mkdtempSync(join(tmpdir(), "chainform-oci-"));
  [service, registry] = await Promise.all([startTestService(), startRegistry({ auth: "htpasswd" })]);
  environment = await createEnvironment(service, "Fleet base", [{ network_id: "8453" }]);
  address = await deployStore(service, environment, 0, 34);
});

afterAll(async () => {
  await Promise.all([service?.close(), registry?.stop()]);
  rmSync(root, { recursive: true, force: true });
});

/** The CLI's environment for the service and the registry, with the given registry credentials. */
function env(of: TestRegistry, extra: Record<string, string> = {}): Record<string, string> {
  return {
    ...serviceEnv(service),
    CHAINFORM_CA_FILE: of.caFile,
    CHAINFORM_OCI_USERNAME: of.username,
    CHAINFORM_OCI_PASSWORD: of.password,
    ...extra,
  };
}

const slugs = async () =>
  ((await call(service, "GET", `${ENVIRONMENTS}?perPage=100`, { as: "alice" })).body.environments as { slug: string }[]).map((e) => e.slug);

async function expectRefused(args: string[], environmentVariables: Record<string, string>, pattern: RegExp): Promise<string> {
  const before = await slugs();
  const result = await runCli(args, { env: environmentVariables });
  expect(result.code).not.toBe(0);
  const lines = result.stderr.trim().split("\n");
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(pattern);
  expect(await slugs()).toEqual(before);
  return lines[0];
}

test("export to oci://…:TAG, then import from it: a new environment with the same chain, pinned by digest too", async () => {
  const url = `oci://${registry.host}/acme/fixtures:base`;
  const pushed = await runCli(["export", "fleet-base", "--output", url], { env: env(registry) });
  expect([pushed.code, pushed.stderr]).toEqual([0, ""]);
  const pinned = /\((\d+) bytes, (oci:\/\/\S+@sha256:[a-f0-9]{64})\)/.exec(pushed.stdout);
  expect(pinned).not.toBeNull();
  expect(pushed.stdout).not.toContain(registry.password);

  for (const [source, slug] of [
    [url, "from-tag"],
    [pinned![2], "from-digest"],
  ]) {
    const imported = await runCli(["import", source, "--slug", slug], { env: env(registry) });
    expect([imported.code, imported.stderr]).toEqual([0, ""]);
    const created = JSON.parse(imported.stdout) as CreatedEnvironment;
    const copy = (await call(service, "GET", `${ENVIRONMENTS}/${created.id}`, { as: "alice" })).body as CreatedEnvironment;
    expect(await chainFacts(adminRpc(copy, 0), [address])).toEqual(await chainFacts(adminRpc(environment, 0), [address]));
  }
});

test("serve --import oci://… brings the fixture in before the ready line", async () => {
  const url = `oci://${registry.host}/acme/fixtures:serve`;
  expect((await runCli(["export", "fleet-base", "--output", url], { env: env(registry) })).code).toBe(0);
  const serve = startCli(["serve", "--in-memory", "--port", "0", "--import", url], { env: env(registry) });
  try {
    const watched = watchServe(serve);
    const ready = await watched.ready;
    expect(watched.output()).toContain(`${url}: imported as environment fleet-base`);
    const listed = await fetch(`${ready.baseUrl}/public/v1/account/${ready.accountSlug}/project/${ready.projectSlug}/environments`, {
      headers: { "X-Access-Key": ready.accessKey },
    });
    expect(((await listed.json()) as { environments: { slug: string }[] }).environments.map((e) => e.slug)).toContain("fleet-base");
  } finally {
    serve.kill("SIGTERM");
  }
});

test("the GitHub Action's fixture input takes an oci:// URL: the job starts from the pushed environment", async () => {
  const url = `oci://${registry.host}/acme/fixtures:action`;
  expect((await runCli(["export", "fleet-base", "--output", url], { env: env(registry) })).code).toBe(0);
  const job = new RunnerJob();
  const registryEnv = {
    CHAINFORM_CA_FILE: registry.caFile,
    CHAINFORM_OCI_USERNAME: registry.username,
    CHAINFORM_OCI_PASSWORD: registry.password,
  };
  const main = await job.main({ fixture: url }, registryEnv).done;
  try {
    expectSucceeded(main);
    expect((JSON.parse(main.outputs["fixture-environments"]) as { slug: string }[]).map((e) => e.slug)).toEqual(["fleet-base"]);
    expect(main.stdout + main.stderr).not.toContain(registry.password);
    expect((await job.post({ fixture: url }, main.state).done).code).toBe(0);
  } finally {
    const pid = Number(main.state.service_pid ?? 0);
    if (pid && alive(pid)) process.kill(pid, "SIGKILL");
    rmSync(job.dir, { recursive: true, force: true });
  }
});

test("token auth: the Bearer handshake with credentials from a Docker config", async () => {
  const tokenRegistry = await startRegistry({ auth: "token" });
  try {
    const dockerConfig = mkdtempSync(join(root, "docker-"));
    const auth = Buffer.from(`${tokenRegistry.username}:${tokenRegistry.password}`).toString("base64");
    writeFileSync(join(dockerConfig, "config.json"), JSON.stringify({ auths: { [tokenRegistry.host]: { auth } } }));
    const url = `oci://${tokenRegistry.host}/acme/fixtures:token`;
    const viaConfig = { ...serviceEnv(service), CHAINFORM_CA_FILE: tokenRegistry.caFile, DOCKER_CONFIG: dockerConfig };
    const pushed = await runCli(["export", "fleet-base", "--output", url], { env: viaConfig });
    expect([pushed.code, pushed.stderr]).toEqual([0, ""]);
    const imported = await runCli(["import", url, "--slug", "from-token"], { env: viaConfig });
    expect([imported.code, imported.stderr]).toEqual([0, ""]);
    expect(tokenRegistry.tokenRequests()).toBeGreaterThan(0);

    const wrong = { ...viaConfig, CHAINFORM_OCI_USERNAME: tokenRegistry.username, CHAINFORM_OCI_PASSWORD: "not-the-password" };
    const line = await expectRefused(
      ["import", url, "--slug", "never"],
      wrong,
      /token service of 127\.0\.0\.1:\d+ refused the credentials from CHAINFORM_OCI_USERNAME/,
    );
    expect(line).not.toContain("not-the-password");
  } finally {
    await tokenRegistry.stop();
  }
});

test("plain HTTP on loopback, no auth, as Docker allows for localhost", async () => {
  const plain = await startRegistry({ auth: "none", tls: false });
  try {
    const url = `oci://${plain.host}/acme/fixtures:plain`;
    const bare = serviceEnv(service);
    expect((await runCli(["export", "fleet-base", "--output", url], { env: bare })).code).toBe(0);
    const imported = await runCli(["import", url, "--slug", "from-plain"], { env: bare });
    expect([imported.code, imported.stderr]).toEqual([0, ""]);
  } finally {
    await plain.stop();
  }
});

test("a refused password, a registry that is down, a missing tag: one line each, nothing created", async () => {
  const url = `oci://${registry.host}/acme/fixtures:base`;
  const line = await expectRefused(
    ["import", url],
    env(registry, { CHAINFORM_OCI_PASSWORD: "wrong-password" }),
    /refused the credentials from CHAINFORM_OCI_USERNAME/,
  );
  expect(line).not.toContain("wrong-password");
  await expectRefused(["import", url], { ...serviceEnv(service), CHAINFORM_CA_FILE: registry.caFile }, /asks for credentials/);
  await expectRefused(
    ["import", "oci://127.0.0.1:9/acme/fixtures:base"],
    env(registry),
    /the registry 127\.0\.0\.1:9 cannot be reached \(ECONNREFUSED\)/,
  );
  await expectRefused(["import", `oci://${registry.host}/acme/fixtures:no-such-tag`], env(registry), /does not exist: push it first/);
  await expectRefused(["import", `oci://${registry.host}/Acme/Fixtures`], env(registry), /the repository must be lower-case/);
});

test("a tampered blob and a manifest of another kind are refused, naming the artifact", async () => {
  const url = `oci://${registry.host}/acme/tamper:base`;
  expect((await runCli(["export", "fleet-base", "--output", url], { env: env(registry) })).code).toBe(0);
  // The registry's filesystem storage keeps each blob as .../blobs/sha256/<2>/<hex>/data: flip bytes of this tag's
  // fixture layer, as a broken disk or a hostile mirror would.
  const reader = new RegistryClient(registry.host, {
    caFile: registry.caFile,
    credentials: { username: registry.username, password: registry.password, source: "test" },
  });
  const manifest = await reader
    .fetchManifest({ registry: registry.host, repository: "acme/tamper", reference: "base" })
    .finally(() => reader.close());
  const layer = (JSON.parse(manifest.bytes.toString()) as { layers: { digest: string }[] }).layers[0].digest.slice("sha256:".length);
  const file = findFiles(registry.storage, "data").find((path) => path.includes(`/${layer}/`))!;
  const bytes = readFileSync(file);
  bytes[bytes.length >> 1] ^= 0xff;
  writeFileSync(file, bytes);
  await expectRefused(["import", url, "--slug", "tampered"], env(registry), /does not match its digest: it was altered or truncated/);

  // An image of another kind under a tag: a config that is not chainform's.
  const client = new RegistryClient(registry.host, {
    caFile: registry.caFile,
    credentials: { username: registry.username, password: registry.password, source: "test" },
  });
  try {
    const config = Buffer.from("{}");
    const configDigest = await client.pushBlob("acme/other", config);
    const manifest = {
      schemaVersion: 2,
      mediaType: "application/vnd.oci.image.manifest.v1+json",
      config: { mediaType: "application/vnd.oci.image.config.v1+json", digest: configDigest, size: 2 },
      layers: [],
    };
    await client.pushManifest("acme/other", "image", Buffer.from(JSON.stringify(manifest)));
  } finally {
    await client.close();
  }
  await expectRefused(
    ["import", `oci://${registry.host}/acme/other:image`],
    env(registry),
    /is not a chainform fixture: its config is application\/vnd\.oci\.image\.config\.v1\+json/,
  );
});

function findFiles(directory: string, name: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? findFiles(join(directory, entry.name), name) : entry.name === name ? [join(directory, entry.name)] : [],
  );
}
