import type { DeliveryChannel } from "../../api";
import type { BaseClient } from "../client";
import type { RequestErrorType } from "../errors";
import { accountPath, type AccountScope } from "../utils/scope";
import { list } from "../utils/shape";

/** Parameters of {@link listDeliveryChannels}. */
export type ListDeliveryChannelsParameters = AccountScope;
/** Every delivery channel of the account. */
export type ListDeliveryChannelsReturnType = DeliveryChannel[];
/** Errors {@link listDeliveryChannels} can throw. */
export type ListDeliveryChannelsErrorType = RequestErrorType;

/**
 * Lists the account's delivery channels (alert destinations): `GET /v1/account/{accountSlug}/delivery-channels`.
 *
 * @example
 * const channels = await listDeliveryChannels(client)
 * const emails = channels.filter((c) => c.type === "email")
 */
export async function listDeliveryChannels(
  client: BaseClient,
  params: ListDeliveryChannelsParameters = {},
): Promise<ListDeliveryChannelsReturnType> {
  return client.request({
    method: "GET",
    path: `${accountPath(client, params)}/delivery-channels`,
    parse: list<DeliveryChannel>("delivery_channels"),
  });
}
