import { Type, type Static } from "@sinclair/typebox";
import { Address, DateTime, Hash, HexData, HexQuantity, PaginationQuery } from "./common";
import { CallArgs, SimulationLog } from "./simulations";
import { InstanceParams } from "./environments";

export const TRANSACTION_STATUS_VALUES = ["success", "failed"] as const;
export const TRANSACTION_CATEGORY_VALUES = ["transaction", "cheatcode", "bridge"] as const;
export const TRANSACTION_KIND_VALUES = ["call", "create"] as const;
export type TransactionStatus = (typeof TRANSACTION_STATUS_VALUES)[number];
export type TransactionCategory = (typeof TRANSACTION_CATEGORY_VALUES)[number];
export type TransactionKind = (typeof TRANSACTION_KIND_VALUES)[number];

/** A transaction of an environment instance (decisions.md). */
export const Transaction = Type.Object({
  hash: Hash,
  vnet_id: Type.String(),
  network_id: Type.String(),
  block_number: HexQuantity,
  from: Address,
  to: Type.Union([Address, Type.Null()]),
  value: HexQuantity,
  input: HexData,
  gas_used: HexQuantity,
  status: Type.Union(TRANSACTION_STATUS_VALUES.map((v) => Type.Literal(v))),
  category: Type.Union(TRANSACTION_CATEGORY_VALUES.map((v) => Type.Literal(v))),
  kind: Type.Union(TRANSACTION_KIND_VALUES.map((v) => Type.Literal(v))),
  contract_address: Type.Union([Address, Type.Null()]),
  logs: Type.Array(SimulationLog),
  created_at: DateTime,
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

/** GET .../transactions answer, newest first. */
export const TransactionList = Type.Object({ transactions: Type.Array(Transaction) });
export type TransactionList = Static<typeof TransactionList>;

/** GET .../transactions/{txHash} answer. */
export const TransactionResponse = Type.Object({ transaction: Transaction });
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
