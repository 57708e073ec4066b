/** `chainform_supported_networks`: the networks the service can fork, optionally those with one feature. */
import type { SupportedNetwork } from "../../../api";
import { SUPPORTED_FEATURES } from "../../../domain/constants";
import { attr, cty, defineDataSource, defineSchema, oneOf, type Model } from "../../framework";
import { reportError } from "../errors";
import type { ChainformProviderData } from "../provider-data";

const network = cty.object({
  network_name: cty.string,
  chain_id: cty.string,
  explorer_slug: cty.string,
  node_rpc_slug: cty.string,
  vnet_rpc_slug: cty.string,
  virtual_testnet: cty.bool,
  node: cty.bool,
  explorer: cty.bool,
  simulator: cty.bool,
  monitoring: cty.bool,
});

/** The data source schema. */
export const supportedNetworksSchema = defineSchema({
  description: "The networks chainform supports. Needs no credentials.",
  attributes: {
    // Optional
    feature: attr.string({
      description: `Only networks supporting this feature: ${SUPPORTED_FEATURES.join(", ")}.`,
      optional: true,
      validators: [oneOf([...SUPPORTED_FEATURES])],
    }),
    // Computed
    networks: attr.list(network, {
      description:
        "The supported networks: network_name, chain_id (decimal string), explorer/node_rpc/vnet_rpc slugs (empty when unavailable) and one bool per feature.",
      computed: true,
    }),
  },
});

type State = Model<typeof supportedNetworksSchema>;

/** The one mapping from the service's list to state. */
export function toState(networks: readonly SupportedNetwork[], feature: string | null): State {
  return {
    feature,
    networks: networks
      .filter((n) => feature === null || n.supported_features[feature as keyof SupportedNetwork["supported_features"]])
      .map((n) => ({ network_name: n.network_name, chain_id: n.chain_id, ...n.network_slugs, ...n.supported_features })),
  };
}

/** The data source. */
export const supportedNetworksDataSource = defineDataSource<typeof supportedNetworksSchema, ChainformProviderData>({
  typeName: "chainform_supported_networks",
  schema: supportedNetworksSchema,
  async read({ config, providerData: data, diagnostics }) {
    try {
      return toState(await data.client.listSupportedNetworks(), config.feature);
    } catch (error) {
      reportError(diagnostics, data, error, { action: "list the supported networks" });
      return;
    }
  },
});
