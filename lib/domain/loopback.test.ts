import { isLoopbackHost } from "./loopback";

describe("isLoopbackHost", () => {
  it.each([
    "127.0.0.1",
    "127.255.0.9",
    "localhost",
    "LOCALHOST",
    "api.localhost",
    "[::1]",
    "::1",
    "[::ffff:127.0.0.1]",
    "[0:0:0:0:0:0:0:1]",
  ])("accepts %s", (host) => expect(isLoopbackHost(host)).toBe(true));
  it.each(["128.0.0.1", "10.0.0.1", "example.com", "localhost.example.com", "[::2]", "[::ffff:10.0.0.1]", "0.0.0.0", "127.0.0.1.nip.io"])(
    "refuses %s",
    (host) => expect(isLoopbackHost(host)).toBe(false),
  );
});
