/**
 * The contract and wallet registry as the hosted clients call it (docs/hosted-clients.md "Contracts and wallets"):
 * add an address or a wallet, tag, rename, remove, and the v2 listing with its filters. Under the hosted base path;
 * the account segment is resolved before these routes see it (./account.ts), and the project is found with the
 * spec's access rule (`projectOf`). The registry itself lives in the store (store/registry.ts).
 */
import type { FastifyInstance, FastifyReply } from "fastify";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import { Type } from "@sinclair/typebox";
import { ProjectParams } from "../../../api";
import { badRequest, notFound } from "../../errors";
import { Registry, type RegistryEntry, type RegistryKind } from "../../store/registry";
import { projectOf } from "../common";
import { addressOf, HostedNetworkId, networkIdOf, parseRegistryId, queryList, registryIdOf } from "./hosted-shapes";

/** Most addresses a project's registry keeps: each listing reads them all. */
export const MAX_REGISTRY_ENTRIES = 10_000;
/** Longest display name or tag. */
export const MAX_REGISTRY_NAME_LENGTH = 255;
/** Most tags on one entry. */
export const MAX_TAGS_PER_ENTRY = 100;

const KINDS: readonly RegistryKind[] = ["contract", "unverified_contract", "wallet"];
const V1 = "/v1/account/:accountSlug/project/:projectSlug";
const Name = Type.String({ maxLength: MAX_REGISTRY_NAME_LENGTH });
const EntryParams = Type.Composite([
  ProjectParams,
  Type.Object({ network: Type.String({ maxLength: 40 }), address: Type.String({ maxLength: 42 }) }),
]);

const AddAddressBody = Type.Object({
  address: Type.String({ maxLength: 42 }),
  network_id: HostedNetworkId,
  display_name: Type.Optional(Name),
  unverified: Type.Optional(Type.Boolean()),
});
const AddWalletBody = Type.Object({
  address: Type.String({ maxLength: 42 }),
  display_name: Type.Optional(Name),
  network_ids: Type.Array(HostedNetworkId, { minItems: 1, maxItems: 100 }),
  return_existing: Type.Optional(Type.Boolean()),
});
const TagBody = Type.Object({
  contract_ids: Type.Array(Type.String({ maxLength: 100 }), { minItems: 1, maxItems: 100 }),
  tag: Type.String({ minLength: 1, maxLength: MAX_REGISTRY_NAME_LENGTH }),
});
const RenameBody = Type.Object({ display_name: Name });
const RemoveBody = Type.Object({ account_ids: Type.Array(Type.String({ maxLength: 100 }), { maxItems: 1000 }) });

/** An entry as the hosted clients read it (the SDK reads `contract` or `account`, `display_name` and `tags[].tag`). */
export function hostedEntry(entry: RegistryEntry): Record<string, unknown> {
  const id = registryIdOf(entry.networkId, entry.address);
  const account = { id, address: entry.address, network_id: entry.networkId };
  const contract =
    entry.kind === "wallet"
      ? undefined
      : { ...account, contract_id: id, contract_name: entry.contractName, verification_date: null, in_project: true };
  return {
    id,
    account_type: entry.kind,
    type: entry.kind,
    display_name: entry.displayName,
    tags: entry.tags.map((tag) => ({ tag })),
    added_at: entry.createdAt,
    account,
    ...(contract && { contract }),
  };
}

