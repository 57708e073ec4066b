import { Type, type Static, type TSchema } from "@sinclair/typebox";
import { Address, DateTime, Hash, HexData, HexQuantity, PaginationQuery } from "./common";
import { AssetChange, BalanceChange, CallArgs, SimulationLog, StateChange } from "./simulations";
import { InstanceParams } from "./environments";
import {
  TRANSACTION_CATEGORY_VALUES,
  TRANSACTION_KIND_VALUES,
  TRANSACTION_ORIGIN_VALUES,
  TRANSACTION_STATUS_VALUES,
} from "../domain/transactions";

export * from "../domain/transactions";

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/**
 * A transaction of an environment instance: the hosted service's documented record (docs/service.md
 * "Transaction record"). Quantities are hex; what a record cannot have (the block of a cheatcode that mined
 * nothing, the fees of a legacy transaction) is null. `logs`, `contract_address` and `network_id` are local
 * extras: optional, and nothing of ours depends on them.
 */
export const Transaction = Type.Object({
  id: Type.String({ description: "Identifier of the record" }),
  vnet_id: Type.String(),
  origin: Type.Union(TRANSACTION_ORIGIN_VALUES.map((v) => Type.Literal(v))),
  category: Type.Union(TRANSACTION_CATEGORY_VALUES.map((v) => Type.Literal(v))),
  kind: Type.Union(TRANSACTION_KIND_VALUES.map((v) => Type.Literal(v))),
  status: Type.Union(TRANSACTION_STATUS_VALUES.map((v) => Type.Literal(v))),
  error_reason: Nullable(Type.String()),
  reverted: Type.Boolean(),
  rpc_method: Type.String({ description: "The JSON-RPC method that made it, e.g. eth_sendTransaction" }),
  created_at: DateTime,
  dashboard_url: Type.String(),
  block_number: Nullable(HexQuantity),
  block_hash: Nullable(Hash),
  tx_hash: Hash,
  tx_index: Nullable(HexQuantity),
  from: Address,
  to: Nullable(Address),
  input: HexData,
  nonce: Nullable(HexQuantity),
  value: HexQuantity,
  gas: Nullable(HexQuantity),
  gas_price: Nullable(HexQuantity),
  max_priority_fee_per_gas: Nullable(HexQuantity),
  max_fee_per_gas: Nullable(HexQuantity),
  type: Nullable(HexQuantity),
  function_name: Nullable(Type.String()),
  network_id: Type.Optional(Type.String({ description: "chainform extra: the forked network's chain id" })),
  gas_used: Type.Optional(HexQuantity),
  contract_address: Type.Optional(Nullable(Address)),
  logs: Type.Optional(Type.Array(SimulationLog)),
  asset_changes: Type.Optional(Type.Array(AssetChange, { description: "chainform extra, on one record's read" })),
  balance_changes: Type.Optional(Type.Array(BalanceChange, { description: "chainform extra, on one record's read" })),
  state_changes: Type.Optional(
    Type.Array(StateChange, { description: "chainform extra, on one record's read while the chain can still trace the transaction" }),
  ),
});
export type Transaction = Static<typeof Transaction>;

/** GET .../transactions query: pagination and filters. */
export const ListTransactionsQuery = Type.Composite(
  [
    PaginationQuery,
    Type.Object({
      status: Type.Optional(Type.Union(TRANSACTION_STATUS_VALUES.map((v) => Type.Literal(v)))),
      category: Type.Optional(Type.Union(TRANSACTION_CATEGORY_VALUES.map((v) => Type.Literal(v)))),
      kind: Type.Optional(Type.Union(TRANSACTION_KIND_VALUES.map((v) => Type.Literal(v)))),
      from: Type.Optional(Address),
      to: Type.Optional(Address),
    }),
  ],
  { additionalProperties: false },
);
export type ListTransactionsQuery = Static<typeof ListTransactionsQuery>;

/** GET .../transactions answer, newest first: a bare array, as documented. */
export const TransactionList = Type.Array(Transaction);
export type TransactionList = Static<typeof TransactionList>;

/** GET .../transactions/{txHash} and send answers: the record itself, bare, as documented. */
export const TransactionResponse = Transaction;
export type TransactionResponse = Static<typeof TransactionResponse>;

/** POST .../vnet/{vnetId}/transactions body: `from` is required. */
export const SendTransactionRequest = Type.Object(
  {
    callArgs: Type.Composite([Type.Omit(CallArgs, ["from"]), Type.Object({ from: Address })], {
      additionalProperties: false,
    }),
  },
  { additionalProperties: false },
);
export type SendTransactionRequest = Static<typeof SendTransactionRequest>;

/** GET .../instance/{instanceId}/transactions/{txHash} path parameters. */
export const TransactionParams = Type.Composite([InstanceParams, Type.Object({ txHash: Hash })]);
export type TransactionParams = Static<typeof TransactionParams>;
