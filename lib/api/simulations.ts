import { Type, type Static } from "@sinclair/typebox";
import { Address, DateTime, HexData, HexQuantity, PaginationQuery, ProjectParams, Uuid } from "./common";

/** Virtual Environment simulation call arguments (`callArgs`): hex-encoded strings. */
export const CallArgs = Type.Object(
  {
    from: Type.Optional(Address),
    to: Type.Optional(Address),
    gas: Type.Optional(HexQuantity),
    gasPrice: Type.Optional(HexQuantity),
    value: Type.Optional(HexQuantity),
    data: Type.Optional(HexData),
  },
  { additionalProperties: false },
);
export type CallArgs = Static<typeof CallArgs>;

/**
 * Block overrides of a simulation: `number` and `timestamp` (spec); `time` is the same as `timestamp`, as the
 * hosted service's environment-instance simulate documents it (docs/service.md).
 */
export const BlockOverrides = Type.Object(
  { number: Type.Optional(HexQuantity), timestamp: Type.Optional(HexQuantity), time: Type.Optional(HexQuantity) },
  { additionalProperties: false },
);
export type BlockOverrides = Static<typeof BlockOverrides>;

/** State overrides keyed by address; each entry overrides the balance. */
export const StateOverrides = Type.Record(
  Type.String({ pattern: "^0x[0-9a-fA-F]{40}$" }),
  Type.Object({ balance: Type.Optional(HexQuantity) }, { additionalProperties: false }),
  { additionalProperties: false },
);
export type StateOverrides = Static<typeof StateOverrides>;

/** Body of a Virtual Environment simulation (vnet level and instance level). */
export const VnetSimulationRequest = Type.Object(
  {
    callArgs: Type.Optional(CallArgs),
    blockNumber: Type.Optional(HexQuantity),
    blockOverrides: Type.Optional(BlockOverrides),
    stateOverrides: Type.Optional(StateOverrides),
  },
  { additionalProperties: false },
);
export type VnetSimulationRequest = Static<typeof VnetSimulationRequest>;

/** A decoded argument: `{ name, type, value }`. Boolean outputs keep a boolean value. */
export const DecodedArgument = Type.Object({
  name: Type.String(),
  type: Type.String(),
  value: Type.Union([Type.String(), Type.Boolean()]),
});
export type DecodedArgument = Static<typeof DecodedArgument>;

/** A raw log. */
export const RawLog = Type.Object({ address: Address, data: HexData, topics: Type.Array(Type.String()) });
export type RawLog = Static<typeof RawLog>;

/** A simulation log entry: raw, plus `name`/`inputs` when the event's ABI is known (empty otherwise). */
export const SimulationLog = Type.Object({
  anonymous: Type.Boolean(),
  inputs: Type.Array(Type.Object({ name: Type.String(), type: Type.String(), value: Type.String() })),
  name: Type.String(),
  raw: RawLog,
});
export type SimulationLog = Static<typeof SimulationLog>;

/** A flattened call trace entry. */
export const TraceEntry = Type.Object({
  decodedInput: Type.Array(DecodedArgument),
  decodedOutput: Type.Array(DecodedArgument),
  from: Type.String(),
  to: Type.String(),
  gas: Type.String(),
  gasUsed: Type.String(),
  input: Type.String(),
  output: Type.String(),
  value: Type.String(),
  method: Type.String(),
  subtraces: Type.Integer({ minimum: 0 }),
  traceAddress: Type.Array(Type.Integer({ minimum: 0 })),
  type: Type.String({ description: "CALL, DELEGATECALL, STATICCALL, CREATE, ..." }),
});
export type TraceEntry = Static<typeof TraceEntry>;

/**
 * One movement of ether or a token (the hosted service's `asset_changes` entry; lib/domain/asset-changes.ts). No
 * `dollar_value`: chainform knows no prices offline.
 */
