import { startTestService, type TestService } from "../../../test/helpers/service";
import { call, expectErrorBody } from "../../../test/helpers/http";
import { NoChainEngine } from "../no-chain-engine";
import { readRpcBody } from "./body";

let service: TestService;
let adminPath: string;
let publicPath: string;
beforeAll(async () => {
  service = await startTestService({ createChainEngine: () => new NoChainEngine(), logger: false });
  const environment = (
    await call(service, "POST", "/public/v1/account/acme/project/demo/environments", {
      as: "alice",
      body: { display_name: "rpc", network_configs: [{ network_id: "1" }] },
    })
  ).body;
  const [admin, pub] = environment.active_instance.vnets[0].rpcs.map((r: { url: string }) => r.url.slice(service.baseUrl.length));
  adminPath = admin;
  publicPath = pub;
});
afterAll(() => service.close());

const rpc = (path: string, body: unknown, headers?: Record<string, string>) => call(service, "POST", path, { body, headers });

describe("RPC URLs", () => {
  test("need no access key; engine failures are JSON-RPC errors with HTTP 200, per request of a batch", async () => {
    const single = await rpc(publicPath, { jsonrpc: "2.0", id: 7, method: "eth_chainId" });
    expect(single.status).toBe(200);
    expect(single.body).toMatchObject({ jsonrpc: "2.0", id: 7, error: { code: -32000 } });
    expect(single.body.error.message).toContain("no chain engine");
    const batch = await rpc(adminPath, [
      { jsonrpc: "2.0", id: 1, method: "eth_blockNumber" },
      { jsonrpc: "2.0", id: "two", method: "eth_chainId", params: [] },
    ]);
    expect(batch.status).toBe(200);
    expect(batch.body.map((r: { id: unknown }) => r.id)).toEqual([1, "two"]);
  });

  test("a body that is not JSON gets -32700; one that is not a request -32600; any content type is read", async () => {
    expect((await rpc(publicPath, "{not json")).body).toEqual({
      jsonrpc: "2.0",
      id: null,
      error: { code: -32700, message: "Parse error: the body is not JSON" },
    });
    expect((await rpc(adminPath, { id: 1, method: "eth_chainId" })).body).toMatchObject({ id: 1, error: { code: -32600 } });
    expect((await rpc(adminPath, [])).body).toMatchObject({ id: null, error: { code: -32600 } });
    expect((await rpc(adminPath, "42")).body).toMatchObject({ error: { code: -32600 } });
    const text = await call(service, "POST", publicPath, { body: "{", headers: { "content-type": "text/plain" } });
    expect(text.body.error.code).toBe(-32700);
  });

  test("a batch answers -32600 for its invalid entries where they stand; an entry that is not an object refuses it whole", async () => {
    const { body } = await rpc(publicPath, [
      { jsonrpc: "1.0", id: 2, method: "x" },
      { jsonrpc: "2.0", id: 1, method: "eth_chainId" },
    ]);
    expect(body).toHaveLength(2);
    expect(body[0]).toEqual({ jsonrpc: "2.0", id: 2, error: { code: -32600, message: "Invalid request" } });
    expect(body[1]).toMatchObject({ id: 1, error: { code: -32000 } });
    const whole = await rpc(publicPath, [{ jsonrpc: "2.0", id: 1, method: "eth_chainId" }, 5]);
    expect(whole.body).toEqual({ jsonrpc: "2.0", id: null, error: { code: -32600, message: "Invalid request" } });
  });

  test("an unknown secret or vnet is 404 rid:vnet with the spec body, and the secret is never echoed", async () => {
    const secret = "A".repeat(43);
    const unknownAdmin = await rpc(`/rpc/admin/${secret}`, { jsonrpc: "2.0", id: 1, method: "eth_chainId" });
    expectErrorBody(unknownAdmin, 404, "resource_not_found");
    expect(unknownAdmin.body.error.data.rid).toBe("rid:vnet");
    expect(unknownAdmin.text).not.toContain(secret);
    const unknownVnet = await rpc("/rpc/public/00000000-0000-4000-8000-000000000000", { jsonrpc: "2.0", id: 1, method: "eth_chainId" });
    expectErrorBody(unknownVnet, 404, "resource_not_found");
    const getAdmin = await call(service, "GET", adminPath);
    expectErrorBody(getAdmin, 404, "resource_not_found");
    expect(getAdmin.text).not.toContain(adminPath.split("/").pop()!);
  });

  test("a body over 1 MB is the spec's 400 with the rate headers, and the connection stays open for the next call", async () => {
    const big = await rpc(publicPath, `[${'{"jsonrpc":"2.0","id":1,"method":"eth_chainId"},'.repeat(25_000)}1]`);
    expectErrorBody(big, 400, "bad_request");
    expect(big.body.error.message).toBe("request body larger than 1048576 bytes");
    expect(big.headers.get("x-svc-limit")).not.toBeNull();
    expect(big.headers.get("connection")).toBe("keep-alive");
  });

  test("the admin secret is 32 random bytes, base64url", () => {
    expect(adminPath).toMatch(/^\/rpc\/admin\/[A-Za-z0-9_-]{43}$/);
  });
});

