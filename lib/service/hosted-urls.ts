/**
 * Hosted RPC URLs read back (docs/hosted-clients.md "RPC URLs"): the vnet a hosted vnet RPC URL names, by its host's
 * network label and its key or `{account}/{project}/{environment-slug}` path. Shared by the RPC URLs' host routing
 * (rpc/hosted-hosts.ts) and the hosted API's doors (routes/hosted), which may not import each other; reads the store
 * only.
 */
import { isUuid } from "../domain/uuid";
import type { RpcAccess } from "./chains";
import type { EnvironmentRecord, Store, VnetRecord } from "./store";

/** The network label of a vnet's hosted RPC host: the network's vnet RPC slug, else its chain id. */
export function vnetRpcSlugOf(store: Store, vnet: Pick<VnetRecord, "network_id">): string {
  return store.networks.byChainId(vnet.network_id)?.network_slugs.vnet_rpc_slug || vnet.network_id;
}

/** Every environment of a project, newest first (the store pages them; a project holds few). */
export function environmentsOf(store: Store, projectId: string): EnvironmentRecord[] {
  const all: EnvironmentRecord[] = [];
  for (let page = 1; ; page++) {
    const batch = store.environments.page(projectId, page, 100);
    all.push(...batch);
    if (batch.length < 100) return all;
  }
}

/** What a hosted vnet RPC URL's path names. */
export interface HostedRpcTarget {
  readonly vnet: VnetRecord;
  /** The key form names the Admin RPC by its secret and the Public RPC by the vnet id; the slug form is Public. */
  readonly access: RpcAccess;
}

/**
 * The vnet a hosted vnet RPC URL names, from its host's network label and its path segments (percent-decoded):
 * `/{key}` (an Admin secret, or a vnet id for the Public RPC) or `/{account}/{project}/{environment-slug}` (the Public
 * RPC of that environment's vnet on the network; the account as a slug or a principal id). Undefined when nothing
 * matches, or the vnet is on another network than the host names.
 *
 * @example
 * vnetByHostedRpc(store, "mainnet", [adminSecret]) // { vnet, access: "admin" }
 */
export function vnetByHostedRpc(store: Store, network: string, segments: readonly string[]): HostedRpcTarget | undefined {
  const target = targetOf(store, network, segments);
  return target && vnetRpcSlugOf(store, target.vnet) === network ? target : undefined;
}

function targetOf(store: Store, network: string, segments: readonly string[]): HostedRpcTarget | undefined {
  if (segments.length === 1) {
    const [key] = segments;
    const admin = store.environments.vnetBySecret(key);
    if (admin) return { vnet: admin, access: "admin" };
    const vnet = isUuid(key) ? store.environments.vnet(key.toLowerCase()) : undefined;
    return vnet && { vnet, access: "public" };
  }
  if (segments.length !== 3) return undefined;
  const [accountSegment, projectSlug, environmentSlug] = segments;
  const account = isUuid(accountSegment) ? store.accounts.byId(accountSegment.toLowerCase()) : store.accounts.bySlug(accountSegment);
  const project = account && store.projects.bySlug(account.id, projectSlug);
  if (!project) return undefined;
  const record = environmentsOf(store, project.id).find((environment) => environment.slug === environmentSlug);
  const vnet = record?.vnets.find((candidate) => vnetRpcSlugOf(store, candidate) === network);
  return vnet && { vnet, access: "public" };
}
