/**
 * How `chainform serve` listens on a network (docs/serving-on-a-network.md): which binds need TLS, the base URL
 * clients use, and the self-signed certificate `--tls` makes. Loopback may be plain HTTP; anything else carries
 * access keys, bearer tokens and Admin RPC URLs over a network, so it needs TLS unless the operator says otherwise
 * out loud (`--insecure-http`, e.g. behind a TLS-terminating proxy).
 */
import { X509Certificate, createPrivateKey } from "node:crypto";
import { chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { isIP } from "node:net";
import { hostname as machineHostname, networkInterfaces, tmpdir } from "node:os";
import { join } from "node:path";
import { isLoopbackHost } from "../../domain/loopback";
import { generateSelfSignedCertificate, ipBytes } from "../../certificates/self-signed";

/** File name of the self-signed certificate in the data dir: the CA file clients trust. */
export const TLS_CERTIFICATE_FILE = "tls-cert.pem";
/** File name of its private key in the data dir (mode 0600). */
export const TLS_KEY_FILE = "tls-key.pem";

/** A bind or TLS setting the service refuses; the message is one line saying what to do. */
export class ServeConfigError extends Error {
  override readonly name = "ServeConfigError";
}

/** true for a wildcard address (0.0.0.0, ::): every interface. */
export function isWildcardHost(host: string): boolean {
  return isIP(host) !== 0 && ipBytes(host).every((byte) => byte === 0);
}

/**
 * Refuses plain HTTP off loopback unless `insecureHttp` says so.
 * @throws ServeConfigError naming the host and the flags that fix it
 */
export function checkBind(host: string, tls: boolean, insecureHttp: boolean): void {
  if (tls || insecureHttp || isLoopbackHost(host)) return;
  throw new ServeConfigError(
    `refusing plain HTTP on ${host}: keys and Admin RPC URLs would cross the network in clear text; add --tls (self-signed), --tls-cert FILE --tls-key FILE, or --insecure-http to accept that`,
  );
}

/** The warning printed on every start with plain HTTP off loopback. */
export function insecureHttpWarning(host: string): string {
  return `WARNING: serving plain HTTP on ${host} (--insecure-http): access keys, bearer tokens and Admin RPC URLs cross the network in clear text. Use it only behind a TLS-terminating proxy, with --public-url https://...`;
}

/**
 * The base URL clients use: `publicUrl` when given; `localhost` for loopback over TLS (the name the certificate
 * carries); the machine's host name for a wildcard bind (never 0.0.0.0 or ::); otherwise the bound address.
 */
export function baseUrlFor(options: { host: string; port: number; tls: boolean; publicUrl?: string; hostname?: string }): string {
  if (options.publicUrl) return checkPublicUrl(options.publicUrl);
  const scheme = options.tls ? "https" : "http";
  let host = options.host;
  if (options.tls && isLoopbackHost(host)) host = "localhost";
  else if (isWildcardHost(host)) host = options.hostname ?? machineHostname();
  return `${scheme}://${host.includes(":") ? `[${host}]` : host}:${options.port}`;
}

/** Checks `--public-url` and returns it without a trailing slash. */
export function checkPublicUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ServeConfigError(`--public-url ${JSON.stringify(text)} is not a URL: expected e.g. https://chainform.internal:8787`);
  }
  if ((url.protocol !== "http:" && url.protocol !== "https:") || url.username || url.password || url.search || url.hash) {
    throw new ServeConfigError(
      `--public-url ${JSON.stringify(text)} must be an http:// or https:// URL without credentials, query or fragment`,
    );
  }
  return url.href.replace(/\/+$/, "");
}

/** The names and addresses a self-signed certificate must carry for a bind. */
export interface CertificateNames {
  readonly dnsNames: string[];
  readonly ipAddresses: string[];
}

/**
 * What clients may call the service: localhost and the machine's host name, the loopback addresses, the bound
 * address (every interface's for a wildcard bind), and the host of `publicUrl`.
 */
export function certificateNames(options: { host: string; publicUrl?: string; hostname?: string }): CertificateNames {
  const dns = new Set(["localhost", (options.hostname ?? machineHostname()).toLowerCase()]);
  const ips = new Set(["127.0.0.1", "::1"]);
  const add = (name: string) => (isIP(name) ? ips.add(name) : dns.add(name.toLowerCase()));
  if (isWildcardHost(options.host)) {
    for (const addresses of Object.values(networkInterfaces())) {
      for (const address of addresses ?? []) if (!address.address.startsWith("fe80:")) ips.add(address.address);
    }
  } else add(options.host);
  if (options.publicUrl) add(new URL(options.publicUrl).hostname.replace(/^\[(.*)\]$/, "$1"));
  return { dnsNames: [...dns], ipAddresses: [...ips] };
}

