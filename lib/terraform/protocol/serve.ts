/**
 * Runs a plugin process: handshake with Terraform, serve gRPC over mTLS, exit when told to. The whole of a provider
 * binary's `main` is `servePlugin(server)` (the framework's `serveProvider` calls it).
 */
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createPluginServer } from "./grpc-server";
import type { UnaryGrpcServer } from "./h2-grpc";
import {
  candidatePorts,
  handshakeLine,
  NOT_STARTED_BY_TERRAFORM,
  PLUGIN_PROTOCOL_VERSION,
  MAGIC_COOKIE_KEY,
  readHandshakeEnvironment,
  type HandshakeEnvironment,
  type PluginAddress,
} from "./handshake";
import type { ProviderServer } from "./provider-server";
import { reserveStdout } from "./stdout";
import { generateServerCertificate } from "../../certificates/self-signed";
import { trace } from "./trace";

/** Options of {@link servePlugin}. */
export interface ServePluginOptions {
  /** The environment to read the handshake from. Default: `process.env`. */
  readonly env?: NodeJS.ProcessEnv;
  /** Where the server logs (one line per call). Default: stderr. */
  readonly log?: (message: string) => void;
}

// When Terraform started this process, stdout is reserved as soon as this module loads: code of modules loaded
// after it (the provider's own) may log while loading, before servePlugin runs.
if (process.env[MAGIC_COOKIE_KEY]) reserveStdout();

const MAX_BIND_ATTEMPTS = 100;
// If Terraform dies without calling Shutdown, nobody will ever stop this process: notice the orphaning and exit.
const PARENT_CHECK_MS = 2_000;

/**
 * Serves a provider to Terraform. Exits the process with status 1 and a human message when it was not started by
 * Terraform, and with status 0 when Terraform calls Shutdown.
 * @example
 * servePlugin(createFrameworkServer(provider));
 */
export async function servePlugin(provider: ProviderServer, options: ServePluginOptions = {}): Promise<void> {
  const environment = readHandshakeEnvironment(options.env ?? process.env);
  if (!environment) {
    process.stderr.write(NOT_STARTED_BY_TERRAFORM);
    process.exit(1);
  }
  const log = options.log ?? ((message: string) => process.stderr.write(`${message}\n`));
  const writeStdout = reserveStdout();
  if (!environment.protocolVersions.includes(PLUGIN_PROTOCOL_VERSION)) {
    log(`Terraform offers plugin protocol ${environment.protocolVersions.join(",")}; this provider speaks only 6`);
  }

  const exit = () => {
    trace("exit");
    plugin.server.close();
    process.exit(0);
  };
  const plugin = createPluginServer(provider, { onShutdown: exit, log });
  const { address, certificateDer } = await bind(plugin.server, environment);
  writeStdout(`${handshakeLine(address, certificateDer)}\n`);
  trace("handshake");
  // Terraform is reading the line and will connect: set up what the connection needs now.
  plugin.server.prepare();

  // Terraform forwards Ctrl-C to the whole process group and then asks us to stop with StopProvider; dying here
  // would lose the result of an apply in flight. Go providers ignore SIGINT for the same reason.
  process.on("SIGINT", () => log("SIGINT ignored: waiting for Terraform's StopProvider"));
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) exit();
  }, PARENT_CHECK_MS).unref();
}

/**
 * Listens where go-plugin's own servers do: on a Unix socket in `PLUGIN_UNIX_SOCKET_DIR` or the temp directory
 * (it costs less to set up than a TCP port, and with the usual umask only this user may connect to it; mTLS guards it
 * either way), or on 127.0.0.1 in Terraform's port range when no socket can be made there (Windows, a directory that
 * is missing, read-only or too deep).
 */
async function bind(
  server: UnaryGrpcServer,
  environment: HandshakeEnvironment,
): Promise<{ address: PluginAddress; certificateDer?: Uint8Array }> {
  const certificate = environment.clientCertPem ? generateServerCertificate() : undefined;
  const tls =
    certificate && environment.clientCertPem
      ? { keyPem: certificate.keyPem, certPem: certificate.certPem, clientCertPem: environment.clientCertPem }
      : undefined;
  const withCertificate = certificate ? { certificateDer: certificate.der } : {};
  const path = unixSocketPath(environment.unixSocketDir ?? tmpdir());
  if (path) {
    try {
      await server.listenUnix(path, tls);
      return { address: { network: "unix", path }, ...withCertificate };
    } catch {
      // falls back to TCP below
    }
  }
  let attempts = 0;
  let lastError: Error | undefined;
  for (const candidate of candidatePorts(environment.portRange)) {
    if (attempts++ >= MAX_BIND_ATTEMPTS) break;
    try {
      const port = await server.listen(candidate, "127.0.0.1", tls);
      return { address: { network: "tcp", port }, ...withCertificate };
    } catch (error) {
      lastError = error as Error;
    }
  }
  throw new Error(`could not listen on 127.0.0.1 in ports ${environment.portRange.join("-")}: ${lastError?.message}`);
}

// A Unix socket's path must fit in sockaddr_un (104 bytes on macOS, 108 on Linux, with its terminating NUL).
const MAX_SOCKET_PATH_BYTES = 100;

/**
 * A fresh socket path in `dir`, or undefined where there can be none: on Windows, or when the path would not fit
 * in a socket address or could not be written in the handshake line (which is split on `|`).
 */
export function unixSocketPath(dir: string, platform: NodeJS.Platform = process.platform): string | undefined {
  if (platform === "win32") return undefined;
  const path = join(dir, `chainform-${process.pid}-${Math.random().toString(36).slice(2, 10)}.sock`);
  if (Buffer.byteLength(path) > MAX_SOCKET_PATH_BYTES || /[|\r\n]/.test(path)) return undefined;
  return path;
}
