/**
 * The gRPC services of a plugin process: tfplugin6.Provider dispatched to a {@link ProviderServer}, plus the go-plugin
 * controller (Shutdown) and the health check that Terraform's plugin client expects next to it.
 */
import { serviceDefinition } from "./grpc-service";
import { GrpcError, GrpcStatus, UnaryGrpcServer, type UnaryHandler } from "./h2-grpc";
import type { Diagnostic } from "./messages";
import { rpcNames, type ProviderServer, type RequestContext } from "./provider-server";
import { trace, tracing } from "./trace";

/** Options of {@link createPluginServer}. */
export interface PluginServerOptions {
  /** Called after the Shutdown RPC has been answered; the process should exit. */
  onShutdown(): void;
  /** Where diagnostics about the server itself go (stderr; Terraform shows it under TF_LOG=debug). */
  log?(message: string): void;
}

/** A plugin gRPC server, not yet listening. */
export interface PluginServer {
  /** The server: `listen` on it with the plugin's mTLS settings. */
  readonly server: UnaryGrpcServer;
  /** Aborted when Terraform calls StopProvider; handed to every handler as `context.signal`. */
  readonly signal: AbortSignal;
}

// After Shutdown, go-plugin reads the reply, closes its connection and waits for the process to exit: exit as soon
// as it has hung up (then the reply has surely arrived), and at the latest after this long.
const SHUTDOWN_GRACE_MS = 250;

/**
 * Creates the gRPC server for a provider: every tfplugin6 RPC the provider implements is served, the others answer
 * UNIMPLEMENTED, StopProvider aborts in-flight work, and a handler that throws becomes an error diagnostic (a
 * provider bug should read as one, not as a broken connection).
 */
export function createPluginServer(provider: ProviderServer, options: PluginServerOptions): PluginServer {
  const log = options.log ?? ((message: string) => process.stderr.write(`${message}\n`));
  const stop = new AbortController();
  const context: RequestContext = { signal: stop.signal };
  const server = new UnaryGrpcServer(log);

  const handlers: Record<string, UnaryHandler> = {
    StopProvider: async () => {
      log("StopProvider: cancelling in-flight operations");
      stop.abort(new Error("Terraform asked the provider to stop"));
      return { Error: "" };
    },
  };
  for (const [method, rpc] of Object.entries(rpcNames)) {
    const implementation = provider[method as keyof ProviderServer];
    if (!implementation) continue;
    const handle = implementation.bind(provider) as (request: never, context: RequestContext) => Promise<object>;
    const handleAndAnswer: UnaryHandler = async (request) => {
      try {
        return await handle(request as never, context);
      } catch (error) {
        log(`${rpc} failed: ${error instanceof Error ? error.stack : String(error)}`);
        const diagnostic = internalError(rpc, error);
        // CallFunction's response has no diagnostics: its failures are a FunctionError.
        if (rpc === "CallFunction") return { error: { text: `${diagnostic.summary}: ${diagnostic.detail}` } };
        return { diagnostics: [diagnostic] };
      }
    };
    handlers[rpc] = tracing ? timed(rpc, handleAndAnswer) : handleAndAnswer;
  }
  server.addService(serviceDefinition("tfplugin6.Provider"), handlers);

  server.addService(serviceDefinition("plugin.GRPCController"), {
    Shutdown: async () => {
      trace("shutdown");
      let done = false;
      const shutDown = () => {
        if (done) return;
        done = true;
        options.onShutdown();
      };
      // The reply is still to be sent when this runs: wait for the hang-up that follows it.
      setImmediate(() => server.whenDisconnected(shutDown));
      setTimeout(shutDown, SHUTDOWN_GRACE_MS).unref();
      return {};
    },
  });
  server.addService(serviceDefinition("grpc.health.v1.Health"), {
    Check: async () => ({ status: "SERVING" }),
  });
  return { server, signal: stop.signal };
}

/** Re-exported for handlers that need to fail a call with a gRPC status. */
export { GrpcError, GrpcStatus };

function timed(rpc: string, handler: UnaryHandler): UnaryHandler {
  return async (request) => {
    const started = performance.now();
    try {
      return await handler(request);
    } finally {
      trace("rpc", { rpc, ms: performance.now() - started });
    }
  };
}

function internalError(rpc: string, error: unknown): Diagnostic {
  return {
    severity: "ERROR",
    summary: `Provider error in ${rpc}`,
    detail:
      "The provider failed unexpectedly. This is a bug in the provider; please report it with the details below.\n\n" +
      (error instanceof Error ? (error.stack ?? error.message) : String(error)),
  };
}
