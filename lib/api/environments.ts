import { Type, type Static } from "@sinclair/typebox";
import { Address, BlockNumberText, ChainIdString, DateTime, HexQuantity, PaginationQuery, ProjectParams, Slug, Uuid } from "./common";
import {
  MAX_ACCOUNTS_PER_NETWORK,
  MAX_DISPLAY_NAME_LENGTH,
  MAX_NETWORKS_PER_ENVIRONMENT,
  MAX_RELAY_DELAY_SECONDS,
  RELAY_MODE_VALUES,
  VERIFICATION_VISIBILITY_VALUES,
} from "../domain/environment-rules";
import type { RelayMode } from "../domain/environment-rules";

// Explorer page visibility of verified contracts (docs/api.md "Create an environment"): a rule of environment-rules.ts.
export { VERIFICATION_VISIBILITY_VALUES, type VerificationVisibility } from "../domain/environment-rules";
import { MAX_BATCH_DELETE_IDS, RPC_NAMES } from "../domain/constants";

export { MAX_BATCH_DELETE_IDS, RPC_NAMES };

export {
  MAX_ACCOUNTS_PER_NETWORK,
  MAX_NETWORKS_PER_ENVIRONMENT,
  MAX_RELAY_DELAY_SECONDS,
  RELAY_MODE_VALUES,
  type RelayMode,
} from "../domain/environment-rules";

/** A pre-funded account: address and balance in wei, hex-encoded. */
export const PrefundedAccount = Type.Object({ address: Address, balance: HexQuantity }, { additionalProperties: false });
export type PrefundedAccount = Static<typeof PrefundedAccount>;

/** One `network_configs[]` entry of a create request. */
export const NetworkConfig = Type.Object(
  {
    network_id: Type.String({ minLength: 1, maxLength: 20, description: "Chain ID of the network to fork" }),
    block_number: Type.Optional(BlockNumberText),
    chain_config_overrides: Type.Optional(Type.Object({ chain_id: Type.Optional(ChainIdString) }, { additionalProperties: false })),
    explorer_config: Type.Optional(
      Type.Object(
        {
          enabled: Type.Optional(Type.Boolean()),
          verification_visibility: Type.Optional(Type.Union(VERIFICATION_VISIBILITY_VALUES.map((v) => Type.Literal(v)))),
        },
        { additionalProperties: false },
      ),
    ),
    accounts: Type.Optional(Type.Array(PrefundedAccount, { maxItems: MAX_ACCOUNTS_PER_NETWORK })),
  },
  { additionalProperties: false },
);
export type NetworkConfig = Static<typeof NetworkConfig>;

/** An environment's name as a request gives it (create, import, clone): 1 to MAX_DISPLAY_NAME_LENGTH characters. */
export const EnvironmentDisplayName = Type.String({ minLength: 1, maxLength: MAX_DISPLAY_NAME_LENGTH });

/** `bridge_config` of a create request. */
export const BridgeConfig = Type.Object(
  {
    enabled: Type.Optional(Type.Boolean()),
    relay_mode: Type.Optional(Type.Union(RELAY_MODE_VALUES.map((v) => Type.Literal(v)))),
    delay_seconds: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_RELAY_DELAY_SECONDS })),
  },
  { additionalProperties: false },
);
export type BridgeConfig = Static<typeof BridgeConfig>;

/** POST .../environments body. Rules beyond the schema (supported network, duplicates, delay only with
 * `delayedRelay`, slug uniqueness) are checked by the service and named in the 400 body's `data.field`. */
export const CreateEnvironmentRequest = Type.Object(
  {
    display_name: EnvironmentDisplayName,
    slug: Type.Optional(Slug),
    network_configs: Type.Array(NetworkConfig, { minItems: 1, maxItems: MAX_NETWORKS_PER_ENVIRONMENT }),
    bridge_config: Type.Optional(BridgeConfig),
  },
  { additionalProperties: false },
);
export type CreateEnvironmentRequest = Static<typeof CreateEnvironmentRequest>;

