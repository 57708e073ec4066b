import type { SupportedNetwork } from "../../api";
import type { BaseClient } from "../client";
import type { RequestErrorType } from "../errors";
import { list } from "../utils/shape";

/** Parameters of {@link listSupportedNetworks}: none. */
export type ListSupportedNetworksParameters = Record<string, never>;
/** The networks the service can fork. */
export type ListSupportedNetworksReturnType = SupportedNetwork[];
/** Errors {@link listSupportedNetworks} can throw. */
export type ListSupportedNetworksErrorType = RequestErrorType;

/**
 * Lists the networks the service supports: `GET /v1/supported-networks`. The endpoint is public; the client
 * sends no credentials (it is limited per client address, and paced separately from the key).
 *
 * @example
 * const networks = await listSupportedNetworks(client)
 * const forkable = networks.filter((n) => n.supported_features.virtual_testnet)
 */
export async function listSupportedNetworks(client: BaseClient): Promise<ListSupportedNetworksReturnType> {
  return client.request({
    method: "GET",
    path: "/v1/supported-networks",
    auth: false,
    parse: list<SupportedNetwork>("supported_networks"),
  });
}
