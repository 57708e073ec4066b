/** The transaction record's enums (docs/service.md "Transaction record"). */

/** Outcome of a transaction (hosted-service docs): `pending` until mined, `unknown` when the chain cannot tell. */
export const TRANSACTION_STATUS_VALUES = ["success", "failed", "pending", "unknown"] as const;
/** What a transaction does to the chain (hosted-service docs): sends and cheatcodes `write`. */
export const TRANSACTION_CATEGORY_VALUES = ["write", "read", "compute"] as const;
/** How it reached the chain (hosted-service docs): a mined `blockchain` transaction, a `cheatcode`, a `simulation`. */
export const TRANSACTION_KIND_VALUES = ["blockchain", "cheatcode", "simulation"] as const;
/** Where it came from (ours; the docs show `rpc`): an RPC URL, the API's send endpoint, or a bridge relay. */
export const TRANSACTION_ORIGIN_VALUES = ["rpc", "api", "bridge"] as const;
export type TransactionStatus = (typeof TRANSACTION_STATUS_VALUES)[number];
export type TransactionCategory = (typeof TRANSACTION_CATEGORY_VALUES)[number];
export type TransactionKind = (typeof TRANSACTION_KIND_VALUES)[number];
export type TransactionOrigin = (typeof TRANSACTION_ORIGIN_VALUES)[number];
