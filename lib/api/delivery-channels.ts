import { Type, type Static } from "@sinclair/typebox";
import { DateTime, Uuid } from "./common";

/** `information` of an email channel. */
export const EmailChannelInformation = Type.Object({ email: Type.String(), emails: Type.Array(Type.String()) });
/** `information` of a slack channel. */
export const SlackChannelInformation = Type.Object({ team_name: Type.String(), channel_name: Type.String() });

/** Delivery channel (docs/api.md "Resources"). Types seen: `email`, `slack`. */
export const DeliveryChannel = Type.Object({
  id: Uuid,
  type: Type.String({ description: "Values seen: email, slack" }),
  owner_id: Uuid,
  project_id: Type.Union([Uuid, Type.Null()]),
  label: Type.String(),
  reference_id: Type.String(),
  enabled: Type.Boolean(),
  created_at: DateTime,
  information: Type.Union([EmailChannelInformation, SlackChannelInformation, Type.Record(Type.String(), Type.Unknown())]),
});
export type DeliveryChannel = Static<typeof DeliveryChannel>;

/** GET /v1/account/{accountSlug}/delivery-channels answer. */
export const DeliveryChannelList = Type.Object({ delivery_channels: Type.Array(DeliveryChannel) });
export type DeliveryChannelList = Static<typeof DeliveryChannelList>;
