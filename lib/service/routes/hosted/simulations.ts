/**
 * Simulation as the hosted SDK calls it (docs/hosted-clients.md "Simulations"): `POST /v2/…/simulations/simulate`
 * (one transaction) and `…/simulate/bundle` (transactions in order on one state, stopping after the first that
 * fails), with `call_args`, `block_number_or_hash` and `overrides{addr:{balance, nonce, code, state_diff}}`, answered
 * in snake_case with numbers; and `POST /v1/…/contracts/encode-states`, which turns the SDK's storage overrides into
 * slots. Both run on the engine's network simulation (a single transaction is a bundle of one); this door only
 * converts shapes, here, once.
 */
import type { FastifyInstance } from "fastify";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import { Type, type Static } from "@sinclair/typebox";
import { ProjectParams, type StateChange, type VnetSimulationResult } from "../../../api";
import { MAX_UINT256 } from "../../../domain/amounts";
import { parseBlockNumber } from "../../../domain/chain";
import type { AccountOverride, BundleCall } from "../../chains";
import { ChainRequestError, type NetworkBundle } from "../../chains";
import { badRequest } from "../../errors";
import { projectOf } from "../common";
import { checkSimulatorNetwork } from "../simulations";
import { addressOf, HostedNetworkId, networkIdOf } from "./hosted-shapes";

/** Most transactions in one bundle: each is traced twice on the replica. */
export const MAX_BUNDLE_TRANSACTIONS = 32;
/** Most overridden accounts, and storage slots per account, in one request. */
export const MAX_OVERRIDDEN_ACCOUNTS = 100;
export const MAX_OVERRIDDEN_SLOTS = 1000;

const V2 = "/v2/account/:accountSlug/project/:projectSlug/simulations";
/** A quantity as the SDK sends it: a number, a decimal string or a hex string. */
const Quantity = Type.Union([Type.Integer({ minimum: 0 }), Type.String({ pattern: "^(0x[0-9a-fA-F]{1,64}|[0-9]{1,78})$" })]);
const Address = Type.String({ pattern: "^0x[0-9a-fA-F]{40}$" });
const AccessListEntry = Type.Object({
  address: Type.Optional(Address),
  value_address: Type.Optional(Address),
  storage_keys: Type.Optional(Type.Array(Type.String({ maxLength: 66 }), { maxItems: 1000 })),
  value_storage_keys: Type.Optional(Type.Array(Type.String({ maxLength: 66 }), { maxItems: 1000 })),
});
const CallArgs = Type.Object({
  from: Type.Optional(Type.Union([Address, Type.Null()])),
  to: Type.Optional(Type.Union([Address, Type.Null()])),
  gas: Type.Optional(Type.Union([Quantity, Type.Null()])),
  gas_price: Type.Optional(Type.Union([Quantity, Type.Null()])),
  max_fee_per_gas: Type.Optional(Type.Union([Quantity, Type.Null()])),
  max_priority_fee_per_gas: Type.Optional(Type.Union([Quantity, Type.Null()])),
  value: Type.Optional(Type.Union([Quantity, Type.Null()])),
  data: Type.Optional(Type.Union([Type.String({ pattern: "^0x([0-9a-fA-F]{2})*$" }), Type.Null()])),
  access_list: Type.Optional(Type.Union([Type.Array(AccessListEntry, { maxItems: 1000 }), Type.Null()])),
});
const Override = Type.Object({
  balance: Type.Optional(Quantity),
  nonce: Type.Optional(Quantity),
  code: Type.Optional(Type.String({ pattern: "^0x([0-9a-fA-F]{2})*$" })),
  state_diff: Type.Optional(Type.Record(Type.String({ maxLength: 66 }), Quantity)),
});
const Common = {
  network_id: HostedNetworkId,
  block_number_or_hash: Type.Optional(
    Type.Union([Type.Object({ blockNumber: Type.Optional(Type.Union([Quantity, Type.Null()])) }), Type.Null()]),
  ),
  block_number: Type.Optional(Type.Union([Quantity, Type.Null()])),
  overrides: Type.Optional(Type.Union([Type.Record(Type.String(), Override), Type.Null()])),
};
const SimulateBody = Type.Object({ ...Common, call_args: CallArgs });
const BundleBody = Type.Object({ ...Common, call_args: Type.Array(CallArgs, { minItems: 1, maxItems: MAX_BUNDLE_TRANSACTIONS }) });
const EncodeStatesBody = Type.Object({
  networkID: Type.Optional(HostedNetworkId),
  stateOverrides: Type.Record(
    Type.String(),
    Type.Object({ value: Type.Optional(Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()])) }),
  ),
});