/** A certificate the service serves with. */
export interface ServiceCertificate {
  readonly certPem: string;
  readonly keyPem: string;
  /** The certificate's file, for clients to trust (CHAINFORM_CA_FILE); self-signed certificates only. */
  readonly caFile: string | undefined;
  /** A temporary directory holding `caFile` (no data dir), to remove when the service stops. */
  readonly temporaryDir?: string;
}

const DAY_MS = 24 * 3_600_000;

/**
 * The `--tls` certificate: with a data dir, the one kept there when it still names everything `names` lists and
 * is valid for another day (so clients keep trusting the same file across restarts); otherwise a fresh one, saved
 * there (key mode 0600). Without a data dir the certificate alone goes to a temporary directory, for clients to
 * trust (`temporaryDir`: the caller removes it when the service stops).
 */
export function selfSignedCertificate(names: CertificateNames, dataDir: string | null): ServiceCertificate {
  const certFile = dataDir === null ? undefined : join(dataDir, TLS_CERTIFICATE_FILE);
  const keyFile = dataDir === null ? undefined : join(dataDir, TLS_KEY_FILE);
  if (certFile && keyFile && existsSync(certFile) && existsSync(keyFile)) {
    const certPem = readFileSync(certFile, "utf8");
    const keyPem = readFileSync(keyFile, "utf8");
    if (stillFits(certPem, keyPem, names)) return { certPem, keyPem, caFile: certFile };
  }
  const fresh = generateSelfSignedCertificate({
    commonName: names.dnsNames[1] ?? "localhost",
    organization: "chainform local service",
    ...names,
  });
  if (certFile && keyFile) {
    writeFileSync(keyFile, fresh.keyPem, { mode: 0o600 });
    chmodSync(keyFile, 0o600);
    writeFileSync(certFile, fresh.certPem);
    return { certPem: fresh.certPem, keyPem: fresh.keyPem, caFile: certFile };
  }
  const temporaryDir = mkdtempSync(join(tmpdir(), "chainform-tls-"));
  const caFile = join(temporaryDir, TLS_CERTIFICATE_FILE);
  writeFileSync(caFile, fresh.certPem);
  return { certPem: fresh.certPem, keyPem: fresh.keyPem, caFile, temporaryDir };
}

function stillFits(certPem: string, keyPem: string, names: CertificateNames): boolean {
  try {
    const certificate = new X509Certificate(certPem);
    if (!certificate.checkPrivateKey(createPrivateKey(keyPem))) return false;
    if (Date.parse(certificate.validTo) < Date.now() + DAY_MS) return false;
    return (
      names.dnsNames.every((name) => certificate.checkHost(name, { wildcards: false }) !== undefined) &&
      names.ipAddresses.every((ip) => certificate.checkIP(ip) !== undefined)
    );
  } catch {
    return false;
  }
}

/**
 * Reads a certificate and key the user gives (`--tls-cert`, `--tls-key`) and checks that they belong together.
 * @throws ServeConfigError with one line naming the file at fault
 */
export function givenCertificate(certFile: string, keyFile: string): ServiceCertificate {
  const read = (file: string, flag: string) => {
    try {
      return readFileSync(file, "utf8");
    } catch (error) {
      throw new ServeConfigError(`${flag} ${file}: cannot read it (${(error as NodeJS.ErrnoException).code ?? "error"})`);
    }
  };
  const certPem = read(certFile, "--tls-cert");
  const keyPem = read(keyFile, "--tls-key");
  let certificate: X509Certificate;
  try {
    certificate = new X509Certificate(certPem);
  } catch {
    throw new ServeConfigError(`--tls-cert ${certFile}: not a PEM certificate`);
  }
  let matches: boolean;
  try {
    matches = certificate.checkPrivateKey(createPrivateKey(keyPem));
  } catch {
    throw new ServeConfigError(`--tls-key ${keyFile}: not a PEM private key`);
  }
  if (!matches) throw new ServeConfigError(`--tls-key ${keyFile} is not the key of the certificate in --tls-cert ${certFile}`);
  return { certPem, keyPem, caFile: undefined };
}
