/** GET /v1/supported-networks (docs/api.md "Endpoints"): public, a top-level array. */
import type { FastifyInstance } from "fastify";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import { SupportedNetworkList } from "../../../api";
import { replies } from "../common";

/** The supported-network routes. */
export default async function networkRoutes(app: FastifyInstance): Promise<void> {
  const { store } = app.service;
  app
    .withTypeProvider<TypeBoxTypeProvider>()
    .get("/v1/supported-networks", { config: { public: true }, schema: { response: replies({ 200: SupportedNetworkList }) } }, async () =>
      store.networks.list(),
    );
}
