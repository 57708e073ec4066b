import "reflect-metadata";
import { X509Certificate } from "node:crypto";
import * as x509 from "@peculiar/x509";
import { generateServerCertificate } from "./certificate";

describe("generateServerCertificate", () => {
  const certificate = generateServerCertificate(new Date("2025-01-01T00:00:00Z"));
  const parsed = new X509Certificate(certificate.certPem);

  test("is a self-signed ECDSA P-256 certificate whose signature verifies", () => {
    expect(parsed.publicKey.asymmetricKeyDetails?.namedCurve).toBe("prime256v1");
    expect(parsed.verify(parsed.publicKey)).toBe(true);
    expect(parsed.checkIssued(parsed)).toBe(true);
    expect(Buffer.from(parsed.raw)).toEqual(Buffer.from(certificate.der));
  });

  test("is valid for localhost as go-plugin's client checks it", () => {
    expect(parsed.checkHost("localhost")).toBe("localhost");
    expect(parsed.subjectAltName).toBe("DNS:localhost");
    expect(parsed.subject).toContain("CN=localhost");
    expect(parsed.ca).toBe(true);
  });

  test("carries serverAuth and clientAuth, and the validity go-plugin uses", () => {
    const cert = new x509.X509Certificate(certificate.der);
    const eku = cert.getExtension(x509.ExtendedKeyUsageExtension);
    expect(eku?.usages).toEqual([x509.ExtendedKeyUsage.serverAuth, x509.ExtendedKeyUsage.clientAuth]);
    const usage = cert.getExtension(x509.KeyUsagesExtension);
    expect(usage?.usages).toBe(
      x509.KeyUsageFlags.digitalSignature |
        x509.KeyUsageFlags.keyEncipherment |
        x509.KeyUsageFlags.keyAgreement |
        x509.KeyUsageFlags.keyCertSign,
    );
    expect(cert.notBefore.toISOString()).toBe("2024-12-31T23:59:30.000Z");
    // 30 years later, past 2049: encoded as GeneralizedTime
    expect(cert.notAfter.getUTCFullYear()).toBe(2055);
  });

  test("each process gets its own key", () => {
    expect(generateServerCertificate().keyPem).not.toBe(certificate.keyPem);
    expect(certificate.keyPem).toMatch(/^-----BEGIN PRIVATE KEY-----\n/);
  });
});