export const AssetChange = Type.Object({
  token_info: Type.Object({
    standard: Type.String({ description: "NativeCurrency, ERC20, ERC721 or ERC1155" }),
    type: Type.String({ description: "Native, Fungible or Non-Fungible" }),
    contract_address: Address,
    symbol: Type.Optional(Type.String()),
    name: Type.Optional(Type.String()),
    decimals: Type.Optional(Type.Integer({ minimum: 0 })),
  }),
  type: Type.String({ description: "Transfer, Mint or Burn" }),
  from: Address,
  to: Address,
  amount: Type.Optional(Type.String({ description: "In the token's units, when its decimals are known" })),
  raw_amount: HexQuantity,
  token_id: Type.Optional(Type.String()),
});
export type AssetChange = Static<typeof AssetChange>;

/**
 * One address's balance change (the hosted `balance_changes` entry: `address`, `transfers` indexing `asset_changes`),
 * with `assets`, a chainform extra: the signed change of each asset, ether including the gas the sender paid.
 */
export const BalanceChange = Type.Object({
  address: Address,
  transfers: Type.Array(Type.Integer({ minimum: 0 })),
  assets: Type.Array(
    Type.Object({
      asset: Type.String({ description: "The token contract (with #id for an NFT), or native" }),
      symbol: Type.Optional(Type.String()),
      decimals: Type.Optional(Type.Integer({ minimum: 0 })),
      raw_amount: Type.String({ description: "Signed integer, decimal" }),
      amount: Type.Optional(Type.String({ description: "Signed, in the asset's units" })),
    }),
  ),
});
export type BalanceChange = Static<typeof BalanceChange>;

/** Virtual Environment simulation result (docs/api.md "Resources"). */
export const VnetSimulationResult = Type.Object({
  blockNumber: HexQuantity,
  cumulativeGasUsed: HexQuantity,
  gasUsed: HexQuantity,
  logs: Type.Array(SimulationLog),
  logsBloom: Type.String(),
  status: Type.Boolean(),
  trace: Type.Array(TraceEntry),
  type: HexQuantity,
  assetChanges: Type.Optional(Type.Array(AssetChange)),
  balanceChanges: Type.Optional(Type.Array(BalanceChange)),
});
export type VnetSimulationResult = Static<typeof VnetSimulationResult>;

/** One state change of an instance simulation (docs/service.md "Shapes"). */
export const StateChange = Type.Object({
  address: Address,
  field: Type.Union([Type.Literal("balance"), Type.Literal("nonce"), Type.Literal("storage")]),
  slot: Type.Optional(Type.String()),
  previous: Type.String(),
  next: Type.String(),
});
export type StateChange = Static<typeof StateChange>;

/** Instance-level simulation result: the vnet result plus `stateChanges`. */
export const InstanceSimulationResult = Type.Composite([VnetSimulationResult, Type.Object({ stateChanges: Type.Array(StateChange) })]);
export type InstanceSimulationResult = Static<typeof InstanceSimulationResult>;

/** POST /v1/.../vnets/{vnetId}/transactions/simulate path parameters. */
export const VnetParams = Type.Composite([ProjectParams, Type.Object({ vnetId: Uuid })]);
export type VnetParams = Static<typeof VnetParams>;

/** Block number of a project simulation: null (latest), an integer, or a hex quantity. */
export const BlockNumberInput = Type.Union([Type.Null(), Type.Integer({ minimum: 0 }), HexQuantity]);

/** An access list: addresses and the storage slots the transaction declares it touches (EIP-2930). */
export const AccessList = Type.Array(
  Type.Object(
    { address: Address, storage_keys: Type.Optional(Type.Array(Type.String({ pattern: "^0x[0-9a-fA-F]{64}$" }))) },
    { additionalProperties: false },
  ),
  { maxItems: 1000 },
);
export type AccessList = Static<typeof AccessList>;

/** Network of a project simulation when the body names none: Ethereum mainnet (our choice; docs/service.md). */
export const DEFAULT_SIMULATION_NETWORK_ID = "1";

/**
 * POST /v1/.../simulate body (docs/api.md "Endpoints"). Every field is optional
 * (docs/service.md): `network_id` defaults to "1", `from` to the zero address, the block to the latest.
 */
