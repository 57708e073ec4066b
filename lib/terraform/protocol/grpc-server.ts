/**
 * The gRPC server of a plugin process: tfplugin6.Provider dispatched to a {@link ProviderServer}, plus the go-plugin
 * controller (Shutdown) and the health check that Terraform's plugin client expects next to it.
 */
import * as grpc from "@grpc/grpc-js";
import { serviceDefinition } from "./grpc-service";
import type { Diagnostic } from "./messages";
import { rpcNames, type ProviderServer, type RequestContext } from "./provider-server";

/** Options of {@link createPluginServer}. */
export interface PluginServerOptions {
  /** Called after the Shutdown RPC has been answered; the process should exit. */
  onShutdown(): void;
  /** Where diagnostics about the server itself go (stderr; Terraform shows it under TF_LOG=debug). */
  log?(message: string): void;
}

/** A plugin gRPC server, not yet bound to a port. */
export interface PluginServer {
  /** The grpc-js server: bind it with the plugin's mTLS credentials. */
  readonly server: grpc.Server;
  /** Aborted when Terraform calls StopProvider; handed to every handler as `context.signal`. */
  readonly signal: AbortSignal;
}

// go-plugin raises gRPC's 4 MiB default to the maximum for Terraform: large states and plans must not fail.
const MESSAGE_LIMIT = 256 * 1024 * 1024;
const SHUTDOWN_GRACE_MS = 100;

/**
 * Creates the gRPC server for a provider: every tfplugin6 RPC the provider implements is served, the others answer
 * UNIMPLEMENTED, StopProvider aborts in-flight work, and a handler that throws becomes an error diagnostic (a
 * provider bug should read as one, not as a broken connection).
 */
export function createPluginServer(provider: ProviderServer, options: PluginServerOptions): PluginServer {
  const log = options.log ?? ((message: string) => process.stderr.write(`${message}\n`));
  const stop = new AbortController();
  const context: RequestContext = { signal: stop.signal };
  const server = new grpc.Server({
    "grpc.max_receive_message_length": MESSAGE_LIMIT,
    "grpc.max_send_message_length": MESSAGE_LIMIT,
  });

  const methodOf = new Map<string, keyof ProviderServer>(
    Object.entries(rpcNames).map(([method, rpc]) => [rpc, method as keyof ProviderServer]),
  );
  const providerDefinition = serviceDefinition("tfplugin6.Provider");
  const handlers: grpc.UntypedServiceImplementation = {};
  for (const rpc of Object.keys(providerDefinition)) {
    const method = methodOf.get(rpc);
    const implementation = method && provider[method];
    if (rpc === "StopProvider") {
      handlers[rpc] = unary(async () => {
        log("StopProvider: cancelling in-flight operations");
        stop.abort(new Error("Terraform asked the provider to stop"));
        return { Error: "" };
      });
    } else if (implementation) {
      const handle = implementation.bind(provider) as (request: never, context: RequestContext) => Promise<object>;
      handlers[rpc] = unary(async (request) => {
        try {
          return await handle(request as never, context);
        } catch (error) {
          log(`${rpc} failed: ${error instanceof Error ? error.stack : String(error)}`);
          return { diagnostics: [internalError(rpc, error)] };
        }
      });
    } else {
      handlers[rpc] = (_call: unknown, callback: grpc.sendUnaryData<object>) =>
        callback({ code: grpc.status.UNIMPLEMENTED, details: `${rpc} is not implemented by this provider` });
    }
  }
  server.addService(providerDefinition, handlers);

  server.addService(serviceDefinition("plugin.GRPCController"), {
    Shutdown: (_call: unknown, callback: grpc.sendUnaryData<object>) => {
      callback(null, {});
      // Let the reply reach go-plugin before the process goes away (it would see a reset stream otherwise), but do
      // not wait for Terraform to close its connection: go-plugin is waiting for the process to exit.
      let done = false;
      const finish = () => {
        if (done) return;
        done = true;
        options.onShutdown();
      };
      server.tryShutdown(finish);
      setTimeout(finish, SHUTDOWN_GRACE_MS).unref();
    },
  });
  server.addService(serviceDefinition("grpc.health.v1.Health"), {
    Check: unary(async () => ({ status: "SERVING" })),
  });
  return { server, signal: stop.signal };
}

function unary(handle: (request: object) => Promise<object>): grpc.handleUnaryCall<object, object> {
  return (call, callback) => {
    handle(call.request).then(
      (response) => callback(null, response),
      (error: unknown) => callback({ code: grpc.status.INTERNAL, details: String(error) }),
    );
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
