/**
 * `chainform serve` on a network address (docs/serving-on-a-network.md): a wildcard bind without TLS is refused in
 * one line; with --tls the ready line names a reachable base URL and the certificate file, and the client, the CLI
 * and the provider (real terraform) work when given that file as their CA, and fail clearly without it. The service
 * binds 0.0.0.0, but the tests only talk to it over loopback (`localhost`, which the certificate names).
 */
import { X509Certificate } from "node:crypto";
import { once } from "node:events";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import type { ChildProcessWithoutNullStreams } from "node:child_process";
import { CertificateError, createClient } from "../lib/client";
import { PROVIDER_BLOCK, acceptance, type Acceptance } from "./helpers/acceptance";
import { assertCliBuilt, runCli, startCli } from "./helpers/cli";

interface ReadyLine {
  event: "ready";
  baseUrl: string;
  accountSlug: string;
  projectSlug: string;
  accessKey: string;
  caFile?: string;
}

let dataDir: string;
let serve: ChildProcessWithoutNullStreams;
let ready: ReadyLine;
let stderr = "";
/** The service over loopback, with the name the certificate carries. */
let localUrl: string;

beforeAll(async () => {
  assertCliBuilt();
  dataDir = mkdtempSync(join(tmpdir(), "chainform-serve-tls-"));
  serve = startCli(["serve", "--host", "0.0.0.0", "--port", "0", "--tls", "--data-dir", dataDir]);
  serve.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  let stdout = "";
  ready = await new Promise<ReadyLine>((resolve, reject) => {
    serve.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      const line = stdout.split("\n").find((l) => l.includes('"event":"ready"'));
      if (line) resolve(JSON.parse(line) as ReadyLine);
    });
    serve.once("exit", (code) => reject(new Error(`chainform serve exited ${code}: ${stderr}`)));
  });
  localUrl = `https://localhost:${new URL(ready.baseUrl).port}`;
}, 60_000);

afterAll(async () => {
  if (serve && serve.exitCode === null) {
    serve.kill("SIGTERM");
    await once(serve, "exit");
  }
  rmSync(dataDir, { recursive: true, force: true });
});

const envOf = (extra: Record<string, string> = {}) => ({
  CHAINFORM_BASE_URL: localUrl,
  CHAINFORM_ACCESS_KEY: ready.accessKey,
  CHAINFORM_ACCOUNT: ready.accountSlug,
  CHAINFORM_PROJECT: ready.projectSlug,
  ...extra,
});

describe("binding a network address", () => {
  test("without TLS is refused with one clear line", async () => {
    const result = await runCli(["serve", "--host", "0.0.0.0", "--port", "0", "--in-memory"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      "chainform serve: refusing plain HTTP on 0.0.0.0: keys and Admin RPC URLs would cross the network in clear text; add --tls (self-signed), --tls-cert FILE --tls-key FILE, or --insecure-http to accept that\n",
    );
  });

  test("with --tls: a base URL naming this machine, and the certificate file clients trust", () => {
    expect(ready.baseUrl).toBe(`https://${hostname()}:${new URL(ready.baseUrl).port}`);
    expect(ready.caFile).toBe(join(dataDir, "tls-cert.pem"));
    expect(stderr).toContain(`clients trust it with CHAINFORM_CA_FILE=${ready.caFile}`);
    const certificate = new X509Certificate(readFileSync(ready.caFile!));
    expect(certificate.checkHost(hostname().toLowerCase())).toBeDefined();
    expect(certificate.checkHost("localhost")).toBe("localhost");
    expect(certificate.checkIP("127.0.0.1")).toBe("127.0.0.1");
  });
});

describe("the client", () => {
  test("works with the certificate as its CA file", async () => {
    const client = createClient({ baseUrl: localUrl, accessKey: ready.accessKey, caFile: ready.caFile });
    try {
      expect((await client.listProjects({ accountSlug: ready.accountSlug })).map((p) => p.slug)).toContain(ready.projectSlug);
    } finally {
      await client.close();
    }
  });

  test("fails at once, naming the CA setting, without it", async () => {
    const client = createClient({ baseUrl: localUrl, accessKey: ready.accessKey });
    try {
      const error = await client.listProjects({ accountSlug: ready.accountSlug }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CertificateError);
      expect(error).toMatchObject({ code: "DEPTH_ZERO_SELF_SIGNED_CERT" });
      expect((error as CertificateError).details).toMatch(/CHAINFORM_CA_FILE/);
    } finally {
      await client.close();
    }
  });
});

describe("the CLI", () => {
  test("honours CHAINFORM_CA_FILE", async () => {
    const result = await runCli(["projects", "--json"], { env: envOf({ CHAINFORM_CA_FILE: ready.caFile! }) });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`"${ready.projectSlug}"`);
  });

  test("says what to set without it", async () => {
    const result = await runCli(["projects", "--json"], { env: envOf() });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `chainform projects: the TLS certificate of ${localUrl} is not trusted (DEPTH_ZERO_SELF_SIGNED_CERT): set CHAINFORM_CA_FILE to the certificate file \`chainform serve --tls\` printed (caFile in its ready line)\n(run with --verbose for details)\n`,
    );
  });
});

describe("the provider (real terraform)", () => {
  const config = (providerBlock: string) => `${PROVIDER_BLOCK}
${providerBlock}
data "chainform_projects" "all" {}
output "projects" { value = [for p in data.chainform_projects.all.projects : p.slug] }
`;
  let run: Acceptance | undefined;
  afterEach(() => run?.dispose());

  test("works with ca_file, and with CHAINFORM_CA_FILE", async () => {
    run = await acceptance({ env: envOf() });
    await run.step({
      name: "ca_file argument",
      config: config(`provider "chainform" { ca_file = ${JSON.stringify(ready.caFile)} }`),
      command: "apply",
    });
    expect((await run.outputs()).projects?.value).toContain(ready.projectSlug);
    run.dispose();
    run = await acceptance({ env: envOf({ CHAINFORM_CA_FILE: ready.caFile! }) });
    await run.step({ name: "environment variable", config: config(""), command: "apply" });
    expect((await run.outputs()).projects?.value).toContain(ready.projectSlug);
  });

  test("fails clearly without it, and names an unreadable CA file", async () => {
    run = await acceptance({ env: envOf() });
    await run.step({
      name: "no CA file",
      config: config(""),
      command: "plan",
      expectError: /the service's certificate is not trusted.*DEPTH_ZERO_SELF_SIGNED_CERT.*set ca_file \(or CHAINFORM_CA_FILE\)/s,
    });
    await run.step({
      name: "a CA file that is not there",
      config: config(`provider "chainform" { ca_file = "/nonexistent/ca.pem" }`),
      command: "plan",
      expectError: /Invalid CA file.*Cannot read the CA file \/nonexistent\/ca\.pem \(ENOENT\).*ca_file/s,
    });
  });
});
