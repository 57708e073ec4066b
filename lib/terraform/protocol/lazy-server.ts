/** A ProviderServer that loads its implementation on the first RPC. */
import { EncodedResponse } from "./h2-grpc";
import { rpcNames, type ProviderServer, type RequestContext } from "./provider-server";
import { trace } from "./trace";

type Handler = (request: never, context: RequestContext) => Promise<object>;

/** Options of {@link lazyProviderServer}. */
export interface LazyProviderServerOptions {
  /**
   * The protobuf encoding of the loaded server's GetProviderSchema response, written at build time, or undefined
   * when there is none. A GetProviderSchema that comes before anything is loaded is answered with it: the first
   * provider process of every Terraform command only asks for the schema, and then never loads the provider.
   */
  readonly encodedSchema?: () => Uint8Array | undefined;
}

/**
 * Answers every tfplugin6 RPC by loading the real server on the first call and handing the call to it. The
 * handshake goes out before the provider's code (framework, API client, schemas) is read at all: Terraform starts a
 * provider 3-5 times per command and waits for each handshake. A method the loaded server lacks fails the call with
 * an error (answered as an error diagnostic).
 * @example
 * servePlugin(lazyProviderServer(() => require("./dispatcher").createServer()));
 */
export function lazyProviderServer(
  load: () => ProviderServer | Promise<ProviderServer>,
  options: LazyProviderServerOptions = {},
): ProviderServer {
  let loading: Promise<ProviderServer> | undefined;
  const start = () => (loading ??= Promise.resolve().then(() => timedLoad(load)));
  const server: Partial<Record<keyof ProviderServer, Handler>> = {};
  for (const method of Object.keys(rpcNames) as (keyof ProviderServer)[]) {
    server[method] = async (request, context) => {
      if (method === "getProviderSchema" && !loading && options.encodedSchema) {
        const bytes = options.encodedSchema();
        if (bytes) return new EncodedResponse(bytes);
      }
      const loaded = await start();
      const implementation = loaded[method] as Handler | undefined;
      if (!implementation) throw new Error(`this provider does not implement ${rpcNames[method]}`);
      return implementation.call(loaded, request, context);
    };
  }
  return server as ProviderServer;
}

async function timedLoad(load: () => ProviderServer | Promise<ProviderServer>): Promise<ProviderServer> {
  const started = performance.now();
  const server = await load();
  trace("load", { ms: performance.now() - started });
  return server;
}
