/**
 * The RPC URLs' HTTP transport (./http.ts) over TLS, and in front of a real chain (anvil): the same kept-alive,
 * pipelined, byte-by-byte and batched calls, and the Public RPC's refusal of an admin method.
 * Every wait is on an event (an answer, an end, a close), never on a timer; the sockets and requests are
 * test/helpers/raw-http.ts's.
 */
import { startTestService, type TestService } from "../../../test/helpers/service";
import { call } from "../../../test/helpers/http";
import { RawConnection, post, get, chunkedPost, request, GateEngine, noEngine } from "../../../test/helpers/raw-http";

const opened: RawConnection[] = [];
async function open(options: { allowHalfOpen?: boolean } | undefined, service: Pick<TestService, "baseUrl">): Promise<RawConnection> {
  const connection = await RawConnection.open(service, options);
  opened.push(connection);
  return connection;
}

afterEach(() => {
  opened.splice(0).forEach((connection) => connection.destroy());
});

describe("over TLS", () => {
  test("calls kept alive, pipelined, between API requests and chunked, as over plain HTTP", async () => {
    const service = await startTestService({ createChainEngine: () => new GateEngine(), logger: false, tls: true });
    try {
      expect(service.baseUrl).toMatch(/^https:/);
      const connection = await open(undefined, service);
      const created = await connection.send(
        post("/public/v1/account/acme/project/demo/environments", { display_name: "tls", network_configs: [{ network_id: "1" }] }, [
          `X-Access-Key: ${service.keys.alice}`,
        ]),
      );
      const publicPath = new URL(created.json.active_instance.vnets[0].rpcs.find((r: { name: string }) => r.name === "Public RPC").url)
        .pathname;
      const first = await connection.send(post(publicPath, request(1)));
      expect(first.json).toEqual(noEngine(1));
      await connection.write(post(publicPath, request(2)) + get("/v1/supported-networks") + chunkedPost(publicPath, request(3)));
      expect((await connection.next()).json).toEqual(noEngine(2));
      expect((await connection.next()).status).toBe(200);
      expect((await connection.next()).json).toEqual(noEngine(3));
    } finally {
      await service.close();
    }
  });
});

describe("with a real chain", () => {
  let chain: Awaited<ReturnType<typeof realService>>;
  async function realService() {
    const service = await startTestService({ logger: false });
    const created = await call(service, "POST", "/public/v1/account/acme/project/demo/environments", {
      as: "alice",
      body: { display_name: "rpc connections chain", network_configs: [{ network_id: "1", chain_config_overrides: { chain_id: "7031" } }] },
    });
    const rpcs: { name: string; url: string }[] = created.body.active_instance.vnets[0].rpcs;
    const pathOf = (name: string) => rpcs.find((r) => r.name === name)!.url.slice(service.baseUrl.length);
    return { service, publicPath: pathOf("Public RPC"), adminPath: pathOf("Admin RPC") };
  }
  beforeAll(async () => {
    chain = await realService();
  });
  afterAll(() => chain?.service.close());

  test("eth_chainId, kept alive, pipelined, byte by byte, and a batch", async () => {
    const connection = await open(undefined, chain.service);
    expect((await connection.send(post(chain.publicPath, request(1)))).json).toEqual({ jsonrpc: "2.0", id: 1, result: "0x1b77" });
    await connection.write(post(chain.adminPath, request("a")) + post(chain.publicPath, request("b", "eth_blockNumber")));
    expect((await connection.next()).json).toEqual({ jsonrpc: "2.0", id: "a", result: "0x1b77" });
    expect((await connection.next()).json).toMatchObject({ jsonrpc: "2.0", id: "b", result: expect.stringMatching(/^0x[0-9a-f]+$/) });
    const trickled = post(chain.publicPath, request(4));
    await connection.trickle(trickled);
    expect((await connection.next()).json).toEqual({ jsonrpc: "2.0", id: 4, result: "0x1b77" });
    const batch = await connection.send(post(chain.publicPath, [request(5), request(6, "eth_blockNumber")]));
    expect(batch.json.map((a: { id: number }) => a.id)).toEqual([5, 6]);
    expect(batch.json[0].result).toBe("0x1b77");
  });

  test("the Public RPC still refuses an admin method", async () => {
    const connection = await open(undefined, chain.service);
    const refused = await connection.send(post(chain.publicPath, request(1, "anvil_setBalance")));
    expect(refused.status).toBe(200);
    expect(refused.json.error).toBeDefined();
    const allowed = await connection.send(
      post(chain.adminPath, {
        jsonrpc: "2.0",
        id: 2,
        method: "anvil_setBalance",
        params: ["0x000000000000000000000000000000000000beef", "0x10"],
      }),
    );
    expect(allowed.json).toEqual({ jsonrpc: "2.0", id: 2, result: null });
  });
});
