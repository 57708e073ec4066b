/** GET /v1/account/{accountSlug}/delivery-channels (docs/api.md "Endpoints"), paginated (docs/api.md "Limits"). */
import type { FastifyInstance } from "fastify";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import { AccountParams, DeliveryChannelList, PaginationQuery } from "../../../api";
import { accountAccess } from "../../auth/access";
import { pageOf, pageSlice, replies, requesterOf } from "../common";

/** The delivery channel routes. */
export default async function deliveryChannelRoutes(app: FastifyInstance): Promise<void> {
  const { store } = app.service;
  app
    .withTypeProvider<TypeBoxTypeProvider>()
    .get(
      "/v1/account/:accountSlug/delivery-channels",
      { schema: { params: AccountParams, querystring: PaginationQuery, response: replies({ 200: DeliveryChannelList }) } },
      async (request) => {
        const { account } = accountAccess(store, requesterOf(request), request.params.accountSlug);
        const channels = store.projects.deliveryChannels(account.id).map((row) => ({
          ...row,
          enabled: row.enabled === 1,
          information: JSON.parse(row.information),
        }));
        return { delivery_channels: pageSlice(channels, pageOf(request.query)) };
      },
    );
}
