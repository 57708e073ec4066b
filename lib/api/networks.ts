import { Type, type Static } from "@sinclair/typebox";
import { SUPPORTED_FEATURES } from "../domain/constants";

export { SUPPORTED_FEATURES };

/** A feature of a supported network. */
export type { SupportedFeature } from "../domain/constants";

/** Supported network (docs/api.md "Resources"). */
export const SupportedNetwork = Type.Object({
  network_name: Type.String(),
  chain_id: Type.String(),
  network_slugs: Type.Object({
    explorer_slug: Type.String({ description: "Empty string when unavailable" }),
    node_rpc_slug: Type.String({ description: "Empty string when unavailable" }),
    vnet_rpc_slug: Type.String({ description: "Empty string when unavailable" }),
  }),
  supported_features: Type.Object({
    virtual_testnet: Type.Boolean(),
    node: Type.Boolean(),
    explorer: Type.Boolean(),
    simulator: Type.Boolean(),
    monitoring: Type.Boolean(),
  }),
});
export type SupportedNetwork = Static<typeof SupportedNetwork>;

/** GET /v1/supported-networks answer: a top-level array. */
export const SupportedNetworkList = Type.Array(SupportedNetwork);
export type SupportedNetworkList = Static<typeof SupportedNetworkList>;
