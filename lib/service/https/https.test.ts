import { X509Certificate } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateSelfSignedCertificate } from "../../certificates/self-signed";
import {
  baseUrlFor,
  certificateNames,
  checkBind,
  checkPublicUrl,
  givenCertificate,
  isWildcardHost,
  selfSignedCertificate,
  ServeConfigError,
  TLS_CERTIFICATE_FILE,
  TLS_KEY_FILE,
} from "./index";

describe("checkBind", () => {
  test.each(["127.0.0.1", "127.0.0.2", "::1", "localhost"])("allows plain HTTP on loopback %s", (host) => {
    expect(() => checkBind(host, false, false)).not.toThrow();
  });

  test.each(["0.0.0.0", "::", "10.0.0.7", "build-box"])("refuses plain HTTP on %s in one line naming the fixes", (host) => {
    const error = (() => {
      try {
        checkBind(host, false, false);
      } catch (e) {
        return e;
      }
    })() as Error;
    expect(error).toBeInstanceOf(ServeConfigError);
    expect(error.message).toBe(
      `refusing plain HTTP on ${host}: keys and Admin RPC URLs would cross the network in clear text; add --tls (self-signed), --tls-cert FILE --tls-key FILE, or --insecure-http to accept that`,
    );
  });

  test("allows TLS anywhere, and plain HTTP off loopback only when told", () => {
    expect(() => checkBind("0.0.0.0", true, false)).not.toThrow();
    expect(() => checkBind("0.0.0.0", false, true)).not.toThrow();
  });
});

describe("baseUrlFor", () => {
  test("names the machine for a wildcard bind, never 0.0.0.0 or ::", () => {
    expect(baseUrlFor({ host: "0.0.0.0", port: 8787, tls: true, hostname: "build-box" })).toBe("https://build-box:8787");
    expect(baseUrlFor({ host: "::", port: 8787, tls: true, hostname: "build-box" })).toBe("https://build-box:8787");
    expect(isWildcardHost("0:0:0:0:0:0:0:0")).toBe(true);
  });

  test("uses localhost for loopback over TLS, the address otherwise, and --public-url when given", () => {
    expect(baseUrlFor({ host: "127.0.0.1", port: 1, tls: true })).toBe("https://localhost:1");
    expect(baseUrlFor({ host: "127.0.0.1", port: 1, tls: false })).toBe("http://127.0.0.1:1");
    expect(baseUrlFor({ host: "fd00::7", port: 1, tls: true })).toBe("https://[fd00::7]:1");
    expect(baseUrlFor({ host: "0.0.0.0", port: 1, tls: false, publicUrl: "https://chainform.example/" })).toBe("https://chainform.example");
  });

  test("refuses a public URL that is not one", () => {
    expect(() => checkPublicUrl("chainform.example")).toThrow(/--public-url "chainform.example" is not a URL/);
    expect(() => checkPublicUrl("https://u:p@chainform.example")).toThrow(/without credentials/);
  });
});

describe("certificateNames", () => {
  test("a wildcard bind: localhost, the host name, loopback and every interface address", () => {
    const names = certificateNames({ host: "0.0.0.0", hostname: "Build-Box" });
    expect(names.dnsNames).toEqual(["localhost", "build-box"]);
    expect(names.ipAddresses).toEqual(expect.arrayContaining(["127.0.0.1", "::1"]));
  });

  test("a specific address and the public URL's host", () => {
    const names = certificateNames({ host: "10.0.0.7", hostname: "box", publicUrl: "https://chainform.example:8443" });
    expect(names).toEqual({ dnsNames: ["localhost", "box", "chainform.example"], ipAddresses: ["127.0.0.1", "::1", "10.0.0.7"] });
  });
});

describe("selfSignedCertificate", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "chainform-tls-test-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  test("is kept in the data dir and reused while it names everything, replaced when it does not", () => {
    const names = { dnsNames: ["localhost", "box"], ipAddresses: ["127.0.0.1", "10.0.0.7"] };
    const first = selfSignedCertificate(names, dir);
    expect(first.caFile).toBe(join(dir, TLS_CERTIFICATE_FILE));
    expect(readFileSync(first.caFile!, "utf8")).toBe(first.certPem);
    expect(statSync(join(dir, TLS_KEY_FILE)).mode & 0o777).toBe(0o600);
    expect(new X509Certificate(first.certPem).checkIP("10.0.0.7")).toBe("10.0.0.7");

    expect(selfSignedCertificate(names, dir).certPem).toBe(first.certPem);
    const moved = selfSignedCertificate({ ...names, ipAddresses: ["127.0.0.1", "10.0.0.8"] }, dir);
    expect(moved.certPem).not.toBe(first.certPem);
    expect(new X509Certificate(moved.certPem).checkIP("10.0.0.8")).toBe("10.0.0.8");
  });

  test("without a data dir, writes the certificate (not the key) to a file clients can trust", () => {
    const certificate = selfSignedCertificate({ dnsNames: ["localhost"], ipAddresses: [] }, null);
    expect(readFileSync(certificate.caFile!, "utf8")).toBe(certificate.certPem);
    expect(certificate.temporaryDir).toBe(join(certificate.caFile!, ".."));
    rmSync(certificate.temporaryDir!, { recursive: true, force: true });
  });
});

describe("givenCertificate", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "chainform-tls-given-"));
    const a = generateSelfSignedCertificate({ commonName: "a", organization: "t", dnsNames: ["a"] });
    const b = generateSelfSignedCertificate({ commonName: "b", organization: "t", dnsNames: ["b"] });
    writeFileSync(join(dir, "a.pem"), a.certPem);
    writeFileSync(join(dir, "a.key"), a.keyPem);
    writeFileSync(join(dir, "b.key"), b.keyPem);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test("reads a matching pair", () => {
    expect(givenCertificate(join(dir, "a.pem"), join(dir, "a.key"))).toMatchObject({ caFile: undefined });
  });

  test("names the file at fault", () => {
    expect(() => givenCertificate(join(dir, "nope.pem"), join(dir, "a.key"))).toThrow(
      /^--tls-cert .*nope\.pem: cannot read it \(ENOENT\)$/,
    );
    expect(() => givenCertificate(join(dir, "a.key"), join(dir, "a.key"))).toThrow(/a\.key: not a PEM certificate/);
    expect(() => givenCertificate(join(dir, "a.pem"), join(dir, "a.pem"))).toThrow(/--tls-key .*a\.pem: not a PEM private key/);
    expect(() => givenCertificate(join(dir, "a.pem"), join(dir, "b.key"))).toThrow(/b\.key is not the key of the certificate/);
  });
});
