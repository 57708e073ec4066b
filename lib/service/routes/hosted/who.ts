/**
 * Who and where, as the hosted clients ask (docs/hosted-clients.md "Who and where"): `GET /v1/user` (the api-client's
 * principal), `GET /v1/principal` (the CLI's), `GET /v1/public-networks` (every client's network list, in its own
 * shape) and `GET /v1/network/{id}/block-number`. Each reads what the spec's routes read: the requester, the
 * supported-network list, the chain engine's fork point.
 */
import type { FastifyInstance } from "fastify";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import { Type } from "@sinclair/typebox";
import { ChainIdString } from "../../../api";
import { notFound } from "../../errors";
import type { NetworkRecord, Principal } from "../../store";
import { replies, requesterOf } from "../common";
import { HOSTED_ANSWER } from "./answer";

/** A user as `GET /v1/user` answers it, under `user` (the api-client reads `user.id` and `user.username`). */
function hostedUser(user: Principal) {
  return { id: user.id, username: user.slug, email: user.email, first_name: user.first_name, last_name: user.last_name };
}

/**
 * A supported network in the hosted `public-networks` shape: its chain id as `id` and `ethereum_network_id` (text,
 * as the api-client types it), its name, its node RPC slug as `slug`, the slugs again under `metadata`, and its
 * place in the list as `sort_order`.
 */
export function toPublicNetwork(network: NetworkRecord, index: number) {
  const slug = network.network_slugs.node_rpc_slug || network.network_slugs.vnet_rpc_slug || network.chain_id;
  const secondary = [network.network_slugs.vnet_rpc_slug, network.network_slugs.explorer_slug].filter((s) => s !== "" && s !== slug);
  return {
    id: network.chain_id,
    ethereum_network_id: network.chain_id,
    name: network.network_name,
    slug,
    metadata: {
      label: network.network_name,
      slug,
      secondary_slugs: [...new Set(secondary)],
      short_identifier: slug,
      exclude_from_listing: false,
    },
    sort_order: index + 1,
  };
}

const NetworkIdParams = Type.Object({ networkId: ChainIdString });

/** The who-and-where routes. */
export default async function whoRoutes(app: FastifyInstance): Promise<void> {
  const { store, engine } = app.service;
  const routes = app.withTypeProvider<TypeBoxTypeProvider>();

  routes.get("/v1/user", { schema: { response: replies({ 200: HOSTED_ANSWER }) } }, async (request) => ({
    user: hostedUser(requesterOf(request).user),
  }));

  routes.get("/v1/principal", { schema: { response: replies({ 200: HOSTED_ANSWER }) } }, async (request) => {
    const user = requesterOf(request).user;
    return { id: user.id, type: "user", username: user.slug, user: hostedUser(user) };
  });

  routes.get("/v1/public-networks", { config: { public: true }, schema: { response: replies({ 200: HOSTED_ANSWER }) } }, async () =>
    store.networks.list().map(toPublicNetwork),
  );

  // The head a fork of the network would start from: the upstream's, when the service has one, else the network's
  // notional latest block (docs/forking.md): the block a vnet created now with "latest" forks.
  routes.get(
    "/v1/network/:networkId/block-number",
    { config: { public: true }, schema: { params: NetworkIdParams, response: replies({ 200: HOSTED_ANSWER }) } },
    async (request) => {
      const network = store.networks.byChainId(request.params.networkId);
      if (!network)
        throw notFound(
          "rid:network",
          `network ${request.params.networkId} is not a supported network (GET /api/v1/public-networks lists them)`,
        );
      const upstream = engine.forkPoint ? await engine.forkPoint(network.chain_id) : null;
      return { block_number: Number(upstream ?? BigInt(network.latest_block)) };
    },
  );
}
