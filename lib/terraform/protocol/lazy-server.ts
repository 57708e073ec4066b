/** A ProviderServer that loads its implementation on the first RPC. */
import { rpcNames, type ProviderServer, type RequestContext } from "./provider-server";
import { trace } from "./trace";

type Handler = (request: never, context: RequestContext) => Promise<object>;

/**
 * Answers every tfplugin6 RPC by loading the real server on the first call and handing the call to it. The
 * handshake goes out before the provider's code (framework, API client, undici) is read at all: Terraform starts a
 * provider 3-5 times per command and waits for each handshake. A method the loaded server lacks fails the call with
 * an error (answered as an error diagnostic).
 * @example
 * servePlugin(lazyProviderServer(() => require("./server").createServer()));
 */
export function lazyProviderServer(load: () => ProviderServer | Promise<ProviderServer>): LazyProviderServer {
  let loading: Promise<ProviderServer> | undefined;
  const start = () => (loading ??= Promise.resolve().then(() => timedLoad(load)));
  const server: Partial<Record<keyof ProviderServer, Handler>> = {};
  for (const method of Object.keys(rpcNames) as (keyof ProviderServer)[]) {
    server[method] = async (request, context) => {
      const loaded = await start();
      const implementation = loaded[method] as Handler | undefined;
      if (!implementation) throw new Error(`this provider does not implement ${rpcNames[method]}`);
      return implementation.call(loaded, request, context);
    };
  }
  // Not an RPC: non-enumerable, so that the object's own keys stay exactly the RPC methods.
  Object.defineProperty(server, "preload", {
    enumerable: false,
    value: () => {
      // A failure is kept for the first RPC to report, as if that RPC had loaded.
      start().catch(() => {});
    },
  });
  return server as LazyProviderServer;
}

/** A {@link lazyProviderServer}: a ProviderServer that can also start loading before the first RPC. */
export type LazyProviderServer = ProviderServer & {
  /**
   * Starts loading now. Call it once the handshake is out: Terraform spends ~10 ms connecting (TLS, HTTP/2) before
   * its first RPC, time in which the provider's code can be read instead of after that RPC arrives.
   */
  preload(): void;
};

async function timedLoad(load: () => ProviderServer | Promise<ProviderServer>): Promise<ProviderServer> {
  const started = performance.now();
  const server = await load();
  trace("load", { ms: performance.now() - started });
  return server;
}
