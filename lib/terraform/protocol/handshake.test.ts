import { candidatePorts, handshakeLine, MAGIC_COOKIE_VALUE, readHandshakeEnvironment } from "./handshake";

describe("handshake line", () => {
  test("has go-plugin's six fields and the certificate in unpadded standard base64", () => {
    const der = Uint8Array.of(0xfb, 0xff, 0xfe, 0x01); // base64 "+//+AQ==": uses + and / and needs padding
    expect(handshakeLine({ network: "tcp", port: 41023 }, der)).toBe("1|6|tcp|127.0.0.1:41023|grpc|+//+AQ");
    expect(handshakeLine({ network: "unix", path: "/tmp/chainform-7-ab.sock" }, der)).toBe("1|6|unix|/tmp/chainform-7-ab.sock|grpc|+//+AQ");
  });

  test("leaves the certificate field empty without mTLS", () => {
    expect(handshakeLine({ network: "tcp", port: 10000 })).toBe("1|6|tcp|127.0.0.1:10000|grpc|");
  });
});

describe("readHandshakeEnvironment", () => {
  test("returns null without Terraform's magic cookie", () => {
    expect(readHandshakeEnvironment({})).toBeNull();
    expect(readHandshakeEnvironment({ TF_PLUGIN_MAGIC_COOKIE: "wrong" })).toBeNull();
  });

  test("reads the client certificate, port range and protocol versions", () => {
    const env = readHandshakeEnvironment({
      TF_PLUGIN_MAGIC_COOKIE: MAGIC_COOKIE_VALUE,
      PLUGIN_CLIENT_CERT: "-----BEGIN CERTIFICATE-----\n...",
      PLUGIN_MIN_PORT: "10000",
      PLUGIN_MAX_PORT: "25000",
      PLUGIN_PROTOCOL_VERSIONS: "5,6",
    });
    expect(env).toEqual({
      clientCertPem: "-----BEGIN CERTIFICATE-----\n...",
      portRange: [10000, 25000],
      protocolVersions: [5, 6],
    });
  });

  test("reads where go-plugin puts Unix sockets", () => {
    const env = readHandshakeEnvironment({ TF_PLUGIN_MAGIC_COOKIE: MAGIC_COOKIE_VALUE, PLUGIN_UNIX_SOCKET_DIR: "/run/plugins" });
    expect(env?.unixSocketDir).toBe("/run/plugins");
    expect(readHandshakeEnvironment({ TF_PLUGIN_MAGIC_COOKIE: MAGIC_COOKIE_VALUE, PLUGIN_UNIX_SOCKET_DIR: " " })).not.toHaveProperty(
      "unixSocketDir",
    );
  });
});

describe("candidatePorts", () => {
  test("lets the OS choose without a range", () => {
    expect([...candidatePorts([0, 0])]).toEqual([0]);
  });

  test("visits every port of the range once, from a random start", () => {
    expect([...candidatePorts([10, 14], () => 0.5)]).toEqual([12, 13, 14, 10, 11]);
  });
});
