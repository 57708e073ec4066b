/**
 * The RPC URLs of Virtual Environments (docs/service.md "RPC URLs"): `POST /rpc/admin/{secret}` and
 * `POST /rpc/public/{vnetId}` (the same paths over WebSocket: ./websocket.ts). The URL is the credential. Bodies are
 * JSON-RPC 2.0 (single or batch) and answers are JSON-RPC with HTTP 200; a body that is not JSON gets -32700, one
 * that is not a JSON-RPC request -32600. Unknown URLs are 404.
 *
 * The service answers these POSTs before Fastify routes them (./http-connections.ts, ./http.ts), at a chain's speed;
 * this route is the same answer through Fastify, for what that path leaves to it (a logging service, percent-encoded
 * paths).
 */
import type { FastifyInstance } from "fastify";
import type { RpcAccess } from "../../chains/types";
import { notFound } from "../../errors";
import type { VnetRecord } from "../../store";
import { answerParsed, isUnknownVnet, parseJsonRpc } from "./answer";

export { parseJsonRpc } from "./answer";

/** The message of an unknown RPC URL's 404 (never the URL itself: an Admin RPC URL is a secret). */
export const UNKNOWN_RPC_URL = "no Virtual Environment has this RPC URL";

/** The RPC routes. They parse their own bodies: any content type, JSON-RPC errors instead of the API's. */
export default async function rpcRoutes(app: FastifyInstance): Promise<void> {
  const { store, engine } = app.service;
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("*", { parseAs: "string" }, (_request, body, done) => done(null, body));

  async function answer(vnet: VnetRecord | undefined, body: unknown, access: RpcAccess, reply: { type(t: string): unknown }) {
    if (!vnet) throw notFound("rid:vnet", UNKNOWN_RPC_URL);
    const text = typeof body === "string" ? body : "";
    try {
      const answered = await answerParsed(engine, vnet.id, parseJsonRpc(text), text, access);
      reply.type("application/json; charset=utf-8");
      return answered;
    } catch (error) {
      throw isUnknownVnet(error) ? notFound("rid:vnet", UNKNOWN_RPC_URL) : error;
    }
  }

  app.post("/rpc/admin/:secret", { config: { public: true, rpc: true } }, async (request, reply) =>
    answer(store.environments.vnetBySecret((request.params as { secret: string }).secret), request.body, "admin", reply),
  );
  app.post("/rpc/public/:vnetId", { config: { public: true, rpc: true } }, async (request, reply) =>
    answer(store.environments.vnet((request.params as { vnetId: string }).vnetId), request.body, "public", reply),
  );
}
