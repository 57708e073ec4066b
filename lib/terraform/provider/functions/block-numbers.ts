/**
 * `block_number_to_hex` and `block_number_from_hex`: block numbers between the decimal people read in explorers
 * and the hex quantities of JSON-RPC and of `network_config.block_number`. Exact up to 2^64-1 (lib/domain/chain.ts).
 */
import { cty, defineFunction, type FunctionParameter } from "../../framework";
import { MAX_BLOCK_NUMBER, parseBlockNumber } from "../../../domain/chain";
import { argumentError, decimalInteger } from "./arguments";

const toHexParameters: FunctionParameter[] = [
  { name: "block_number", type: cty.string, description: "A block number in decimal: a number (`19000000`) or a string of digits." },
];

/** `provider::chainform::block_number_to_hex(19000000)` = `"0x121eac0"`. */
export const blockNumberToHexFunction = defineFunction({
  name: "block_number_to_hex",
  summary: "A decimal block number as a JSON-RPC hex quantity.",
  description:
    'A block number in decimal as a hex quantity (lowercase, no leading zeros), as JSON-RPC and `network_config.block_number` take it: `provider::chainform::block_number_to_hex(19000000)` is `"0x121eac0"`. Exact up to 2^64-1, the largest block number.',
  parameters: toHexParameters,
  returns: cty.string,
  run([blockNumber]) {
    const text = String(blockNumber);
    const value = decimalInteger(text);
    if (value === undefined)
      argumentError(toHexParameters, 0, `${JSON.stringify(text)} is not a block number: use a whole number in decimal, e.g. 19000000`);
    if (value > MAX_BLOCK_NUMBER)
      argumentError(toHexParameters, 0, `${text} is above 2^64-1 (${MAX_BLOCK_NUMBER}), the largest block number`);
    return `0x${value.toString(16)}`;
  },
});

const fromHexParameters: FunctionParameter[] = [
  { name: "block_number", type: cty.string, description: 'A block number as a hex quantity, e.g. `"0x121eac0"`.' },
];

/** `provider::chainform::block_number_from_hex("0x121eac0")` = `"19000000"`. */
export const blockNumberFromHexFunction = defineFunction({
  name: "block_number_from_hex",
  summary: "A hex block number in decimal, as a string.",
  description:
    'A block number written as a hex quantity, in decimal, as a string (exact up to 2^64-1; `tonumber()` it for arithmetic, Terraform\'s numbers are exact too): `provider::chainform::block_number_from_hex("0x121eac0")` is `"19000000"`.',
  parameters: fromHexParameters,
  returns: cty.string,
  run([blockNumber]) {
    const text = String(blockNumber).trim();
    // Block numbers may be written in decimal elsewhere, but "12" here would be ambiguous (twelve, or 0x12?).
    if (!/^0x/i.test(text))
      argumentError(fromHexParameters, 0, `${JSON.stringify(text)} is not a block number: use hex with its 0x prefix, e.g. "0x121eac0"`);
    const parsed = parseBlockNumber(text);
    if ("error" in parsed) argumentError(fromHexParameters, 0, parsed.error);
    return parsed.blockNumber.toString();
  },
});
