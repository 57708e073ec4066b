/**
 * A Virtual TestNet made through the hosted clients' door (`POST /api/v1/account/acme/project/demo/vnets`), with the
 * body the vnet GitHub Action sends: a fork of network 1 at its latest block, a chain id, the explorer on with
 * source visibility (`src`). The hosted-client tests start from one.
 *
 * @example
 * const vnet = await createHostedVnet(service, { slug: "sdk-testnet", displayName: "SDK TestNet", chainId: 73572 });
 * await rpc(vnet.url("Admin RPC"), "tenderly_setBalance", [address, "0x1"]);
 */
import { call } from "./http";
import type { TestService } from "./service";

/** A created vnet as the hosted door answers it, and the URL of one of its `rpcs` by name. */
export interface HostedVnet {
  readonly id: string;
  readonly rpcs: { name: string; url: string }[];
  url(name: "Admin RPC" | "Public RPC"): string;
}

/** Creates the vnet as alice in acme/demo; fails the test with the service's answer when it is refused. */
export async function createHostedVnet(
  service: TestService,
  options: { readonly slug: string; readonly displayName: string; readonly chainId: number },
): Promise<HostedVnet> {
  const created = await call(service, "POST", "/api/v1/account/acme/project/demo/vnets", {
    as: "alice",
    body: {
      slug: options.slug,
      display_name: options.displayName,
      fork_config: { network_id: 1, block_number: "latest" },
      virtual_network_config: { chain_config: { chain_id: options.chainId } },
      explorer_page_config: { enabled: true, verification_visibility: "src" },
    },
  });
  if (created.status !== 200) throw new Error(`the vnet was not created: ${created.status} ${created.text}`);
  const vnet = created.body as { id: string; rpcs: { name: string; url: string }[] };
  return { ...vnet, url: (name) => vnet.rpcs.find((r) => r.name === name)!.url };
}
