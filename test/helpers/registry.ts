/**
 * A real OCI registry for tests: Debian's `docker-registry` (the CNCF distribution registry), on loopback, with TLS
 * from a throw-away certificate, and either htpasswd (Basic) auth or token auth whose token service is a small
 * server of ours signing ES256 JWTs as the distribution registry's token specification says. `.ci/run` installs the
 * package; a machine without it fails here with the command that installs it.
 *
 * @example
 * const registry = await startRegistry({ auth: "htpasswd" });
 * // CHAINFORM_CA_FILE=registry.caFile CHAINFORM_OCI_USERNAME=registry.username ...
 * await registry.stop();
 */
import { spawn, execFileSync, type ChildProcess } from "node:child_process";
import { createServer as createHttpServer, type Server } from "node:http";
import { createServer as createNetServer } from "node:net";
import { createPrivateKey, randomBytes, sign } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Agent, request } from "undici";
import { generateSelfSignedCertificate } from "../../lib/certificates/self-signed";

const REGISTRY_BIN = process.env.CHAINFORM_TEST_REGISTRY_BIN ?? "/usr/bin/docker-registry";

/** A running registry. */
export interface TestRegistry {
  /** `127.0.0.1:PORT`, as an `oci://` URL names it. */
  readonly host: string;
  /** The PEM file that the registry's certificate chains to (CHAINFORM_CA_FILE). */
  readonly caFile: string;
  readonly username: string;
  readonly password: string;
  /** Where the registry keeps blobs on disk (tests tamper with them). */
  readonly storage: string;
  /** Requests the token service answered (token auth only). */
  readonly tokenRequests: () => number;
  stop(): Promise<void>;
}

/** How the registry authenticates: none, htpasswd (Basic), or Bearer tokens from our token service. */
export interface RegistryOptions {
  readonly auth?: "none" | "htpasswd" | "token";
  /** false: plain HTTP on loopback (as Docker allows for localhost). @default true */
  readonly tls?: boolean;
}

/** Starts a registry; stop it in `afterAll`. */
export async function startRegistry(options: RegistryOptions = {}): Promise<TestRegistry> {
  if (!existsSync(REGISTRY_BIN)) {
    throw new Error(`no OCI registry at ${REGISTRY_BIN}: install Debian's docker-registry (apt-get install docker-registry apache2-utils)`);
  }
  const auth = options.auth ?? "htpasswd";
  const tls = options.tls ?? true;
  const dir = mkdtempSync(join(tmpdir(), "chainform-registry-"));
  const storage = join(dir, "storage");
  const certificate = generateSelfSignedCertificate({
    commonName: "localhost",
    organization: "chainform tests",
    dnsNames: ["localhost"],
    ipAddresses: ["127.0.0.1"],
  });
  const caFile = join(dir, "cert.pem");
  writeFileSync(caFile, certificate.certPem);
  writeFileSync(join(dir, "key.pem"), certificate.keyPem, { mode: 0o600 });
  const username = "ci";
  const password = randomBytes(12).toString("hex");
  let tokenServer: TokenServer | undefined;
  let authSection = "";
  if (auth === "htpasswd") {
    writeFileSync(join(dir, "htpasswd"), execFileSync("htpasswd", ["-Bbn", username, password]));
    authSection = `auth:\n  htpasswd:\n    realm: chainform-tests\n    path: ${join(dir, "htpasswd")}\n`;
  } else if (auth === "token") {
    tokenServer = await startTokenServer(certificate, username, password);
    authSection = `auth:\n  token:\n    realm: ${tokenServer.url}\n    service: chainform-tests\n    issuer: chainform-tests\n    rootcertbundle: ${caFile}\n`;
  }
  const port = await freePort();
  const tlsSection = tls ? `  tls:\n    certificate: ${caFile}\n    key: ${join(dir, "key.pem")}\n` : "";
  writeFileSync(
    join(dir, "config.yml"),
    `version: 0.1\nlog:\n  level: warn\n  accesslog:\n    disabled: true\nstorage:\n  filesystem:\n    rootdirectory: ${storage}\n  delete:\n    enabled: true\n` +
      `http:\n  addr: 127.0.0.1:${port}\n${tlsSection}${authSection}`,
  );
  const child = spawn(REGISTRY_BIN, ["serve", join(dir, "config.yml")], { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  const host = `127.0.0.1:${port}`;
  await waitForRegistry(child, `${tls ? "https" : "http"}://${host}/v2/`, caFile, () => stderr);
  return {
    host,
    caFile,
    username,
    password,
    storage,
    tokenRequests: () => tokenServer?.count() ?? 0,
    async stop() {
      child.kill("SIGTERM");
      await new Promise((done) => (child.exitCode === null ? child.once("exit", done) : done(null)));
      await tokenServer?.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

interface TokenServer {
  readonly url: string;
  count(): number;
  close(): Promise<void>;
}

/** A token service: Basic credentials in, an ES256 JWT granting what the scope asks out; wrong credentials get 401. */
async function startTokenServer(
  certificate: { der: Uint8Array; keyPem: string },
  username: string,
  password: string,
): Promise<TokenServer> {
  const key = createPrivateKey(certificate.keyPem);
  let requests = 0;
  const server: Server = createHttpServer((request, response) => {
    requests++;
    const url = new URL(request.url ?? "/", "http://localhost");
    const given = Buffer.from((request.headers.authorization ?? "").replace(/^Basic /, ""), "base64").toString();
    if (given !== `${username}:${password}`) {
      response.writeHead(401).end();
      return;
    }
    const access = url.searchParams.getAll("scope").flatMap((scope) => {
      const [type, name, actions] = scope.split(":");
      return type === "repository" ? [{ type, name, actions: actions.split(",") }] : [];
    });
    const now = Math.floor(Date.now() / 1000);
    const header = { alg: "ES256", typ: "JWT", x5c: [Buffer.from(certificate.der).toString("base64")] };
    const claims = {
      iss: "chainform-tests",
      sub: username,
      aud: url.searchParams.get("service"),
      exp: now + 300,
      nbf: now - 30,
      iat: now,
      jti: randomBytes(8).toString("hex"),
      access,
    };
    const unsigned = `${base64url(JSON.stringify(header))}.${base64url(JSON.stringify(claims))}`;
    const signature = sign("sha256", Buffer.from(unsigned), { key, dsaEncoding: "ieee-p1363" });
    response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ token: `${unsigned}.${base64url(signature)}` }));
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const address = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${address.port}/token`,
    count: () => requests,
    close: () => new Promise((done) => server.close(() => done())),
  };
}

function base64url(value: string | Buffer): string {
  return Buffer.from(value).toString("base64url");
}

async function freePort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address() as { port: number };
  await new Promise((done) => server.close(done));
  return port;
}

/** Waits until the registry answers /v2/ (200 or 401), or fails with what it printed. */
async function waitForRegistry(child: ChildProcess, url: string, caFile: string, stderr: () => string): Promise<void> {
  const dispatcher = new Agent({ connect: { ca: readFileSync(caFile, "utf8") } });
  const deadline = Date.now() + 60_000;
  try {
    while (Date.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`docker-registry exited (${child.exitCode}): ${stderr()}`);
      try {
        const answer = await request(url, { dispatcher });
        await answer.body.dump();
        if (answer.statusCode === 200 || answer.statusCode === 401) return;
      } catch {
        // not listening yet
      }
      await new Promise((done) => setTimeout(done, 100));
    }
    throw new Error(`docker-registry did not answer ${url} within 60 s: ${stderr()}`);
  } finally {
    await dispatcher.close();
  }
}