type CallArgs = Static<typeof CallArgs>;
type CommonBody = Static<typeof SimulateBody> | Static<typeof BundleBody>;

/** The simulation routes of the hosted door. */
export default async function hostedSimulationRoutes(app: FastifyInstance): Promise<void> {
  const { store, engine } = app.service;
  const routes = app.withTypeProvider<TypeBoxTypeProvider>();
  const run = async (body: CommonBody, calls: readonly CallArgs[], fieldOf: (index: number) => string) => {
    const networkId = networkIdOf(body.network_id, "/network_id");
    checkSimulatorNetwork(store, networkId);
    if (!engine.simulateBundleOnNetwork) throw new ChainRequestError(402, "this service's chain engine does not simulate bundles");
    const bundle: NetworkBundle = {
      calls: calls.map((call, index) => bundleCall(call, fieldOf(index))),
      blockNumber: blockOf(body),
      overrides: overridesOf(body.overrides),
    };
    return (await engine.simulateBundleOnNetwork(networkId, bundle)).map(hostedResult);
  };

  routes.post(`${V2}/simulate`, { schema: { params: ProjectParams, body: SimulateBody } }, async (request) => {
    projectOf(request);
    const [result] = await run(request.body, [request.body.call_args], () => "/call_args");
    return result;
  });

  routes.post(`${V2}/simulate/bundle`, { schema: { params: ProjectParams, body: BundleBody } }, async (request) => {
    projectOf(request);
    return { simulations: await run(request.body, request.body.call_args, (index) => `/call_args/${index}`) };
  });

  routes.post(
    "/v1/account/:accountSlug/project/:projectSlug/contracts/encode-states",
    { schema: { params: ProjectParams, body: EncodeStatesBody } },
    async (request) => {
      projectOf(request);
      if (request.body.networkID !== undefined) networkIdOf(request.body.networkID, "/networkID");
      const stateOverrides: Record<string, { value: Record<string, string> }> = {};
      const accounts = Object.entries(request.body.stateOverrides);
      if (accounts.length > MAX_OVERRIDDEN_ACCOUNTS)
        throw badRequest(`stateOverrides: at most ${MAX_OVERRIDDEN_ACCOUNTS} accounts`, "/stateOverrides");
      for (const [address, { value }] of accounts) {
        const at = `/stateOverrides/${address}/value`;
        stateOverrides[addressOf(address, `/stateOverrides/${address}`)] = { value: encodedSlots(value ?? {}, at) };
      }
      return { stateOverrides };
    },
  );
}

/** A simulation result as the SDK reads it: snake_case, numbers for quantities. */
export function hostedResult(result: VnetSimulationResult & { stateChanges?: StateChange[] }): Record<string, unknown> {
  return {
    status: result.status,
    gas_used: Number(BigInt(result.gasUsed)),
    cumulative_gas_used: Number(BigInt(result.cumulativeGasUsed)),
    block_number: Number(BigInt(result.blockNumber)),
    type: Number(BigInt(result.type)),
    logs_bloom: result.logsBloom,
    logs: result.logs,
    trace: result.trace.map((entry) => ({
      type: entry.type,
      from: entry.from,
      to: entry.to,
      gas: Number(BigInt(entry.gas)),
      gas_used: Number(BigInt(entry.gasUsed)),
      value: entry.value,
      input: entry.input,
      output: entry.output,
      method: entry.method,
      decoded_input: entry.decodedInput,
      decoded_output: entry.decodedOutput,
      subtraces: entry.subtraces,
      trace_address: entry.traceAddress,
    })),
    // As the hosted API answers them under `transaction_info`, unpriced: no price is known offline.
    asset_changes: result.assetChanges ?? [],
    balance_changes: result.balanceChanges ?? [],
    // chainform's shape (as the environment-instance simulation answers it): balance, nonce and storage writes.
    state_changes: result.stateChanges ?? [],
  };
}

