import { EncodedResponse } from "./h2-grpc";
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

  it("answers a GetProviderSchema that comes first from the encoded schema, without loading", async () => {
    let loads = 0;
    const server = lazyProviderServer(
      () => {
        loads++;
        return { getProviderSchema: async () => ({ provider: { version: 3 } }) as never, configureProvider: async () => ({}) };
      },
      { encodedSchema: () => Uint8Array.of(1, 2, 3) },
    );
    const answer = await server.getProviderSchema!({}, context);
    expect(answer).toBeInstanceOf(EncodedResponse);
    expect((answer as unknown as EncodedResponse).bytes).toEqual(Uint8Array.of(1, 2, 3));
    expect(loads).toBe(0);
    // Once something has loaded the provider, the provider answers (the bytes are only a shortcut).
    await server.configureProvider!({} as never, context);
    await expect(server.getProviderSchema!({}, context)).resolves.toEqual({ provider: { version: 3 } });
    expect(loads).toBe(1);
  });

  it("without encoded schema bytes (a provider run from sources), GetProviderSchema loads the provider", async () => {
    let loads = 0;
    const server = lazyProviderServer(
      () => {
        loads++;
        return { getProviderSchema: async () => ({ provider: { version: 4 } }) as never };
      },
      { encodedSchema: () => undefined },
    );
    await expect(server.getProviderSchema!({}, context)).resolves.toEqual({ provider: { version: 4 } });
    expect(loads).toBe(1);
  });
});
