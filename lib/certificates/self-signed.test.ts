import "reflect-metadata";
import { X509Certificate } from "node:crypto";
import type { AddressInfo } from "node:net";
import tls from "node:tls";
import * as x509 from "@peculiar/x509";
import { generateSelfSignedCertificate, generateServerCertificate, ipBytes, pemToDer } from "./self-signed";

describe("generateServerCertificate", () => {
  const certificate = generateServerCertificate(new Date("2025-01-01T00:00:00Z"));
  const parsed = new X509Certificate(certificate.certPem);

  test("is a self-signed ECDSA P-256 certificate whose signature verifies", () => {
    expect(parsed.publicKey.asymmetricKeyDetails?.namedCurve).toBe("prime256v1");
    expect(parsed.verify(parsed.publicKey)).toBe(true);
    expect(parsed.checkIssued(parsed)).toBe(true);
    expect(Buffer.from(parsed.raw)).toEqual(Buffer.from(certificate.der));
  });

  test("its PEM reads back to its DER, byte for byte (what the pinned client certificate is compared by)", () => {
    expect(pemToDer(certificate.certPem).equals(Buffer.from(certificate.der))).toBe(true);
    expect(pemToDer(`junk before\n${certificate.certPem.replace(/\n/g, "\r\n")}`).equals(Buffer.from(certificate.der))).toBe(true);
    expect(() => pemToDer("-----BEGIN CERTIFICATE-----\nAAAA\n")).toThrow("not a PEM certificate");
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

describe("generateSelfSignedCertificate", () => {
  const certificate = generateSelfSignedCertificate({
    commonName: "build-box",
    organization: "chainform",
    dnsNames: ["build-box", "localhost"],
    ipAddresses: ["10.1.2.3", "127.0.0.1", "::1", "fe80::1%eth0", "::ffff:192.168.0.9"],
    now: new Date("2026-01-01T00:00:00Z"),
  });
  const parsed = new X509Certificate(certificate.certPem);

  test("carries every name and address clients use in its subjectAltName", () => {
    expect(parsed.subjectAltName).toBe(
      "DNS:build-box, DNS:localhost, IP Address:10.1.2.3, IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1, IP Address:FE80:0:0:0:0:0:0:1, IP Address:0:0:0:0:0:FFFF:C0A8:9",
    );
    expect(parsed.checkHost("build-box")).toBe("build-box");
    expect(parsed.checkIP("10.1.2.3")).toBe("10.1.2.3");
    expect(parsed.checkIP("10.1.2.4")).toBeUndefined();
    expect(parsed.subject).toContain("CN=build-box");
  });

  test("is its own CA, valid one year by default, and verifies", () => {
    expect(parsed.ca).toBe(true);
    expect(parsed.verify(parsed.publicKey)).toBe(true);
    expect(new Date(parsed.validTo).toISOString()).toBe("2027-01-01T00:00:00.000Z");
  });
});

describe("generateSelfSignedCertificate with an issuer", () => {
  test("is signed by the CA, names the CA as its issuer, and chains to it in a TLS handshake", async () => {
    const authority = { commonName: "test CA", organization: "chainform tests" };
    const ca = generateSelfSignedCertificate({ ...authority, dnsNames: ["ca.invalid"] });
    const host = "virtual.mainnet.eu.rpc.tenderly.co";
    const leaf = generateSelfSignedCertificate({
      ...authority,
      commonName: host,
      dnsNames: [host],
      issuer: { ...authority, keyPem: ca.keyPem },
    });
    const parsed = new X509Certificate(leaf.certPem);
    const caParsed = new X509Certificate(ca.certPem);
    expect(parsed.checkIssued(caParsed)).toBe(true);
    expect(parsed.verify(caParsed.publicKey)).toBe(true);
    expect(parsed.verify(parsed.publicKey)).toBe(false);
    const server = tls.createServer({ key: leaf.keyPem, cert: leaf.certPem }, (socket) => socket.end());
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const authorized = await new Promise<boolean>((resolve, reject) => {
        const socket = tls.connect({ host: "127.0.0.1", port, servername: host, ca: [ca.certPem] }, () => {
          resolve(socket.authorized);
          socket.destroy();
        });
        socket.on("error", reject);
      });
      expect(authorized).toBe(true);
    } finally {
      server.close();
    }
  });
});

describe("ipBytes", () => {
  test.each([
    ["192.168.0.1", [192, 168, 0, 1]],
    ["::1", [...Array(15).fill(0), 1]],
    ["::", Array(16).fill(0)],
    ["2001:db8::8:800:200c:417a", [0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 8, 8, 0, 0x20, 0x0c, 0x41, 0x7a]],
    ["::ffff:10.0.0.1", [...Array(10).fill(0), 0xff, 0xff, 10, 0, 0, 1]],
  ])("%s", (address, bytes) => {
    expect([...ipBytes(address)]).toEqual(bytes);
  });

  test("refuses what is not an address", () => {
    expect(() => ipBytes("build-box")).toThrow(/not an IP address/);
  });
});
