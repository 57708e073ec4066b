/**
 * The shape conversions of the hosted door, written once: the hosted clients send network ids as numbers or decimal
 * strings, list filters as repeated `name[]` query keys, and name a registry entry as `eth:{network}:{address}`.
 * Every hosted route of this folder reads its ids through these functions, and answers a bad one with the spec's 400
 * naming the field.
 */
import { Type } from "@sinclair/typebox";
import { isAddress, parseChainId } from "../../../domain/chain";
import { ChainIdString } from "../../../api";
import { badRequest } from "../../errors";

/** A network id as the hosted clients send it: a decimal string or a number. */
export const HostedNetworkId = Type.Union([ChainIdString, Type.Integer({ minimum: 1 })], {
  description: 'Chain id, a decimal string ("1") or a number (1)',
});

/** A network id in the spec's spelling (a decimal string), from a hosted value; 400 naming `field` otherwise. */
export function networkIdOf(value: unknown, field: string): string {
  const parsed = parseChainId(value);
  if ("error" in parsed) throw badRequest(`${field.slice(1)}: ${parsed.error}`, field);
  return parsed.chainId.toString();
}

/** A lower-case address from a hosted value; 400 naming `field` otherwise. */
export function addressOf(value: unknown, field: string): string {
  if (!isAddress(value)) throw badRequest(`${field.slice(1)} must be an address: 0x followed by 40 hex digits`, field);
  return value.toLowerCase();
}

/**
 * The values of a list filter of a query string: axios sends `name[]=a&name[]=b` (a string for one value, an array for
 * more); plain `name` is taken too. Capped: a longer list is a 400 naming the parameter.
 */
export function queryList(query: unknown, name: string, max = 100): string[] {
  const record = (query ?? {}) as Record<string, unknown>;
  const raw = [record[`${name}[]`], record[name]].flatMap((value) => (value === undefined ? [] : Array.isArray(value) ? value : [value]));
  if (raw.length > max) throw badRequest(`query parameter ${name}[] takes at most ${max} values`, `/${name}`, { location: "query" });
  return raw.filter((value): value is string => typeof value === "string" && value !== "");
}

/** The id the hosted clients name a registry entry by: `eth:{network}:{address}`. */
export function registryIdOf(networkId: string, address: string): string {
  return `eth:${networkId}:${address.toLowerCase()}`;
}

/** Reads an `eth:{network}:{address}` id; 400 naming `field` otherwise. */
export function parseRegistryId(value: unknown, field: string): { networkId: string; address: string } {
  const parts = typeof value === "string" ? value.split(":") : [];
  if (parts.length !== 3 || parts[0] !== "eth") throw badRequest(`${field.slice(1)} must be eth:{network id}:{address}`, field);
  return { networkId: networkIdOf(parts[1], field), address: addressOf(parts[2], field) };
}
