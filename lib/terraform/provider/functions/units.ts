/**
 * `ether`, `parse_units` and `format_units`: amounts between the decimal units people write and the integer
 * counts of smallest units (wei) that chains and chainform's balances take. Exact at any size (lib/domain/amounts.ts).
 */
import { cty, defineFunction, type FunctionParameter } from "../../framework";
import { formatUnits, MAX_UNIT_DECIMALS, MAX_WEI, parseUnits } from "../../../domain/amounts";
import { argumentError, decimalInteger } from "./arguments";

const ETHER_DECIMALS = 18;

const etherParameters: FunctionParameter[] = [
  { name: "amount", type: cty.string, description: 'An amount of ether in decimal, e.g. `"1.5"` (a number works too: `1.5`).' },
];

/** `provider::chainform::ether("1.5")` = `"1500000000000000000"`. */
export const etherFunction = defineFunction({
  name: "ether",
  summary: "Wei in an amount of ether, as a decimal string.",
  description:
    'The number of wei in an amount of ether (18 decimals), as a decimal string, exact at any size: `provider::chainform::ether("1.5")` is `"1500000000000000000"`. Usable as a `chainform_environment` account balance or a `chainform_erc20_balance` amount of an 18-decimal token. Fails on amounts more precise than 1 wei or above 2^256-1 wei.',
  parameters: etherParameters,
  returns: cty.string,
  run([amount]) {
    return toWei(etherParameters, String(amount), ETHER_DECIMALS);
  },
});

const parseParameters: FunctionParameter[] = [
  { name: "amount", type: cty.string, description: 'A decimal amount, e.g. `"1.5"`.' },
  {
    name: "decimals",
    type: cty.number,
    description: `The unit's decimals, a whole number from 0 to ${MAX_UNIT_DECIMALS} (18 for ether, 6 for USDC).`,
  },
];

/** `provider::chainform::parse_units("1.5", 6)` = `"1500000"`. */
export const parseUnitsFunction = defineFunction({
  name: "parse_units",
  summary: "Smallest units (e.g. wei) in a decimal amount of a token with the given decimals, as a decimal string.",
  description:
    'The integer number of smallest units in a decimal amount of a unit with `decimals` decimals, as a decimal string, exact at any size (like viem\'s and ethers\' `parseUnits`): `provider::chainform::parse_units("1.5", 6)` is `"1500000"` (1.5 USDC). Fails on amounts more precise than one smallest unit or above 2^256-1.',
  parameters: parseParameters,
  returns: cty.string,
  run([amount, decimals]) {
    if (typeof decimals !== "number" || !Number.isInteger(decimals) || decimals < 0 || decimals > MAX_UNIT_DECIMALS) {
      argumentError(
        parseParameters,
        1,
        `${String(decimals)} is not a number of decimals: use a whole number from 0 to ${MAX_UNIT_DECIMALS}`,
      );
    }
    return toWei(parseParameters, String(amount), decimals);
  },
});

const formatParameters: FunctionParameter[] = [
  {
    name: "value",
    type: cty.string,
    description: 'A whole number of smallest units: decimal (`"1500000"`, or a number) or hex (`"0x16e360"`).',
  },
  { name: "decimals", type: cty.number, description: `The unit's decimals, a whole number from 0 to ${MAX_UNIT_DECIMALS}.` },
];

/** `provider::chainform::format_units("1500000", 6)` = `"1.5"`. */
export const formatUnitsFunction = defineFunction({
  name: "format_units",
  summary: "A count of smallest units (e.g. wei) as a decimal amount with the given decimals.",
  description:
    'The inverse of `parse_units`: a whole number of smallest units (decimal, or hex with `0x`) as a decimal amount without trailing zeros, exact at any size: `provider::chainform::format_units("1500000000000000000", 18)` is `"1.5"`.',
  parameters: formatParameters,
  returns: cty.string,
  run([value, decimals]) {
    if (typeof decimals !== "number" || !Number.isInteger(decimals) || decimals < 0 || decimals > MAX_UNIT_DECIMALS) {
      argumentError(
        formatParameters,
        1,
        `${String(decimals)} is not a number of decimals: use a whole number from 0 to ${MAX_UNIT_DECIMALS}`,
      );
    }
    const text = String(value).trim();
    const integer = /^0x[0-9a-fA-F]{1,64}$/.test(text) ? BigInt(text) : decimalInteger(text);
    if (integer === undefined) {
      argumentError(
        formatParameters,
        0,
        `${JSON.stringify(text)} is not a whole number of smallest units: use decimal digits or 0x and hex digits`,
      );
    }
    return formatUnits(integer, decimals);
  },
});

function toWei(parameters: readonly FunctionParameter[], amount: string, decimals: number): string {
  const parsed = parseUnits(amount, decimals);
  if ("error" in parsed) argumentError(parameters, 0, parsed.error);
  if (parsed.value > MAX_WEI) argumentError(parameters, 0, `${JSON.stringify(amount)} is more than 2^256-1 smallest units`);
  return parsed.value.toString();
}
