import * as grpc from "@grpc/grpc-js";
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { buildSync } from "esbuild";
import { serviceDefinition } from "./grpc-service";
import { MAGIC_COOKIE_VALUE } from "./handshake";
import { unixSocketPath } from "./serve";
import { generateServerCertificate } from "../../certificates/self-signed";

// A provider process as small as it gets: one RPC, and a console.log that must not reach stdout.
const TINY_PROVIDER = `
import { servePlugin } from ${JSON.stringify(join(__dirname, "serve"))};
console.log("library noise that must not reach stdout");
servePlugin({
  async getProviderSchema() {
    return {
      provider: { version: 0, block: { attributes: [], block_types: [] } },
      resource_schemas: { tiny_thing: { version: 2, block: { attributes: [{ name: "id", type: Buffer.from('"string"'), computed: true }], block_types: [] } } },
      server_capabilities: { get_provider_schema_optional: true },
    };
  },
});
`;

type UnaryClient = grpc.Client &
  Record<string, (request: object, callback: (error: grpc.ServiceError | null, response: any) => void) => void>;

const call = (client: UnaryClient, rpc: string, request: object = {}): Promise<any> =>
  new Promise((resolve, reject) => client[rpc]!(request, (error, response) => (error ? reject(error) : resolve(response))));

