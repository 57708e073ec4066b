/**
 * Node gateways (docs/hosted-clients.md "Node gateways"): `https://{network}.gateway.tenderly.co/{access key}` reads a
 * chain of that network, one per network for the whole service: the fork of the network's upstream when the service
 * has one (pinned at its head when first used), else a fresh chain. It is an environment of one network named
 * `gateway-{network}` in the seed's default project, made by the same operations as a hosted vnet, and reached only
 * through its Public RPC (no accounts: what a node offers). This plugin hands the RPC URLs' host routing the
 * function that finds or makes it (`ServiceContext.gatewayVnet`).
 */
import type { FastifyInstance } from "fastify";
import { environmentsOf } from "../../hosted-urls";
import { defaultProject } from "../../seed";
import { createVnetEnvironment } from "./vnets";

/** The slug of a network's gateway environment. */
export function gatewaySlug(network: string): string {
  return `gateway-${network}`;
}

/** Provides `app.service.gatewayVnet`: concurrent first calls for a network share one creation. */
export default async function gatewayRoutes(app: FastifyInstance): Promise<void> {
  const { store } = app.service;
  const pending = new Map<string, Promise<string | undefined>>();
  const made = new Map<string, string>();

  async function findOrMake(network: string): Promise<string | undefined> {
    const chain = store.networks.list().find((n) => n.network_slugs.node_rpc_slug === network || n.chain_id === network);
    const { account, project: projectSlug } = defaultProject(store);
    const owner = store.accounts.bySlug(account);
    const project = owner && store.projects.bySlug(owner.id, projectSlug);
    if (!chain || !project) return undefined;
    const slug = gatewaySlug(network);
    const existing = environmentsOf(store, project.id).find((environment) => environment.slug === slug);
    if (existing) return existing.vnets[0].id;
    const body = { slug, display_name: `Node gateway (${chain.network_name})`, fork_config: { network_id: chain.chain_id } };
    return (await createVnetEnvironment(app, project.id, body)).vnets[0].id;
  }

  app.service.gatewayVnet = async (network) => {
    const known = made.get(network);
    // Someone may delete the environment (it is in a project): then the next call makes it again.
    if (known !== undefined && store.environments.vnet(known)) return known;
    let making = pending.get(network);
    if (!making) {
      making = findOrMake(network).finally(() => pending.delete(network));
      pending.set(network, making);
    }
    const vnetId = await making;
    if (vnetId !== undefined) made.set(network, vnetId);
    return vnetId;
  };
}
