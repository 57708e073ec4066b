/**
 * Self-signed X.509 certificates (ECDSA P-256), made with nothing but node:crypto and a few DER encoders. Two users:
 * the provider's go-plugin handshake ({@link generateServerCertificate}: a fresh certificate per process, shaped
 * like go-plugin's own, because Terraform pins it from the handshake line and checks the name "localhost"), and
 * `chainform serve --tls` ({@link generateSelfSignedCertificate} with the names and addresses clients use).
 */
import { createPrivateKey, generateKeyPairSync, randomBytes, sign } from "node:crypto";
import { isIPv4, isIPv6 } from "node:net";
import * as der from "./der";

/** A certificate and its private key. */
export interface ServerCertificate {
  /** DER bytes of the certificate (what the handshake line carries, base64-encoded). */
  readonly der: Uint8Array;
  /** The certificate, PEM-encoded. */
  readonly certPem: string;
  /** The PKCS#8 private key, PEM-encoded. */
  readonly keyPem: string;
}

/** What a self-signed certificate says about itself. */
export interface CertificateOptions {
  /** Subject common name. */
  readonly commonName: string;
  /** Subject organization. */
  readonly organization: string;
  /** DNS names of the subjectAltName: every host name clients may use. */
  readonly dnsNames: readonly string[];
  /** IP addresses (v4 or v6) of the subjectAltName: every address clients may use. @default [] */
  readonly ipAddresses?: readonly string[];
  /** Validity from `now`. @default one year */
  readonly validForMs?: number;
  /** Validity starts this long before `now`, for clock skew. @default 30 s */
  readonly backdateMs?: number;
  /** @default new Date() */
  readonly now?: Date;
  /**
   * The CA that signs it (a certificate this module made, its subject and key), in place of its own key: for
   * certificates issued on demand under one trusted CA (`chainform exec`, a host name known only at its handshake).
   */
  readonly issuer?: { readonly commonName: string; readonly organization: string; readonly keyPem: string };
}

const ECDSA_WITH_SHA256 = der.sequence(der.oid("1.2.840.10045.4.3.2"));
const YEAR_MS = 365 * 24 * 3_600_000;
// go-plugin: NotBefore 30 s ago (clock skew), NotAfter 262980 h (30 years) later.
const PLUGIN_VALIDITY_MS = 262_980 * 3_600_000;

/**
 * The plugin's server certificate for go-plugin's automatic mTLS: CN and SAN localhost, organization HashiCorp,
 * valid 30 years (a few milliseconds: one P-256 key pair and one signature).
 * @example
 * const { certPem, keyPem, der } = generateServerCertificate();
 */
export function generateServerCertificate(now = new Date()): ServerCertificate {
  return generateSelfSignedCertificate({
    commonName: "localhost",
    organization: "HashiCorp",
    dnsNames: ["localhost"],
    validForMs: PLUGIN_VALIDITY_MS,
    now,
  });
}

/**
 * A self-signed certificate that is its own CA (so a client can trust it as a CA file), for server and client
 * authentication, valid for the given names and addresses.
 * @example
 * const certificate = generateSelfSignedCertificate({
 *   commonName: "build-box", organization: "chainform", dnsNames: ["build-box", "localhost"], ipAddresses: ["10.0.0.7"],
 * });
 */
export function generateSelfSignedCertificate(options: CertificateOptions): ServerCertificate {
  const now = options.now ?? new Date();
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const name = distinguishedName(options);
  const issuer = options.issuer;
  const serial = randomBytes(16);
  serial[0]! &= 0x7f; // a positive serial number
  const tbs = der.sequence(
    der.explicit(0, der.unsignedInteger(Uint8Array.of(2))), // X.509 v3
    der.unsignedInteger(serial),
    ECDSA_WITH_SHA256,
    issuer ? distinguishedName(issuer) : name,
    der.sequence(
      der.time(new Date(now.getTime() - (options.backdateMs ?? 30_000))),
      der.time(new Date(now.getTime() + (options.validForMs ?? YEAR_MS))),
    ),
    name,
    publicKey.export({ type: "spki", format: "der" }),
    der.explicit(3, der.sequence(...extensions(options.dnsNames, options.ipAddresses ?? []))),
  );
  // node signs EC keys with a DER-encoded ECDSA-Sig-Value by default, which is what X.509 wants.
  const signature = sign("sha256", tbs, issuer ? createPrivateKey(issuer.keyPem) : privateKey);
  const certificate = der.sequence(tbs, ECDSA_WITH_SHA256, der.bitString(signature));
  return {
    der: certificate,
    certPem: toPem("CERTIFICATE", certificate),
    keyPem: privateKey.export({ type: "pkcs8", format: "pem" }) as string,
  };
}