describe("servePlugin in a real process", () => {
  let dir: string;
  let bundle: string;
  const clientCertificate = generateServerCertificate(); // Terraform's client certificate has the same shape

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "chainform-serve-"));
    writeFileSync(join(dir, "main.ts"), TINY_PROVIDER);
    bundle = join(dir, "provider.js");
    buildSync({
      entryPoints: [join(dir, "main.ts")],
      bundle: true,
      platform: "node",
      target: "node20",
      outfile: bundle,
      logLevel: "error",
    });
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  function start(env: NodeJS.ProcessEnv): {
    child: ChildProcessWithoutNullStreams;
    stdout: () => string;
    stderr: () => string;
    exited: Promise<number | null>;
  } {
    const child = spawn(process.execPath, [bundle], { env: { PATH: process.env.PATH, ...env } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    return { child, stdout: () => stdout, stderr: () => stderr, exited };
  }

  async function handshake(stdout: () => string): Promise<string> {
    for (let i = 0; i < 200 && !stdout().includes("\n"); i++) await new Promise((r) => setTimeout(r, 25));
    return stdout().split("\n")[0]!;
  }

  // What go-plugin's client does: pin the server certificate from the handshake line, present our own.
  function connect(
    line: string,
    service = "tfplugin6.Provider",
    certificate: typeof clientCertificate | null = clientCertificate,
  ): UnaryClient {
    const [, , network, where, , certBase64] = line.split("|");
    const address = network === "unix" ? `unix://${where}` : where;
    const serverCertPem = `-----BEGIN CERTIFICATE-----\n${Buffer.from(certBase64!, "base64").toString("base64")}\n-----END CERTIFICATE-----\n`;
    const credentials = certificate
      ? grpc.credentials.createSsl(Buffer.from(serverCertPem), Buffer.from(certificate.keyPem), Buffer.from(certificate.certPem))
      : grpc.credentials.createSsl(Buffer.from(serverCertPem));
    const Client = grpc.makeClientConstructor(serviceDefinition(service), service);
    return new Client(address!, credentials, { "grpc.ssl_target_name_override": "localhost" }) as unknown as UnaryClient;
  }

  test("handshakes over mTLS on a Unix socket, serves RPCs, exits on Shutdown and removes its socket", async () => {
    const socketDir = mkdtempSync(join(tmpdir(), "chainform-sockets-"));
    const provider = start({
      TF_PLUGIN_MAGIC_COOKIE: MAGIC_COOKIE_VALUE,
      PLUGIN_CLIENT_CERT: clientCertificate.certPem,
      PLUGIN_MIN_PORT: "10000",
      PLUGIN_MAX_PORT: "25000",
      PLUGIN_PROTOCOL_VERSIONS: "6",
      PLUGIN_UNIX_SOCKET_DIR: socketDir,
    });
    try {
      const line = await handshake(provider.stdout);
      expect(line).toMatch(/^1\|6\|unix\|[^|]+\.sock\|grpc\|[A-Za-z0-9+/]+$/);
      const socketPath = line.split("|")[3]!;
      expect(dirname(socketPath)).toBe(socketDir);
      expect(statSync(socketPath).isSocket()).toBe(true);

      const client = connect(line);
      const schema = await call(client, "GetProviderSchema");
      expect(schema.server_capabilities.get_provider_schema_optional).toBe(true);
      expect(schema.resource_schemas.tiny_thing.version).toBe(2);
      expect(schema.resource_schemas.tiny_thing.block.attributes[0]).toMatchObject({ name: "id", computed: true });
      expect(Buffer.from(schema.resource_schemas.tiny_thing.block.attributes[0].type).toString()).toBe('"string"');

      await expect(call(client, "ReadResource", { type_name: "tiny_thing" })).rejects.toMatchObject({
        code: grpc.status.UNIMPLEMENTED,
      });
      // Terraform forwards Ctrl-C to the provider's process group; the provider must live on until Shutdown.
      provider.child.kill("SIGINT");
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(provider.child.exitCode).toBeNull();
      const stopped = await call(client, "StopProvider");
      expect(stopped.Error).toBe("");

      const health = connect(line, "grpc.health.v1.Health");
      expect(await call(health, "Check", { service: "plugin" })).toEqual({ status: "SERVING" });
      health.close();

      const controller = connect(line, "plugin.GRPCController");
      await call(controller, "Shutdown");
      expect(await provider.exited).toBe(0);
      client.close();
      controller.close();

      expect(provider.stdout()).toBe(`${line}\n`);
      expect(provider.stderr()).toContain("library noise that must not reach stdout");
      expect(readdirSync(socketDir)).toEqual([]);
    } finally {
      provider.child.kill();
      rmSync(socketDir, { recursive: true, force: true });
    }
  });

  test("listens on TCP in Terraform's port range when it cannot make a Unix socket", async () => {
    const provider = start({
      TF_PLUGIN_MAGIC_COOKIE: MAGIC_COOKIE_VALUE,
      PLUGIN_CLIENT_CERT: clientCertificate.certPem,
      PLUGIN_MIN_PORT: "10000",
      PLUGIN_MAX_PORT: "25000",
      PLUGIN_UNIX_SOCKET_DIR: join(dir, "no-such-directory"),
    });
    try {
      const line = await handshake(provider.stdout);
      expect(line).toMatch(/^1\|6\|tcp\|127\.0\.0\.1:(\d+)\|grpc\|[A-Za-z0-9+/]+$/);
      const port = Number(line.split("|")[3]!.split(":")[1]);
      expect(port).toBeGreaterThanOrEqual(10000);
      expect(port).toBeLessThanOrEqual(25000);
      const client = connect(line);
      await expect(call(client, "GetProviderSchema")).resolves.toHaveProperty("resource_schemas");
      client.close();
    } finally {
      provider.child.kill();
    }
  });

  test("refuses a client that does not present Terraform's certificate", async () => {
    const provider = start({ TF_PLUGIN_MAGIC_COOKIE: MAGIC_COOKIE_VALUE, PLUGIN_CLIENT_CERT: clientCertificate.certPem });
    try {
      const line = await handshake(provider.stdout);
      const stranger = connect(line, "tfplugin6.Provider", generateServerCertificate());
      await expect(call(stranger, "GetProviderSchema")).rejects.toMatchObject({ code: grpc.status.UNAVAILABLE });
      stranger.close();
      const anonymous = connect(line, "tfplugin6.Provider", null);
      await expect(call(anonymous, "GetProviderSchema")).rejects.toMatchObject({ code: grpc.status.UNAVAILABLE });
      anonymous.close();
      // while Terraform's certificate is accepted
      const terraform = connect(line);
      await expect(call(terraform, "GetProviderSchema")).resolves.toHaveProperty("resource_schemas");
      terraform.close();
    } finally {
      provider.child.kill();
    }
  });

  test("without the magic cookie, prints a human message on stderr and exits 1", async () => {
    const provider = start({});
    expect(await provider.exited).toBe(1);
    expect(provider.stdout()).not.toMatch(/\|grpc\|/);
    expect(provider.stderr()).toMatch(/This binary is a plugin/);
  });
});

describe("unixSocketPath", () => {
  test("is a fresh .sock file in the directory", () => {
    const a = unixSocketPath("/tmp", "linux")!;
    expect(dirname(a)).toBe("/tmp");
    expect(a).toMatch(/\/chainform-\d+-[a-z0-9]+\.sock$/);
    expect(unixSocketPath("/tmp", "linux")).not.toBe(a);
  });

  test("is none where a socket cannot be made or named in the handshake", () => {
    expect(unixSocketPath("/tmp", "win32")).toBeUndefined();
    expect(unixSocketPath(`/tmp/${"d".repeat(90)}`, "darwin")).toBeUndefined(); // over sockaddr_un's 104 bytes
    expect(unixSocketPath("/tmp/a|b", "linux")).toBeUndefined(); // the handshake line is split on |
  });
});
