import { lazyProviderServer } from "./lazy-server";
import type { ProviderServer, RequestContext } from "./provider-server";

const context: RequestContext = { signal: new AbortController().signal };

describe("lazyProviderServer", () => {
  it("loads the implementation once, on the first call, and hands every call to it", async () => {
    // GIVEN a loader that counts its calls
    let loads = 0;
    const implementation: ProviderServer = {
      getProviderSchema: async () => ({ provider: { version: 1 } }) as never,
      validateProviderConfig: async (request) => ({ diagnostics: [{ summary: JSON.stringify(request) }] }) as never,
    };
    const server = lazyProviderServer(() => {
      loads++;
      return implementation;
    });
    // THEN nothing is loaded before a call
    expect(loads).toBe(0);
    // WHEN two calls arrive at once, then another
    const [schema, validated] = await Promise.all([
      server.getProviderSchema!({}, context),
      server.validateProviderConfig!({ config: { msgpack: Buffer.from([0xc0]) } } as never, context),
    ]);
    await server.getProviderSchema!({}, context);
    // THEN the loader ran once and the answers are the implementation's
    expect(loads).toBe(1);
    expect(schema).toEqual({ provider: { version: 1 } });
    expect(validated).toEqual({ diagnostics: [{ summary: JSON.stringify({ config: { msgpack: Buffer.from([0xc0]) } }) }] });
  });

  it("fails a call the loaded server does not implement, naming the RPC", async () => {
    const server = lazyProviderServer(async () => ({}));
    await expect(server.readDataSource!({} as never, context)).rejects.toThrow("this provider does not implement ReadDataSource");
  });

  it("preload loads ahead of the first call, once, and the calls use what it loaded", async () => {
    let loads = 0;
    const server = lazyProviderServer(() => {
      loads++;
      return { getProviderSchema: async () => ({ provider: { version: 2 } }) as never };
    });
    server.preload();
    server.preload();
    await new Promise((resolve) => setImmediate(resolve));
    expect(loads).toBe(1);
    await expect(server.getProviderSchema!({}, context)).resolves.toEqual({ provider: { version: 2 } });
    expect(loads).toBe(1);
    // preload is not an RPC: the gRPC layer sees only the RPC methods
    expect(Object.keys(server)).not.toContain("preload");
  });

  it("a preload that fails leaves the failure to the first call, without an unhandled rejection", async () => {
    const server = lazyProviderServer(() => {
      throw new Error("cannot read the provider's code");
    });
    server.preload();
    await new Promise((resolve) => setImmediate(resolve));
    await expect(server.getProviderSchema!({}, context)).rejects.toThrow("cannot read the provider's code");
  });
});