describe("readRpcBody", () => {
  test("keeps valid requests and notifications, written anew with their four members only", () => {
    expect(readRpcBody(' {"jsonrpc":"2.0","method":"eth_chainId"}  ')).toEqual({
      batch: false,
      requests: [{ jsonrpc: "2.0", method: "eth_chainId" }],
      invalid: [],
      order: [null],
      text: '{"jsonrpc":"2.0","method":"eth_chainId"}',
    });
  });

  test("the text a chain gets is the service's own: no whitespace, no duplicate members, escapes as JSON.stringify writes them", () => {
    const body = Buffer.from(
      '\n\t [ {"params":[],"id":1,"method":"eth_chainId","jsonrpc":"2.0","id":2} , {"jsonrpc":"2.0","id":"\\u00e9","method":"m"} ] \r\n',
    );
    const read = readRpcBody(body);
    expect(read).toMatchObject({ batch: true, invalid: [] });
    expect("text" in read && read.text).toBe(
      '[{"jsonrpc":"2.0","id":2,"method":"eth_chainId","params":[]},{"jsonrpc":"2.0","id":"é","method":"m"}]',
    );
  });

  test("a body that is not UTF-8 is the spec's -32700, whatever JSON it would be", () => {
    const invalid = Buffer.concat([
      Buffer.from('[{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":["'),
      Buffer.from([0xff, 0xfe]),
      Buffer.from('"]}]'),
    ]);
    expect(readRpcBody(invalid)).toEqual({
      response: { jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error: the body is not JSON" } },
    });
  });
  test("a call that differs from an earlier one only in its id is read as a fresh read would read it", () => {
    /** What a first read of a text gives: JSON.parse, the four members in anvil's order, JSON.stringify. */
    const fresh = (text: string) => {
      const { id, method, params } = JSON.parse(text) as { id?: unknown; method: string; params?: unknown };
      const request = { jsonrpc: "2.0", ...(id !== undefined && { id }), method, ...(params !== undefined && { params }) };
      return { batch: false, requests: [request], invalid: [], order: [null], text: JSON.stringify(request) };
    };
    const templates = [
      '{"jsonrpc":"2.0","id":ID,"method":"eth_getBalance","params":["0x00000000000000000000000000000000000a11ce","latest"]}',
      '{"method":"eth_call","params":[{"to":"0x04","data":"0x12"},"latest"],"id":ID,"jsonrpc":"2.0"}',
      ' { "jsonrpc" : "2.0", "id":ID , "method":"eth_blockNumber", "params": [] } ',
    ];
    const ids = ["1", "0", "42", "-7", "9007199254740991", '"abc"', '""', '"a b"', "null"];
    // Texts whose id is not written as JSON.stringify writes it, or that hold more than one id: read in full.
    const odd = ["01", "-0", "1.0", "1e0", "2e3", '"\\u0041"', '"é"', '1, "id":2'];
    for (const template of templates) {
      for (const id of [...ids, ...odd, ...ids]) {
        const text = template.replace("ID", id);
        let expected: unknown;
        try {
          expected = fresh(text);
        } catch {
          expected = { response: { jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error: the body is not JSON" } } };
        }
        const read = readRpcBody(Buffer.from(text));
        expect({ text, read }).toEqual({ text, read: expected });
      }
      // The second read of a call with a plain id reuses the first's params (frozen, so that no call changes them).
      const read = readRpcBody(template.replace("ID", "77"));
      expect("requests" in read && Object.isFrozen(read.requests[0].params)).toBe(true);
    }
  });
});
