import { FormatRegistry, Type, type Static, type TSchema } from "@sinclair/typebox";
import { DEFAULT_PER_PAGE, MAX_PAGE, MAX_PER_PAGE } from "../domain/constants";
import { MAX_SLUG_LENGTH, SLUG_PATTERN } from "../domain/slug";
import { isValidChecksumAddress } from "../domain/address";
import { HEX_QUANTITY_PATTERN } from "../domain/amounts";
import { ADDRESS_PATTERN, CHAIN_ID_PATTERN, HEX_BLOCK_NUMBER_PATTERN, MAX_CHAIN_ID } from "../domain/chain";

export { DEFAULT_PER_PAGE, MAX_PAGE, MAX_PER_PAGE };

/** A UUID string (the service's identifiers). */
export const Uuid = Type.String({ format: "uuid", description: "Identifier in UUID format" });

/** An ISO 8601 date-time string. */
export const DateTime = Type.String({ format: "date-time", description: "ISO 8601 date-time" });

/** A hex-encoded quantity such as a block number or an amount of wei: `0x` followed by 1 to 64 hex digits. */
export const HexQuantity = Type.String({
  pattern: HEX_QUANTITY_PATTERN,
  description: "Hex-encoded quantity, e.g. 0x1bc16d674ec80000",
});

/** Hex-encoded bytes (calldata, logs data): `0x` followed by an even number of hex digits. */
export const HexData = Type.String({
  pattern: "^0x([0-9a-fA-F]{2})*$",
  maxLength: 262_146,
  description: "Hex-encoded bytes, e.g. 0xa9059cbb...",
});

/** The format of {@link Address}: in mixed case, the EIP-55 checksum must match (lib/domain/address.ts). */
export const ADDRESS_FORMAT = "eip55-address";
if (!FormatRegistry.Has(ADDRESS_FORMAT)) FormatRegistry.Set(ADDRESS_FORMAT, (value) => isValidChecksumAddress(value));

/**
 * A 20-byte account address, hex-encoded: all lowercase, all uppercase, or mixed case with a valid EIP-55 checksum
 * (a mixed-case address whose checksum does not match is rejected: a character is likely mistyped).
 */
export const Address = Type.String({
  pattern: ADDRESS_PATTERN,
  format: ADDRESS_FORMAT,
  description: "20-byte account address, hex-encoded (0x + 40 hex digits); in mixed case, with a valid EIP-55 checksum",
});

/** A 32-byte hash, hex-encoded. */
export const Hash = Type.String({ pattern: "^0x[0-9a-fA-F]{64}$", description: "32-byte hash, hex-encoded" });

/** A chain id as a decimal string, e.g. "1" or "8453"; the range (1 to MAX_CHAIN_ID) is checked by `parseChainId`. */
export const ChainIdString = Type.String({
  pattern: CHAIN_ID_PATTERN,
  description: `Chain ID as a decimal string from 1 to ${MAX_CHAIN_ID}, e.g. "1"`,
});

/**
 * A block number in a request: hex, as the spec has it (`0x12a05f2`), at most 2^64-1 (the range is checked by
 * `parseBlockNumber`). A decimal is refused with a 400 naming the field, as the hosted service does; the provider,
 * the constructs, the client and the CLI take decimal too and send hex (docs/api.md "Block numbers").
 */
export const BlockNumberText = Type.String({
  pattern: HEX_BLOCK_NUMBER_PATTERN,
  maxLength: 66,
  description: "Block number, hex (0x12a05f2), at most 2^64-1",
});

/** A path or query slug: lowercase letters, digits and single dashes. */
export const Slug = Type.String({
  pattern: SLUG_PATTERN,
  minLength: 1,
  maxLength: MAX_SLUG_LENGTH,
  description: "URL-safe slug: lowercase letters, digits and single dashes",
});

/** Pagination query (docs/api.md "Limits"): `page` positive integers only (up to MAX_PAGE); `perPage` 1 to 100, default 20. */
export const PaginationQuery = Type.Object(
  {
    page: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE, description: "Page number, 1-based" })),
    perPage: Type.Optional(
      Type.Integer({ minimum: 1, maximum: MAX_PER_PAGE, description: `Page size, 1 to ${MAX_PER_PAGE} (default ${DEFAULT_PER_PAGE})` }),
    ),
  },
  { additionalProperties: false },
);
export type PaginationQuery = Static<typeof PaginationQuery>;

/** `{ accountSlug }` path parameters. */
export const AccountParams = Type.Object({ accountSlug: Type.String({ minLength: 1, maxLength: 100 }) });
export type AccountParams = Static<typeof AccountParams>;

/** `{ accountSlug, projectSlug }` path parameters. */
export const ProjectParams = Type.Object({
  accountSlug: Type.String({ minLength: 1, maxLength: 100 }),
  projectSlug: Type.String({ minLength: 1, maxLength: 100 }),
});
export type ProjectParams = Static<typeof ProjectParams>;

/** Wraps a schema as `{ [key]: schema }`: the spec returns single objects under a singular key. */
export function wrapped<K extends string, T extends TSchema>(key: K, schema: T) {
  return Type.Object({ [key]: schema } as { [P in K]: T });
}
