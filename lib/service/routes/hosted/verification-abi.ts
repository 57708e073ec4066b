/**
 * The ABI-only verification doors of the api-client (`verifyContractABI`): a contract named by an ABI alone, without
 * source, on a network (`…/contract/{network}/{addr}/abi`) or a vnet (`…/testnet/{vnet}/contract/{addr}/abi`). The
 * check is the one the hosted clients expect (they throw `BytecodeMissingMethodSignaturesError` on `error`): every
 * function of the ABI has its selector pushed (PUSH4) in the code deployed at the address. A contract that passes is
 * kept in the project's registry with its name and ABI.
 */
import type { FastifyInstance } from "fastify";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import { Type } from "@sinclair/typebox";
import { ProjectParams } from "../../../api";
import { keccak256 } from "../../../domain/keccak";
import type { JsonRpcResponse } from "../../chains";
import { badRequest, notFound } from "../../errors";
import type { VnetRecord } from "../../store";
import type { Registry } from "../../store/registry";
import { baseUrlOf, projectOf } from "../common";
import { hostedEntry } from "./registry";
import { addressOf, networkIdOf } from "./hosted-shapes";
import { environmentsOf } from "./vnet-view";

const V1 = "/v1/account/:accountSlug/project/:projectSlug";
const AbiBody = Type.Object({
  contract_name: Type.Optional(Type.String({ maxLength: 255 })),
  abi: Type.Union([Type.String({ maxLength: 1024 * 1024 }), Type.Array(Type.Unknown(), { maxItems: 10_000 })]),
  is_public_verification: Type.Optional(Type.Boolean()),
});
const NetworkParams = Type.Composite([
  ProjectParams,
  Type.Object({ network: Type.String({ maxLength: 40 }), address: Type.String({ maxLength: 42 }) }),
]);
const VnetParams = Type.Composite([
  ProjectParams,
  Type.Object({ vnet: Type.String({ maxLength: 200 }), address: Type.String({ maxLength: 42 }) }),
]);

interface AbiFunction {
  readonly type?: string;
  readonly name?: string;
  readonly inputs?: readonly { readonly type?: string; readonly components?: unknown }[];
}

/** Registers the two ABI-only doors on the hosted verification plugin. */
export function abiDoors(app: FastifyInstance, registry: Registry): void {
  const { store, engine } = app.service;
  const routes = app.withTypeProvider<TypeBoxTypeProvider>();
  const codeAt = async (vnet: VnetRecord, address: string): Promise<string> => {
    const answer = (await engine.rpc(
      vnet.id,
      { jsonrpc: "2.0", id: 1, method: "eth_getCode", params: [address, "latest"] },
      "admin",
    )) as JsonRpcResponse;
    return "result" in answer && typeof answer.result === "string" ? answer.result : "0x";
  };
  const check = async (
    projectId: string,
    vnets: readonly VnetRecord[],
    networkId: string,
    address: string,
    body: typeof AbiBody.static,
  ) => {
    const abi = abiOf(body.abi);
    let code = "0x";
    for (const vnet of vnets) if ((code = await codeAt(vnet, address)) !== "0x") break;
    if (code === "0x") return { error: { message: `no contract code at ${address} on network ${networkId} here` } };
    const missing = missingSignatures(abi, code);
    if (missing.length > 0) return { error: { message: `the bytecode lacks the method signatures of ${missing.join(", ")}` } };
    return {
      error: null,
      contract: hostedEntry(
        registry.put(projectId, {
          networkId,
          address,
          kind: "contract",
          contractName: body.contract_name,
          displayName: body.contract_name,
          abi: JSON.stringify(abi),
        }),
      ),
    };
  };

  routes.post(`${V1}/contract/:network/:address/abi`, { schema: { params: NetworkParams, body: AbiBody } }, async (request) => {
    const project = projectOf(request);
    const networkId = networkIdOf(request.params.network, "/network");
    const address = addressOf(request.params.address, "/address");
    const vnets = environmentsOf(store, project.id).flatMap((record) => record.vnets.filter((vnet) => vnet.chain_id === networkId));
    return check(project.id, vnets, networkId, address, request.body);
  });

  routes.post(`${V1}/testnet/:vnet/contract/:address/abi`, { schema: { params: VnetParams, body: AbiBody } }, async (request) => {
    const project = projectOf(request);
    const key = request.params.vnet;
    const vnet = store.environments.vnetBySecret(key) ?? store.environments.vnet(key.toLowerCase());
    if (!vnet || vnet.project_id !== project.id) throw notFound("rid:vnet", "no Virtual TestNet of this project has that id or RPC key");
    const address = addressOf(request.params.address, "/address");
    const answer = await check(project.id, [vnet], vnet.chain_id, address, request.body);
    return { ...answer, display_link: `${baseUrlOf(request)}/explorer/${vnet.id}/address/${address}` };
  });
}

function abiOf(value: string | readonly unknown[]): AbiFunction[] {
  let parsed: unknown = value;
  if (typeof value === "string") {
    try {
      parsed = JSON.parse(value);
    } catch {
      throw badRequest("abi must be a JSON array (an ABI), or that array as text", "/abi");
    }
  }
  if (!Array.isArray(parsed) || parsed.some((entry) => typeof entry !== "object" || entry === null)) {
    throw badRequest("abi must be a JSON array of ABI entries", "/abi");
  }
  return parsed as AbiFunction[];
}

/** The functions of an ABI whose selector the code does not push (PUSH4 selector). */
export function missingSignatures(abi: readonly AbiFunction[], code: string): string[] {
  const lower = code.toLowerCase();
  return abi
    .filter((entry) => entry.type === "function" && typeof entry.name === "string")
    .map((entry) => `${entry.name}(${(entry.inputs ?? []).map(canonicalType).join(",")})`)
    .filter((signature) => !lower.includes(pushOf(selectorOf(signature))));
}

/** The PUSH of a selector as solc writes it: leading zero bytes left out (PUSH4 for most). */
function pushOf(selector: string): string {
  const trimmed = selector.replace(/^(00)+/, "");
  return `${(0x5f + trimmed.length / 2).toString(16)}${trimmed}`;
}

function canonicalType(input: { type?: string; components?: unknown }): string {
  const type = input.type ?? "";
  if (!type.startsWith("tuple")) return type;
  const components = Array.isArray(input.components) ? (input.components as { type?: string; components?: unknown }[]) : [];
  return `(${components.map(canonicalType).join(",")})${type.slice("tuple".length)}`;
}

function selectorOf(signature: string): string {
  return Buffer.from(keccak256(new TextEncoder().encode(signature)).subarray(0, 4)).toString("hex");
}
