/**
 * Runs `forge` (from `@foundry-rs/forge`) offline on a throw-away Foundry project, unchanged:
 * - the compiler is the solc-js the project ships, installed where forge looks for managed compilers
 *   (`$HOME/.svm/<version>/solc-<version>`, HOME being a temporary directory) behind a `solc`-like command line;
 * - `forge verify-contract` looks the compiler's release up in solc's public release list
 *   (https://binaries.soliditylang.org/bin/list.txt) before it submits anything. The machine is offline, so that
 *   one URL is answered by a local HTTPS proxy (HTTPS_PROXY, with a throw-away CA in SSL_CERT_FILE) that serves
 *   a list naming the shipped version and refuses every other host. Requests to the service go direct.
 */
import { execFile, execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer as createHttpServer, type Server } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);
const RELEASE_HOST = "binaries.soliditylang.org";
/** The forge executable of `@foundry-rs/forge`. */
export const FORGE = join(__dirname, "..", "..", "node_modules", ".bin", "forge");

/** A Foundry project and the environment forge runs in. */
export interface ForgeProject {
  readonly dir: string;
  /** Runs forge in the project (asynchronously: the service under test runs in this process). */
  forge(args: readonly string[]): Promise<{ stdout: string; stderr: string }>;
  close(): Promise<void>;
}

/** Creates a project with these sources (paths under the project root) and `foundry.toml`. */
export async function forgeProject(sources: Readonly<Record<string, string>>): Promise<ForgeProject> {
  const dir = mkdtempSync(join(tmpdir(), "chainform-forge-"));
  const home = join(dir, "home");
  const version = (require("solc/package.json") as { version: string }).version;
  mkdirSync(join(home, ".svm", version), { recursive: true });
  symlinkSync(join(__dirname, "solc-js-cli.cjs"), join(home, ".svm", version, `solc-${version}`));
  for (const [path, content] of Object.entries(sources)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  writeFileSync(join(dir, "foundry.toml"), '[profile.default]\nsrc = "src"\nout = "out"\noffline = true\nevm_version = "cancun"\n');
  const proxy = await releaseListProxy(dir, await solcLongVersion());
  const env = {
    ...process.env,
    HOME: home,
    HTTPS_PROXY: proxy.url,
    https_proxy: proxy.url,
    NO_PROXY: "127.0.0.1,localhost",
    no_proxy: "127.0.0.1,localhost",
    SSL_CERT_FILE: proxy.caFile,
    FOUNDRY_DISABLE_NIGHTLY_WARNING: "1",
    NO_COLOR: "1",
  };
  return {
    dir,
    forge: (args) => run(FORGE, [...args], { cwd: dir, env, encoding: "utf8", maxBuffer: 16 * 1024 * 1024 }),
    async close() {
      await new Promise((resolve) => proxy.server.close(resolve));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** `0.8.37+commit.f401782d`, from the shipped solc-js (in a child: loading it here would block for a second). */
async function solcLongVersion(): Promise<string> {
  const { stdout } = await run(process.execPath, [join(__dirname, "solc-js-cli.cjs"), "--version"], { encoding: "utf8" });
  return /Version: (\d+\.\d+\.\d+\+commit\.[0-9a-f]{8})/.exec(stdout)![1];
}

/** An HTTP proxy that tunnels CONNECT to solc's release host into a local HTTPS server serving the release list. */
async function releaseListProxy(dir: string, longVersion: string): Promise<{ url: string; caFile: string; server: Server }> {
  const tls = join(dir, "tls");
  mkdirSync(tls);
  const openssl = (args: string[]) => execFileSync("openssl", args, { cwd: tls, stdio: "pipe" });
  openssl([
    "req",
    "-x509",
    "-newkey",
    "ec",
    "-pkeyopt",
    "ec_paramgen_curve:P-256",
    "-nodes",
    "-keyout",
    "ca.key",
    "-out",
    "ca.pem",
    "-days",
    "2",
    "-subj",
    "/CN=chainform test CA",
  ]);
  openssl([
    "req",
    "-newkey",
    "ec",
    "-pkeyopt",
    "ec_paramgen_curve:P-256",
    "-nodes",
    "-keyout",
    "host.key",
    "-out",
    "host.csr",
    "-subj",
    `/CN=${RELEASE_HOST}`,
  ]);
  writeFileSync(join(tls, "host.ext"), `subjectAltName=DNS:${RELEASE_HOST}\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n`);
  openssl([
    "x509",
    "-req",
    "-in",
    "host.csr",
    "-CA",
    "ca.pem",
    "-CAkey",
    "ca.key",
    "-CAcreateserial",
    "-out",
    "host.pem",
    "-days",
    "2",
    "-extfile",
    "host.ext",
  ]);
  const releases = createHttpsServer(
    { key: readFileSync(join(tls, "host.key")), cert: readFileSync(join(tls, "host.pem")) },
    (request, response) => {
      if (request.url?.startsWith("/bin/list.txt")) response.end(`soljson-v${longVersion}.js\n`);
      else response.writeHead(404).end();
    },
  );
  const server = createHttpServer((_request, response) => response.writeHead(405).end());
  server.on("connect", (request, socket) => {
    if (request.url !== `${RELEASE_HOST}:443`) {
      socket.end("HTTP/1.1 403 Forbidden\r\n\r\n");
      return;
    }
    socket.write("HTTP/1.1 200 Connection Established\r\n\r\n");
    releases.emit("connection", socket);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, caFile: join(tls, "ca.pem"), server };
}