export const ProjectSimulationRequest = Type.Object(
  {
    network_id: Type.Optional(Type.String({ minLength: 1, maxLength: 20 })),
    block_number: Type.Optional(BlockNumberInput),
    transaction_index: Type.Optional(Type.Union([Type.Null(), Type.Integer({ minimum: 0 })])),
    from: Type.Optional(Address),
    input: Type.Optional(HexData),
    to: Type.Optional(Type.Union([Address, Type.Null()])),
    gas: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000_000 })),
    gas_price: Type.Optional(Type.String({ pattern: "^(0x[0-9a-fA-F]{1,64}|[0-9]{1,78})$" })),
    value: Type.Optional(Type.String({ pattern: "^(0x[0-9a-fA-F]{1,64}|[0-9]{1,78})$" })),
    access_list: Type.Optional(AccessList),
    generate_access_list: Type.Optional(Type.Boolean()),
    save: Type.Optional(Type.Boolean()),
    block_header: Type.Optional(
      Type.Union([
        Type.Null(),
        Type.Object({ number: Type.Optional(HexQuantity), timestamp: Type.Optional(HexQuantity) }, { additionalProperties: false }),
      ]),
    ),
  },
  { additionalProperties: false },
);
export type ProjectSimulationRequest = Static<typeof ProjectSimulationRequest>;

/** What a project simulation ran and how it went: the fields its record and its `transaction` share. */
const SimulatedCall = {
  network_id: Type.String(),
  block_number: Type.Integer({ minimum: 0 }),
  from: Address,
  to: Type.Union([Address, Type.Null()]),
  input: HexData,
  value: Type.String(),
  gas: Type.Integer({ minimum: 0 }),
  gas_used: Type.Integer({ minimum: 0 }),
  status: Type.Boolean(),
};

/** A project-level simulation record (docs/service.md "Shapes"). */
export const Simulation = Type.Object({
  id: Uuid,
  ...SimulatedCall,
  created_at: DateTime,
  logs: Type.Array(SimulationLog),
  trace: Type.Array(TraceEntry),
});
export type Simulation = Static<typeof Simulation>;

/** A node of a project simulation's call trace: one call frame and the calls it made, nested. */
export const CallTraceNode = Type.Recursive((This) =>
  Type.Object({
    type: Type.String(),
    from: Type.String(),
    to: Type.String(),
    gas: Type.String(),
    gas_used: Type.String(),
    value: Type.String(),
    input: Type.String(),
    output: Type.String(),
    method: Type.String(),
    decoded_input: Type.Array(DecodedArgument),
    decoded_output: Type.Array(DecodedArgument),
    error: Type.Optional(Type.String()),
    calls: Type.Array(This),
  }),
);
export type CallTraceNode = Static<typeof CallTraceNode>;

/**
 * The `transaction` of a project simulation (hosted-service docs: logs and the call trace under
 * `transaction_info`). Numbers as in the simulation record.
 */
export const SimulationTransaction = Type.Object({
  ...SimulatedCall,
  transaction_index: Type.Integer({ minimum: 0 }),
  access_list: AccessList,
  transaction_info: Type.Object({
    call_trace: Type.Union([CallTraceNode, Type.Null()]),
    logs: Type.Array(SimulationLog),
    asset_changes: Type.Optional(Type.Array(AssetChange)),
    balance_changes: Type.Optional(Type.Array(BalanceChange)),
  }),
});
export type SimulationTransaction = Static<typeof SimulationTransaction>;

/** A contract the simulated transaction called (an address with code that received input). */
export const SimulationContract = Type.Object({ address: Address, network_id: Type.String() });
export type SimulationContract = Static<typeof SimulationContract>;

/**
 * POST /v1/.../simulate answer: the hosted service's documented `{ transaction, simulation, contracts }`;
 * `generated_access_list` when `generate_access_list` was true.
 */
export const ProjectSimulationResponse = Type.Object({
  transaction: SimulationTransaction,
  simulation: Simulation,
  contracts: Type.Array(SimulationContract),
  generated_access_list: Type.Optional(AccessList),
});
export type ProjectSimulationResponse = Static<typeof ProjectSimulationResponse>;

/** GET /v1/.../simulations query. */
export const ListSimulationsQuery = PaginationQuery;
/** GET /v1/.../simulations answer, newest first. */
export const SimulationList = Type.Object({ simulations: Type.Array(Simulation) });
export type SimulationList = Static<typeof SimulationList>;
