/** Ids: environments, their instances and vnets, and actions are UUIDs; one syntax for every part that checks one. */

/** UUID syntax: 8-4-4-4-12 hex digits, matched case-insensitively. */
export const UUID_PATTERN = "^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$";

const UUID = new RegExp(UUID_PATTERN, "i");

/**
 * Whether `value` is a UUID (in any letter case).
 *
 * @example
 * isUuid("3F2504E0-4F89-11D3-9A0C-0305E82C3301") // true
 * isUuid("ci-main") // false
 */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}
