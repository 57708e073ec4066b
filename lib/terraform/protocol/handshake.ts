/**
 * go-plugin's start-up contract, as Terraform drives it: environment variables in, one handshake line out.
 * (hashicorp/go-plugin server.go; measured facts in docs/terraform-protocol.md.)
 */

/** The environment variable Terraform sets so that a plugin knows it was started by Terraform. */
export const MAGIC_COOKIE_KEY = "TF_PLUGIN_MAGIC_COOKIE";
/** Terraform's magic cookie value (the same for every provider). */
export const MAGIC_COOKIE_VALUE = "d602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2";
/** The go-plugin core protocol version (first field of the handshake line). */
export const CORE_PROTOCOL_VERSION = 1;
/** The Terraform plugin protocol major version chainform speaks. */
export const PLUGIN_PROTOCOL_VERSION = 6;

/** What Terraform told the plugin through its environment. */
export interface HandshakeEnvironment {
  /** Terraform's client certificate (PEM) for mTLS; absent when Terraform does not use automatic mTLS. */
  readonly clientCertPem?: string;
  /** The port range to listen in; [0, 0] lets the OS choose. */
  readonly portRange: readonly [number, number];
  /** The plugin protocol versions Terraform accepts. */
  readonly protocolVersions: readonly number[];
  /** Where to put the Unix socket (`PLUGIN_UNIX_SOCKET_DIR`, as go-plugin reads it); absent: the temp directory. */
  readonly unixSocketDir?: string;
}

/** Where the plugin listens, as the handshake line gives it to Terraform. */
export type PluginAddress = { readonly network: "unix"; readonly path: string } | { readonly network: "tcp"; readonly port: number };

/** Shown when someone runs the provider binary by hand. */
export const NOT_STARTED_BY_TERRAFORM =
  "This binary is a plugin. These are not meant to be executed directly.\n" +
  "It is a Terraform provider: Terraform starts it when a configuration uses it.\n" +
  "Run terraform (init, plan, apply) in a directory whose configuration uses this provider instead.\n";

/**
 * Reads the handshake environment, or returns null when the magic cookie is missing or wrong (the process was not
 * started by Terraform).
 */
export function readHandshakeEnvironment(env: NodeJS.ProcessEnv = process.env): HandshakeEnvironment | null {
  if (env[MAGIC_COOKIE_KEY] !== MAGIC_COOKIE_VALUE) return null;
  const min = Number.parseInt(env.PLUGIN_MIN_PORT ?? "0", 10) || 0;
  const max = Number.parseInt(env.PLUGIN_MAX_PORT ?? "0", 10) || 0;
  const versions = (env.PLUGIN_PROTOCOL_VERSIONS ?? String(PLUGIN_PROTOCOL_VERSION))
    .split(",")
    .map((v) => Number.parseInt(v.trim(), 10))
    .filter((v) => !Number.isNaN(v));
  const clientCertPem = env.PLUGIN_CLIENT_CERT?.trim() ? env.PLUGIN_CLIENT_CERT : undefined;
  const unixSocketDir = env.PLUGIN_UNIX_SOCKET_DIR?.trim() || undefined;
  return {
    ...(clientCertPem ? { clientCertPem } : {}),
    portRange: [min, Math.max(min, max)],
    protocolVersions: versions,
    ...(unixSocketDir ? { unixSocketDir } : {}),
  };
}

/**
 * The ports to try, in order: 0 when no range is set; otherwise every port of the range once, starting at a random
 * one, because Terraform starts several provider processes at once and they would all race for the first port.
 */
export function* candidatePorts(range: readonly [number, number], random: () => number = Math.random): Iterable<number> {
  const [min, max] = range;
  if (min === 0 && max === 0) {
    yield 0;
    return;
  }
  const size = max - min + 1;
  const start = Math.floor(random() * size);
  for (let i = 0; i < size; i++) yield min + ((start + i) % size);
}

/**
 * The handshake line: `1|6|unix|/tmp/…/chainform-….sock|grpc|CERT` (or `1|6|tcp|127.0.0.1:PORT|grpc|CERT`), CERT
 * being the server certificate's DER in standard base64 without `=` padding (go-plugin decodes it with
 * RawStdEncoding); empty without mTLS.
 * @example
 * handshakeLine({ network: "unix", path: "/tmp/chainform-7.sock" }, certificate.der) // "1|6|unix|/tmp/chainform-7.sock|grpc|MIIB..."
 * handshakeLine({ network: "tcp", port: 41023 }, certificate.der) // "1|6|tcp|127.0.0.1:41023|grpc|MIIB..."
 */
export function handshakeLine(address: PluginAddress, certificateDer?: Uint8Array): string {
  const cert = certificateDer ? Buffer.from(certificateDer).toString("base64").replace(/=+$/, "") : "";
  const where = address.network === "unix" ? address.path : `127.0.0.1:${address.port}`;
  return [CORE_PROTOCOL_VERSION, PLUGIN_PROTOCOL_VERSION, address.network, where, "grpc", cert].join("|");
}
