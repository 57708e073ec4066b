/**
 * ABIs for contracts nobody verified (a local extra of chainform's service, docs/explorer-and-dashboard.md):
 * `POST .../instance/{instanceId}/vnet/{vnetId}/abis` adds (or replaces) the ABI of an address, given as a plain ABI, a
 * Foundry artifact or a Hardhat artifact (the file's JSON text); `GET` on the same path lists them. The explorer and
 * the dashboard decode the address's calls and events with it; a contract verified on the explorer keeps its verified
 * ABI.
 */
import type { FastifyInstance } from "fastify";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import { Type, type Static } from "@sinclair/typebox";
import { Address, InstanceVnetParams } from "../../../api";
import { MAX_ABI_JSON_LENGTH, parseAbiFile } from "../../../domain/abi-files";
import { badRequest } from "../../errors";
import { UserAbis, type UserAbiRow } from "../../store/abis";
import { projectOf, replies } from "../common";
import { ENVIRONMENTS_PATH } from "../environments";
import { instanceVnetOf } from "../environments/instance";

const ABIS_PATH = `${ENVIRONMENTS_PATH}/:environmentId/instance/:instanceId/vnet/:vnetId/abis`;
/** The body may carry the largest ABI JSON-escaped, with room for the rest. */
const ABI_BODY_LIMIT = 3 * MAX_ABI_JSON_LENGTH;

/** What `POST .../abis` takes. */
const AddAbiRequest = Type.Object(
  {
    address: Address,
    abi: Type.String({
      description: "the JSON text of a plain ABI, a Foundry artifact or a Hardhat artifact",
      maxLength: MAX_ABI_JSON_LENGTH,
    }),
    name: Type.Optional(Type.String({ maxLength: 200, description: "the contract's name; default: the artifact's" })),
  },
  { additionalProperties: false },
);

/** An ABI added for an address, as the API answers it. */
const UserAbi = Type.Object({
  vnet_id: Type.String(),
  address: Type.String(),
  name: Type.String(),
  functions: Type.Integer(),
  events: Type.Integer(),
  added_at: Type.String(),
});
type UserAbi = Static<typeof UserAbi>;

/** The ABI routes. */
export default async function abiRoutes(app: FastifyInstance): Promise<void> {
  const { store } = app.service;
  const abis = new UserAbis(store.db);
  const routes = app.withTypeProvider<TypeBoxTypeProvider>();

  routes.post(
    ABIS_PATH,
    { bodyLimit: ABI_BODY_LIMIT, schema: { params: InstanceVnetParams, body: AddAbiRequest, response: replies({ 200: UserAbi }) } },
    async (request) => {
      const vnet = instanceVnetOf(store, projectOf(request).id, request.params);
      const parsed = parseAbiFile(request.body.abi);
      if ("error" in parsed) throw badRequest(`abi: ${parsed.error}`, "abi");
      const name = request.body.name ?? parsed.name;
      if (name !== "" && !/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name)) throw badRequest("name must be a Solidity identifier", "name");
      const row = abis.save(vnet.id, request.body.address, name, JSON.stringify(parsed.abi), new Date().toISOString());
      return render(row);
    },
  );

  routes.get(ABIS_PATH, { schema: { params: InstanceVnetParams, response: replies({ 200: Type.Array(UserAbi) }) } }, async (request) => {
    const vnet = instanceVnetOf(store, projectOf(request).id, request.params);
    return abis.list(vnet.id).map(render);
  });
}

function render(row: UserAbiRow): UserAbi {
  const entries = JSON.parse(row.abi) as { type?: string }[];
  return {
    vnet_id: row.vnetId,
    address: row.address,
    name: row.name,
    functions: entries.filter((e) => (e.type ?? "function") === "function").length,
    events: entries.filter((e) => e.type === "event").length,
    added_at: row.addedAt,
  };
}