/**
 * An RPC endpoint of a Virtual Environment. `Admin RPC` URLs are secrets, and a caller who may not write (a
 * read-only key) never receives them: the entry is left out of `rpcs`.
 */
export const VnetRpc = Type.Object({
  name: Type.String({ description: "Admin RPC, Public RPC, Admin websocket RPC, Public websocket RPC" }),
  url: Type.String(),
});
export type VnetRpc = Static<typeof VnetRpc>;

/** A Virtual Environment inside an environment's active instance: the documented fields only. */
export const EnvironmentVnet = Type.Object({
  id: Uuid,
  display_name: Type.String(),
  slug: Type.String(),
  status: Type.String({ description: "Value seen: running" }),
  rpcs: Type.Array(VnetRpc),
  fork_config: Type.Object({
    network_id: Type.Integer({ description: "Chain ID of the forked network" }),
    block_number: HexQuantity,
  }),
  explorer_url: Type.Optional(
    Type.String({ description: "chainform local extra: the public explorer page, present only when explorer_config.enabled" }),
  ),
});
export type EnvironmentVnet = Static<typeof EnvironmentVnet>;

/** One entry of an environment's `networks`. */
export const EnvironmentNetwork = Type.Object({
  id: Uuid,
  network_id: Type.String({ description: "Chain ID of the forked network" }),
  network_name: Type.String(),
  block_number: HexQuantity,
});
export type EnvironmentNetwork = Static<typeof EnvironmentNetwork>;

/**
 * Environment, with the documented fields only (docs/api.md "Resources"). What the environment was
 * created with (`network_configs`, `bridge_config`, chain-id overrides, accounts) is kept by the service but never
 * returned: the hosted service documents none of it, so no client may depend on it. The Terraform provider keeps
 * those settings in its state instead.
 */
export const Environment = Type.Object({
  id: Uuid,
  display_name: Type.String(),
  slug: Type.String(),
  created_at: DateTime,
  networks: Type.Array(EnvironmentNetwork),
  active_instance: Type.Object({ id: Uuid, vnets: Type.Array(EnvironmentVnet) }),
});
export type Environment = Static<typeof Environment>;

/** The settings an environment was created with, normalized (defaults filled): stored, never returned. */
export interface StoredEnvironmentSettings {
  readonly network_configs: NetworkConfig[];
  readonly bridge_config: { enabled: boolean; relay_mode: RelayMode; delay_seconds: number };
}

/** GET .../environments query: pagination. */
export const ListEnvironmentsQuery = PaginationQuery;
export type ListEnvironmentsQuery = Static<typeof ListEnvironmentsQuery>;

/** GET .../environments answer (docs/service.md "Shapes"), newest first. */
export const EnvironmentList = Type.Object({ environments: Type.Array(Environment) });
export type EnvironmentList = Static<typeof EnvironmentList>;

/** DELETE .../environments body (docs/service.md "Shapes"). */
export const BatchDeleteEnvironmentsRequest = Type.Object(
  { environment_ids: Type.Array(Uuid, { minItems: 1, maxItems: MAX_BATCH_DELETE_IDS }) },
  { additionalProperties: false },
);
export type BatchDeleteEnvironmentsRequest = Static<typeof BatchDeleteEnvironmentsRequest>;

/** `{ accountSlug, projectSlug, environmentId }` path parameters. */
export const EnvironmentParams = Type.Composite([ProjectParams, Type.Object({ environmentId: Uuid })]);
export type EnvironmentParams = Static<typeof EnvironmentParams>;

/** `{ ..., environmentId, instanceId }` path parameters. */
export const InstanceParams = Type.Composite([EnvironmentParams, Type.Object({ instanceId: Uuid })]);
export type InstanceParams = Static<typeof InstanceParams>;

/** `{ ..., instanceId, vnetId }` path parameters. */
export const InstanceVnetParams = Type.Composite([InstanceParams, Type.Object({ vnetId: Uuid })]);
export type InstanceVnetParams = Static<typeof InstanceVnetParams>;
