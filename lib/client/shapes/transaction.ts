/**
 * The transaction record as the hosted service documents it (docs/service.md "Transaction record"), read
 * tolerantly: every field but the hash may be missing, enums are open (new values
 * pass through), and fields the docs do not name are kept. The client's own type, not the local service's
 * response schema: it must also read what the hosted service sends.
 */

/** Documented statuses; others pass through as strings. */
export type TransactionStatus = "success" | "failed" | "pending" | "unknown" | (string & {});
/** Documented categories (e.g. `write`, `read`, `compute`); others pass through. */
export type TransactionCategory = "write" | "read" | "compute" | (string & {});
/** Documented kinds (e.g. `cheatcode`, `blockchain`, `simulation`); others pass through. */
export type TransactionKind = "cheatcode" | "blockchain" | "simulation" | (string & {});

/** A transaction of an environment instance (hex strings for quantities, as documented). */
export interface TransactionRecord {
  /** Transaction hash; null only when the answer carried none (e.g. a send the service has not mined). */
  tx_hash: string | null;
  /** `success`, `failed`, `pending` or `unknown` ("unknown" too when the answer carried no status). */
  status: TransactionStatus;
  id?: string;
  vnet_id?: string;
  /** Where it came from, e.g. `rpc`. */
  origin?: string;
  category?: TransactionCategory;
  kind?: TransactionKind;
  /** Why it failed, when it did. */
  error_reason?: string | null;
  reverted?: boolean;
  /** The JSON-RPC method that produced it, e.g. `eth_sendTransaction`. */
  rpc_method?: string;
  created_at?: string;
  dashboard_url?: string;
  block_number?: string | null;
  block_hash?: string | null;
  tx_index?: string | null;
  from?: string;
  to?: string | null;
  input?: string;
  nonce?: string;
  value?: string;
  gas?: string;
  gas_price?: string;
  max_priority_fee_per_gas?: string;
  max_fee_per_gas?: string;
  type?: string;
  /** Decoded function name, when the service knows the contract. */
  function_name?: string | null;
  /** Fields the docs do not name are kept as they came. */
  [extra: string]: unknown;
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * Reads one transaction record, bare or wrapped in `{ transaction }`. Never throws: a send has already run when
 * its answer is read, so an unexpected shape must not look like a failure (a retry would send it twice). An older
 * local `hash` field is read as `tx_hash`.
 */
export function parseTransaction(body: unknown): TransactionRecord {
  const value = isObject(body) && isObject(body["transaction"]) ? body["transaction"] : body;
  const record: Json = isObject(value) ? value : {};
  const hash = typeof record["tx_hash"] === "string" ? record["tx_hash"] : typeof record["hash"] === "string" ? record["hash"] : null;
  const status = typeof record["status"] === "string" ? record["status"] : "unknown";
  return { ...record, tx_hash: hash, status };
}

/** Reads a list of transaction records: a bare array (documented) or `{ transactions: [...] }`. */
export function parseTransactions(body: unknown): TransactionRecord[] {
  const items = Array.isArray(body) ? body : isObject(body) && Array.isArray(body["transactions"]) ? body["transactions"] : undefined;
  if (!items) return [];
  return items.map(parseTransaction);
}
