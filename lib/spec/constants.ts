/**
 * The spec's plain values (names and limits), in a module without schemas: code that needs only these, such as the
 * Terraform provider, does not load TypeBox and the schemas built with it. The schema modules re-export them.
 */

/** The feature flags of a supported network. */
export const SUPPORTED_FEATURES = ["virtual_testnet", "node", "explorer", "simulator", "monitoring"] as const;

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

/** Most ids in one batch delete. */
export const MAX_BATCH_DELETE_IDS = 100;