/** The subject (or issuer) name: organization and common name, the same bytes for a CA and what it signs. */
function distinguishedName(options: { readonly commonName: string; readonly organization: string }): Uint8Array {
  return der.sequence(
    der.set(der.sequence(der.oid("2.5.4.10"), der.utf8String(options.organization))),
    der.set(der.sequence(der.oid("2.5.4.3"), der.utf8String(options.commonName))),
  );
}

function extensions(dnsNames: readonly string[], ipAddresses: readonly string[]): Uint8Array[] {
  const extension = (id: string, critical: boolean, value: Uint8Array) =>
    der.sequence(der.oid(id), ...(critical ? [der.boolean(true)] : []), der.octetString(value));
  const altNames = [
    // dNSName: [2] IMPLICIT IA5String; iPAddress: [7] IMPLICIT OCTET STRING (4 or 16 bytes)
    ...dnsNames.map((dns) => der.tlv(0x82, Buffer.from(dns, "ascii"))),
    ...ipAddresses.map((ip) => der.tlv(0x87, ipBytes(ip))),
  ];
  return [
    // keyUsage: digitalSignature, keyEncipherment, keyAgreement, keyCertSign (bits 0, 2, 4, 5 -> 0b10101100, 2 unused)
    extension("2.5.29.15", true, der.bitString(Uint8Array.of(0xac), 2)),
    // extKeyUsage: serverAuth, clientAuth
    extension("2.5.29.37", false, der.sequence(der.oid("1.3.6.1.5.5.7.3.1"), der.oid("1.3.6.1.5.5.7.3.2"))),
    // basicConstraints: CA
    extension("2.5.29.19", true, der.sequence(der.boolean(true))),
    extension("2.5.29.17", false, der.sequence(...altNames)),
  ];
}

/** The network-order bytes of an IPv4 or IPv6 address (IPv6 zone ids are dropped). */
export function ipBytes(address: string): Uint8Array {
  const ip = address.replace(/%.*$/, "");
  if (isIPv4(ip)) return Uint8Array.from(ip.split(".").map(Number));
  if (!isIPv6(ip)) throw new Error(`not an IP address: ${JSON.stringify(address)}`);
  // An embedded IPv4 tail (::ffff:1.2.3.4) becomes two groups.
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(ip);
  const hex = tail
    ? ip.slice(0, -tail[1]!.length) +
      ipBytes(tail[1]!).reduce((text, byte, i) => text + byte.toString(16).padStart(2, "0") + (i === 1 ? ":" : ""), "")
    : ip;
  const [head, rest] = hex.split("::") as [string, string | undefined];
  const groups = (part: string | undefined) => (part ? part.split(":") : []);
  const missing = 8 - groups(head).length - groups(rest).length;
  const all = rest === undefined ? groups(head) : [...groups(head), ...Array<string>(missing).fill("0"), ...groups(rest)];
  return Uint8Array.from(all.flatMap((group) => [parseInt(group, 16) >> 8, parseInt(group, 16) & 0xff]));
}

/** The DER bytes of the first PEM block of `pem` (a certificate): what a TLS peer presents, byte for byte. */
export function pemToDer(pem: string): Buffer {
  const match = /-----BEGIN ([A-Z ]+)-----([^-]*)-----END \1-----/.exec(pem);
  if (!match) throw new Error("not a PEM certificate");
  return Buffer.from(match[2]!.replace(/\s+/g, ""), "base64");
}

function toPem(label: string, bytes: Uint8Array): string {
  const base64 = Buffer.from(bytes).toString("base64");
  return `-----BEGIN ${label}-----\n${base64.replace(/.{1,64}/g, "$&\n")}-----END ${label}-----\n`;
}