function bundleCall(call: CallArgs, field: string): BundleCall {
  const accessList = call.access_list?.map((entry, index) => {
    const address = entry.address ?? entry.value_address;
    if (!address) throw badRequest(`${field.slice(1)}/access_list/${index}: address is required`, `${field}/access_list/${index}/address`);
    return {
      address: address.toLowerCase(),
      storageKeys: (entry.storage_keys ?? entry.value_storage_keys ?? []).map((key) => slotOf(key, `${field}/access_list/${index}`)),
    };
  });
  return {
    callArgs: {
      ...(call.from ? { from: call.from.toLowerCase() } : {}),
      ...(call.to ? { to: call.to.toLowerCase() } : {}),
      ...(call.gas ? { gas: quantity(call.gas) } : {}),
      ...(call.gas_price ? { gasPrice: quantity(call.gas_price) } : {}),
      ...(call.value ? { value: quantity(call.value) } : {}),
      data: call.data ?? "0x",
    },
    ...(accessList && accessList.length > 0 ? { accessList } : {}),
    feeCaps: {
      ...(call.max_fee_per_gas ? { maxFeePerGas: quantity(call.max_fee_per_gas) } : {}),
      ...(call.max_priority_fee_per_gas ? { maxPriorityFeePerGas: quantity(call.max_priority_fee_per_gas) } : {}),
    },
  };
}

function blockOf(body: CommonBody): bigint | undefined {
  const value = body.block_number_or_hash?.blockNumber ?? body.block_number ?? undefined;
  if (value === undefined || value === null) return undefined;
  const parsed = parseBlockNumber(value);
  if ("error" in parsed) throw badRequest(`block_number_or_hash.blockNumber: ${parsed.error}`, "/block_number_or_hash/blockNumber");
  return parsed.blockNumber;
}

/** The SDK's overrides as the engine's state overrides: every field (balance, nonce, code, storage slots). */
function overridesOf(overrides: CommonBody["overrides"]): Record<string, AccountOverride> | undefined {
  if (!overrides) return undefined;
  const entries = Object.entries(overrides);
  if (entries.length > MAX_OVERRIDDEN_ACCOUNTS) throw badRequest(`overrides: at most ${MAX_OVERRIDDEN_ACCOUNTS} accounts`, "/overrides");
  const result: Record<string, AccountOverride> = {};
  for (const [address, override] of entries) {
    const at = `/overrides/${address}`;
    const slots = Object.entries(override.state_diff ?? {});
    if (slots.length > MAX_OVERRIDDEN_SLOTS)
      throw badRequest(`overrides: at most ${MAX_OVERRIDDEN_SLOTS} slots per account`, `${at}/state_diff`);
    result[addressOf(address, at)] = {
      ...(override.balance !== undefined ? { balance: quantity(override.balance) } : {}),
      ...(override.nonce !== undefined ? { nonce: quantity(override.nonce) } : {}),
      ...(override.code !== undefined ? { code: override.code } : {}),
      ...(slots.length > 0
        ? { stateDiff: Object.fromEntries(slots.map(([slot, value]) => [slotOf(slot, `${at}/state_diff`), word(value)])) }
        : {}),
    };
  }
  return result;
}

/**
 * The SDK's `state` overrides as storage slots. Keys must be slots (a hex or decimal number below 2^256); the values
 * numbers, hex or decimal, or booleans. Solidity variable names need the contract's storage layout, which this
 * service does not keep: such a key is a 400 that says to send the slot.
 */
function encodedSlots(values: Record<string, unknown>, field: string): Record<string, string> {
  const entries = Object.entries(values);
  if (entries.length > MAX_OVERRIDDEN_SLOTS) throw badRequest(`at most ${MAX_OVERRIDDEN_SLOTS} slots per account`, field);
  return Object.fromEntries(
    entries.map(([key, value]) => {
      const encoded = typeof value === "boolean" ? (value ? 1n : 0n) : bigintOf(value);
      if (encoded === undefined) throw badRequest(`${field.slice(1)}: a value must be a number, hex or decimal, or a boolean`, field);
      return [slotOf(key, field), word(encoded)];
    }),
  );
}

function slotOf(key: string, field: string): string {
  const slot = bigintOf(key);
  if (slot === undefined) {
    throw badRequest(
      `${field.slice(1)}: a key must be a storage slot (hex or decimal below 2^256); variable names are not encoded here: send the slot`,
      field,
    );
  }
  return word(slot);
}

function bigintOf(value: unknown): bigint | undefined {
  if (typeof value === "number" && Number.isSafeInteger(value) && value >= 0) return BigInt(value);
  if (typeof value !== "string" || !/^(0x[0-9a-fA-F]{1,64}|[0-9]{1,78})$/.test(value)) return undefined;
  const parsed = BigInt(value);
  return parsed <= MAX_UINT256 ? parsed : undefined;
}

/** A 32-byte word, hex. */
function word(value: string | number | bigint): string {
  return `0x${BigInt(value).toString(16).padStart(64, "0")}`;
}

/** A quantity (number, decimal or hex string) as canonical hex. */
function quantity(value: string | number): string {
  return `0x${BigInt(value).toString(16)}`;
}
