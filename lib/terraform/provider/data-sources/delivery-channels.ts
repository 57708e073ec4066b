/** `chainform_delivery_channels`: the account's alert destinations, optionally of one type. */
import type { DeliveryChannel } from "../../../client";
import { attr, cty, defineDataSource, defineSchema, type Model } from "../../framework";
import { reportError } from "../errors";
import type { ChainformProviderData } from "../provider-data";

/** The data source schema. */
export const deliveryChannelsSchema = defineSchema({
  description: "The account's delivery channels (alert destinations such as email and slack).",
  attributes: {
    // Optional
    type: attr.string({ description: "Only channels of this type, e.g. email or slack.", optional: true }),
    // Computed
    channels: attr.list(
      cty.object({
        id: cty.string,
        type: cty.string,
        label: cty.string,
        reference_id: cty.string,
        enabled: cty.bool,
        created_at: cty.string,
      }),
      { description: "The delivery channels: id, type, label, reference_id, enabled, created_at.", computed: true },
    ),
  },
});

/** The one mapping from the service's list to state. */
export function toState(channels: readonly DeliveryChannel[], type: string | null): Model<typeof deliveryChannelsSchema> {
  return {
    type,
    channels: channels
      .filter((c) => type === null || c.type === type)
      .map((c) => ({ id: c.id, type: c.type, label: c.label, reference_id: c.reference_id, enabled: c.enabled, created_at: c.created_at })),
  };
}

/** The data source. */
export const deliveryChannelsDataSource = defineDataSource<typeof deliveryChannelsSchema, ChainformProviderData>({
  typeName: "chainform_delivery_channels",
  schema: deliveryChannelsSchema,
  async read({ config, providerData: data, diagnostics }) {
    try {
      return toState(await data.client.listDeliveryChannels(), config.type);
    } catch (error) {
      reportError(diagnostics, data, error, { action: "list the delivery channels" });
      return;
    }
  },
});