/** The registry routes. */
export default async function registryRoutes(app: FastifyInstance): Promise<void> {
  const registry = new Registry(app.service.store.db);
  const routes = app.withTypeProvider<TypeBoxTypeProvider>();
  const roomFor = (projectId: string, networkId: string, address: string) => {
    if (!registry.get(projectId, networkId, address) && registry.list(projectId).length >= MAX_REGISTRY_ENTRIES) {
      throw badRequest(`the project keeps at most ${MAX_REGISTRY_ENTRIES} contracts and wallets: remove some first`);
    }
  };
  const entryAt = (projectId: string, networkId: string, address: string) => {
    const entry = registry.get(projectId, networkId, address);
    if (!entry) throw notFound("rid:project", `the project keeps no contract or wallet ${address} on network ${networkId}`);
    return entry;
  };

  routes.post(`${V1}/address`, { schema: { params: ProjectParams, body: AddAddressBody } }, async (request) => {
    const project = projectOf(request);
    const networkId = networkIdOf(request.body.network_id, "/network_id");
    const address = addressOf(request.body.address, "/address");
    roomFor(project.id, networkId, address);
    // Only an explicit `unverified: true` keeps a contract out of the SDK's `types[]=contract` listings.
    const kind = request.body.unverified === true ? "unverified_contract" : "contract";
    return hostedEntry(registry.put(project.id, { networkId, address, kind, displayName: request.body.display_name }));
  });

  routes.post(`${V1}/wallet`, { schema: { params: ProjectParams, body: AddWalletBody } }, async (request) => {
    const project = projectOf(request);
    const address = addressOf(request.body.address, "/address");
    const networkIds = request.body.network_ids.map((id, index) => networkIdOf(id, `/network_ids/${index}`));
    return networkIds.map((networkId) => {
      roomFor(project.id, networkId, address);
      return hostedEntry(registry.put(project.id, { networkId, address, kind: "wallet", displayName: request.body.display_name }));
    });
  });

  routes.post(`${V1}/tag`, { schema: { params: ProjectParams, body: TagBody } }, async (request) => {
    const project = projectOf(request);
    const ids = request.body.contract_ids.map((id, index) => parseRegistryId(id, `/contract_ids/${index}`));
    for (const { networkId, address } of ids) {
      if (entryAt(project.id, networkId, address).tags.length >= MAX_TAGS_PER_ENTRY) {
        throw badRequest(`${address} has ${MAX_TAGS_PER_ENTRY} tags, the most an entry keeps`, "/tag");
      }
    }
    for (const { networkId, address } of ids) registry.tag(project.id, networkId, address, request.body.tag);
    return { tag: request.body.tag, contract_ids: ids.map(({ networkId, address }) => registryIdOf(networkId, address)) };
  });

  routes.post(`${V1}/contract/:network/:address/rename`, { schema: { params: EntryParams, body: RenameBody } }, async (request) => {
    const project = projectOf(request);
    const networkId = networkIdOf(request.params.network, "/network");
    const address = addressOf(request.params.address, "/address");
    entryAt(project.id, networkId, address);
    registry.rename(project.id, networkId, address, request.body.display_name);
    return hostedEntry(entryAt(project.id, networkId, address));
  });

  routes.delete(`${V1}/contract/:network/:address`, { schema: { params: EntryParams } }, async (request, reply) => {
    const project = projectOf(request);
    const networkId = networkIdOf(request.params.network, "/network");
    const address = addressOf(request.params.address, "/address");
    if (!registry.remove(project.id, networkId, address)) entryAt(project.id, networkId, address);
    return noContent(reply);
  });

  routes.delete(`${V1}/contracts`, { schema: { params: ProjectParams, body: RemoveBody } }, async (request, reply) => {
    const project = projectOf(request);
    const ids = request.body.account_ids.map((id, index) => parseRegistryId(id, `/account_ids/${index}`));
    // Removing what is not there is no error: the caller wants it gone, and it is.
    for (const { networkId, address } of ids) registry.remove(project.id, networkId, address);
    return noContent(reply);
  });

  routes.get("/v2/accounts/:accountSlug/projects/:projectSlug/accounts", { schema: { params: ProjectParams } }, async (request) => {
    const project = projectOf(request);
    const kinds = queryList(request.query, "types");
    const unknown = kinds.find((kind) => !KINDS.includes(kind as RegistryKind));
    if (unknown !== undefined) {
      throw badRequest(`query parameter types[] takes ${KINDS.join(", ")}`, "/types", { location: "query" });
    }
    const entries = registry.list(project.id, {
      addresses: queryList(request.query, "addresses"),
      networkIds: queryList(request.query, "networkIDs").map((id) => networkIdOf(id, "/networkIDs")),
      kinds: kinds as RegistryKind[],
      displayNames: queryList(request.query, "display_names"),
      tags: queryList(request.query, "tags"),
    });
    return { accounts: entries.map(hostedEntry) };
  });

  routes.get(`${V1}/contracts`, { schema: { params: ProjectParams } }, async (request) => {
    const project = projectOf(request);
    const accountType = (request.query as Record<string, unknown>).accountType;
    const kinds: RegistryKind[] = accountType === "wallet" ? ["wallet"] : ["contract", "unverified_contract"];
    return registry.list(project.id, { kinds }).map((entry) => {
      const shown = hostedEntry(entry);
      return { ...((shown.contract ?? shown.account) as object), display_name: entry.displayName };
    });
  });
}

function noContent(reply: FastifyReply): FastifyReply {
  return reply.code(204).send();
}
