/**
 * The RPC URLs of Virtual Environments as a plugin of the service (the data plane; docs/service.md "RPC URLs"):
 * `POST /rpc/admin/{secret}` and `POST /rpc/public/{vnetId}` over Node's HTTP server (./http.ts) and the same paths
 * over WebSocket (./websocket.ts), both thin transports of one pipeline (./pipeline.ts). It reads what it needs from
 * `app.service` (context.ts) and knows neither the API's routes nor the web UI; listen.ts composes the three.
 */
import type { FastifyInstance } from "fastify";
import "../context";
import { routeHostedHost } from "./hosted-hosts";
import { serveRpcOverHttp } from "./http";
import type { RpcLimits } from "../caller-limits";
import { RpcPipeline } from "./pipeline";
import { serveVerifyDoors } from "./verify-doors";
import { attachWebSocketRpc } from "./websocket";

export { UNKNOWN_RPC_URL } from "./pipeline";

declare module "fastify" {
  interface FastifyInstance {
    /** The RPC URLs' pipeline, where the RPC plugin is registered (tests look at what it remembers). */
    rpcPipeline?: RpcPipeline;
  }
}

/**
 * Serves the RPC URLs on the app's server, ahead of its routes. On close, HTTP calls are answered with
 * `connection: close` until the server has closed, and WebSocket connections are ended first (upgraded connections
 * are not the HTTP server's to close). `limits` lowers what one caller may hold (../caller-limits.ts), for tests.
 *
 * @example
 * const app = await buildApp(options);
 * await registerRpc(app);
 */
export async function registerRpc(app: FastifyInstance, limits?: Partial<RpcLimits>): Promise<void> {
  const { store, engine, limiter, rateLimits, bodyLimit } = app.service;
  const log = app.log.child({ component: "rpc" });
  const pipeline = new RpcPipeline({ store, engine, limiter, limits: rateLimits, bodyLimit, log, rpcLimits: limits });
  const routeHosted = (host: string | undefined, target: string) => routeHostedHost(app.service, host, target);
  const closeHttp = serveRpcOverHttp(app.server, pipeline, log, routeHosted);
  serveVerifyDoors(app.server, store, () => app.service.verifier);
  const closeWebSockets = attachWebSocketRpc(app.server, pipeline, log, routeHosted);
  app.decorate("rpcPipeline", pipeline);
  app.addHook("preClose", async () => {
    closeHttp();
    closeWebSockets();
  });
}
