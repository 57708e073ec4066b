/**
 * The dashboard's query strings: the API's transaction filters and a page number, each bad value a 400 naming it.
 */
import { ServiceError, type TransactionFilters } from "../../service/web-interface";
import { Address, TRANSACTION_CATEGORY_VALUES, TRANSACTION_KIND_VALUES, TRANSACTION_STATUS_VALUES } from "../../api";

const ADDRESS = new RegExp(Address.pattern!);
/** Rows of a dashboard table page. */
export const PER_PAGE = 25;

/** The API's transaction filters from a query string; a bad value is a 400 naming it. */
export function transactionFilters(query: Record<string, string>): TransactionFilters {
  const filters: { -readonly [K in keyof TransactionFilters]: TransactionFilters[K] } = {};
  const pick = <T extends string>(name: string, values: readonly T[]): T | undefined => {
    const value = query[name];
    if (value === undefined || value === "") return undefined;
    if (!values.includes(value as T)) throw new ServiceError(400, `${name} must be one of ${values.join(", ")}, got "${value}"`);
    return value as T;
  };
  filters.status = pick("status", TRANSACTION_STATUS_VALUES);
  filters.category = pick("category", TRANSACTION_CATEGORY_VALUES);
  filters.kind = pick("kind", TRANSACTION_KIND_VALUES);
  for (const name of ["from", "to"] as const) {
    const value = query[name]?.trim();
    if (!value) continue;
    if (!ADDRESS.test(value))
      throw new ServiceError(400, `${name} must be an address (0x followed by 40 hex digits), got "${value.slice(0, 80)}"`);
    filters[name] = value;
  }
  return filters;
}

/** `page` from a query string: 1 when absent, else a positive integer (400 otherwise). */
export function pageNumberOf(text: string | undefined): number {
  if (text === undefined || text === "") return 1;
  if (!/^[1-9][0-9]{0,5}$/.test(text)) throw new ServiceError(400, `page must be a positive integer, got "${text.slice(0, 20)}"`);
  return Number(text);
}
