/**
 * The spec's plain values (names and limits), in a module without schemas: code that needs only these, such as the
 * Terraform provider, does not load TypeBox and the schemas built with it. The schema modules re-export them.
 */

/** The feature flags of a supported network. */
export const SUPPORTED_FEATURES = ["virtual_testnet", "node", "explorer", "simulator", "monitoring"] as const;
/** A feature a supported network may offer. */
export type SupportedFeature = (typeof SUPPORTED_FEATURES)[number];

/**
 * Names of the `rpcs` entries the hosted service documents (docs/api.md "Resources"): `Admin RPC` (full cheatcode
 * access, a secret), `Public RPC`, and their WebSocket variants. Clients match these names and ignore others.
 */
export const RPC_NAMES = {
  admin: "Admin RPC",
  public: "Public RPC",
  adminWebsocket: "Admin websocket RPC",
  publicWebsocket: "Public websocket RPC",
} as const;

/** Longest Web3 Action id the service takes (`POST .../actions/action/{actionId}/stop`); at least one character. */
export const MAX_ACTION_ID_LENGTH = 100;

/** Most ids in one batch delete. */
export const MAX_BATCH_DELETE_IDS = 100;

/** Resource types named in `error.data.rid` (docs/api.md "Errors"). */
export const RID_VALUES = [
  "rid:account",
  "rid:project",
  "rid:alert",
  "rid:contract",
  "rid:delivery_channel",
  "rid:network",
  "rid:simulation",
  "rid:simulation_draft",
  "rid:vnet",
  "rid:wallet",
  "rid:action",
  "rid:action_call",
] as const;
/** A resource type of `error.data.rid`. */
export type Rid = (typeof RID_VALUES)[number];

/** Largest page number: chainform's bound, so that offsets stay exact integers. */
export const MAX_PAGE = 10_000_000;

/** Default page size (docs/api.md "Limits"). */
export const DEFAULT_PER_PAGE = 20;
/** Largest page size (docs/api.md "Limits"). */
export const MAX_PER_PAGE = 100;

/** The names of Project Permissions, all boolean. */
export const PROJECT_PERMISSION_NAMES = [
  "add_contract",
  "update_contract",
  "remove_contract",
  "create_alert",
  "update_alert",
  "remove_alert",
  "create_and_update_analytics",
  "manage_collaborators",
] as const;
