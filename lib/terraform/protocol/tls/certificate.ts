/**
 * The plugin's server certificate for go-plugin's automatic mTLS: a fresh self-signed ECDSA P-256 certificate per
 * process, shaped like the one go-plugin makes (CN and SAN localhost, CA, serverAuth and clientAuth), because
 * Terraform pins it from the handshake line and verifies the server name "localhost".
 */
import { generateKeyPairSync, randomBytes, sign } from "node:crypto";
import * as der from "./der";

/** A certificate and its private key. */
export interface ServerCertificate {
  /** DER bytes of the certificate (what the handshake line carries, base64-encoded). */
  readonly der: Uint8Array;
  /** The certificate, PEM-encoded (for grpc-js). */
  readonly certPem: string;
  /** The PKCS#8 private key, PEM-encoded (for grpc-js). */
  readonly keyPem: string;
}

const ECDSA_WITH_SHA256 = der.sequence(der.oid("1.2.840.10045.4.3.2"));
// go-plugin: NotBefore 30 s ago (clock skew), NotAfter 262980 h (30 years) later.
const VALIDITY_BEFORE_MS = 30_000;
const VALIDITY_AFTER_MS = 262_980 * 3_600_000;

/**
 * Generates the certificate (a few milliseconds: one P-256 key pair and one signature).
 * @example
 * const { certPem, keyPem, der } = generateServerCertificate();
 */
export function generateServerCertificate(now = new Date()): ServerCertificate {
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const name = der.sequence(
    der.set(der.sequence(der.oid("2.5.4.10"), der.utf8String("HashiCorp"))),
    der.set(der.sequence(der.oid("2.5.4.3"), der.utf8String("localhost"))),
  );
  const serial = randomBytes(16);
  serial[0]! &= 0x7f; // a positive serial number
  const tbs = der.sequence(
    der.explicit(0, der.unsignedInteger(Uint8Array.of(2))), // X.509 v3
    der.unsignedInteger(serial),
    ECDSA_WITH_SHA256,
    name,
    der.sequence(
      der.time(new Date(now.getTime() - VALIDITY_BEFORE_MS)),
      der.time(new Date(now.getTime() + VALIDITY_AFTER_MS)),
    ),
    name,
    publicKey.export({ type: "spki", format: "der" }),
    der.explicit(3, der.sequence(...extensions())),
  );
  // node signs EC keys with a DER-encoded ECDSA-Sig-Value by default, which is what X.509 wants.
  const signature = sign("sha256", tbs, privateKey);
  const certificate = der.sequence(tbs, ECDSA_WITH_SHA256, der.bitString(signature));
  return {
    der: certificate,
    certPem: toPem("CERTIFICATE", certificate),
    keyPem: privateKey.export({ type: "pkcs8", format: "pem" }) as string,
  };
}

function extensions(): Uint8Array[] {
  const extension = (id: string, critical: boolean, value: Uint8Array) =>
    der.sequence(der.oid(id), ...(critical ? [der.boolean(true)] : []), der.octetString(value));
  return [
    // keyUsage: digitalSignature, keyEncipherment, keyAgreement, keyCertSign (bits 0, 2, 4, 5 -> 0b10101100, 2 unused)
    extension("2.5.29.15", true, der.bitString(Uint8Array.of(0xac), 2)),
    // extKeyUsage: serverAuth, clientAuth
    extension("2.5.29.37", false, der.sequence(der.oid("1.3.6.1.5.5.7.3.1"), der.oid("1.3.6.1.5.5.7.3.2"))),
    // basicConstraints: CA
    extension("2.5.29.19", true, der.sequence(der.boolean(true))),
    // subjectAltName: dNSName localhost ([2] IMPLICIT IA5String)
    extension("2.5.29.17", false, der.sequence(der.tlv(0x82, Buffer.from("localhost", "ascii")))),
  ];
}

function toPem(label: string, bytes: Uint8Array): string {
  const base64 = Buffer.from(bytes).toString("base64");
  return `-----BEGIN ${label}-----\n${base64.replace(/.{1,64}/g, "$&\n")}-----END ${label}-----\n`;
}
