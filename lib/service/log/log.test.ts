/** The log's scrubber: every shape of secret the service knows is replaced, the rest of the text kept. */
import { REDACTED, redactUrl, scrubSecrets } from "./index";

test.each([
  ["an Admin RPC URL", "POST /rpc/admin/Tlgk87HktJ-YEhTgUPRS?x=1", `POST /rpc/admin/${REDACTED}?x=1`],
  ["a sign-in token", "GET /dashboard/login?token=Ss7rSsj6fre1&next=/", `GET /dashboard/login?token=${REDACTED}&next=/`],
  ["an access key", "key cf_YRpSyvu8KUDa_1B7gK7YvGQD1jeW6EOQ rejected", `key ${REDACTED} rejected`],
  ["a JWT", "token eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl expired", `token ${REDACTED} expired`],
  ["a Bearer credential", "Authorization: Bearer abc.def-ghi", `Authorization: Bearer ${REDACTED}`],
  ["a Basic credential", "authorization: basic Y2ZfYWJjOg==", `authorization: basic ${REDACTED}`],
])("%s", (_name, text, scrubbed) => {
  expect(scrubSecrets(text)).toBe(scrubbed);
});

test("the given secrets (upstream RPC URLs with their API keys) wherever they appear", () => {
  const upstream = "https://eth.example/v2/s3cr3t-api-key";
  expect(scrubSecrets(`fetch ${upstream}/ failed`, [upstream])).toBe(`fetch ${REDACTED}/ failed`);
});

describe("every spelling of an Admin RPC URL or a sign-in token (a path is decoded before it is routed)", () => {
  const SECRET = "Tlgk87HktJ-YEhTgUPRS";
  test.each([
    ["percent-encoded access", `/rpc/%61dmin/${SECRET}`],
    ["percent-encoded first segment", `/%72pc/admin/${SECRET}`],
    ["upper case", `/RPC/ADMIN/${SECRET}`],
    ["upper-case escapes", `/%52PC/%41%44MIN/${SECRET}`],
    ["doubled slashes", `//rpc//admin//${SECRET}`],
    ["an encoded slash", `/rpc%2Fadmin%2f${SECRET}`],
    ["more segments after the secret", `/rpc/admin/${SECRET}/more/${SECRET}`],
    ["doubly encoded", `/rpc/%2561dmin/${SECRET}`],
    ["an encoded token name", `/dashboard/login?%74oken=${SECRET}`],
    ["an upper-case token name and an encoded =", `/dashboard/login?x=1&TOKEN%3D${SECRET}`],
    ["in a full URL in a message", `fetch http://127.0.0.1:8787/rpc/%41dmin/${SECRET}?x=1 failed`],
  ])("%s", (_name, text) => {
    const scrubbed = scrubSecrets(text);
    expect(scrubbed).not.toContain(SECRET);
    expect(scrubbed).toContain(REDACTED);
  });

  test("a path segment shaped as an Admin RPC secret is redacted wherever the hosted doors put it", () => {
    const secret = "wj3Nc4VUBGVSmdqcv6xepqOeDQX0dpSs_iTkBiac6fc";
    for (const text of [
      `/api/v1/vnet-type/${secret}`,
      `/api/v1/account/acme/project/demo/etherscan/verify/testnet/${secret}?module=contract`,
      `/account/acme/project/demo/fork/${secret}/verify`,
      `/api/v1/account/acme/project/demo/testnet/${secret}/contract/0x${"1".repeat(40)}/abi`,
    ]) {
      const redacted = redactUrl(text);
      expect(redacted).not.toContain(secret);
      expect(redacted).toBe(text.replace(secret, REDACTED));
    }
    // Ids, addresses, hashes and shorter or longer segments are not secrets' shape.
    for (const text of [
      `/api/v1/vnets/0b2f5a4e-1c3d-4e5f-8a9b-0c1d2e3f4a5b`,
      `/x/0x${"1".repeat(40)}`,
      `/x/${"a".repeat(44)}`,
      `/x/${"a".repeat(42)}`,
    ]) {
      expect(redactUrl(text)).toBe(text);
    }
  });

  test("prose naming the schemes is kept, a credential after them is not", () => {
    const message = "missing credentials: send X-Access-Key, Basic or Bearer";
    expect(scrubSecrets(message)).toBe(message);
    expect(scrubSecrets("Bearer orange")).toBe(`Bearer ${REDACTED}`);
  });

  test("a Public RPC URL and other paths are kept as they are", () => {
    for (const text of ["/rpc/public/0b2f5a4e-1c3d-4e5f-8a9b-0c1d2e3f4a5b", "/v1/supported-networks?x=1", "/rpcadmin/x"]) {
      expect(redactUrl(text)).toBe(text);
    }
  });
});
