/**
 * Decoding calls and events for the pages: the domain's decoder (lib/domain/decode), with the contract's own ABI when
 * the page has one (verified, or added by the user), else by selector or topic with the standard interfaces, and last
 * with the signature table that ships with chainform (signatures.json, written by scripts/gen-signatures.mjs). Works
 * offline.
 */
import { abiDecoder, type DecodedCall } from "../../domain/decode/decoder";
import {
  decodeEventLog,
  decodeFunctionData,
  decodeFunctionResult,
  parseAbi,
  toEventSelector,
  toFunctionSelector,
  type Abi,
} from "../../service/web-interface";
import type { SimulationLog } from "../../api";
import signatureTable from "./signatures.json";

export type { DecodedCall } from "../../domain/decode/decoder";

/** Where a page's ABI for a contract came from. */
export type AbiSource = "verified" | "user";

/** The ABI a page has for a contract, if any, and where it came from. */
export interface ContractAbi {
  readonly abi: Abi;
  readonly source: AbiSource;
}

const codec = { decodeEventLog, decodeFunctionData, decodeFunctionResult, parseAbi, toEventSelector, toFunctionSelector };

/** The signature table's functions and events, as one ABI (parsed on the first decoding). */
function signatureAbi(): Abi {
  const events = Object.values(signatureTable.events as Record<string, string[]>).flat();
  return parseAbi([...Object.values(signatureTable.functions as Record<string, string>), ...events]) as Abi;
}

const decoder = abiDecoder(codec, () => [signatureAbi()]);

/**
 * Decodes a call's input (and output, when it succeeded) with the contract's ABI, else by its selector.
 *
 * @example
 * decodeCallData("0x7ff36ab5…", undefined, true, undefined).method // "swapExactETHForTokens"
 */
export function decodeCallData(input: string, output: string | undefined, succeeded: boolean, abi: Abi | undefined): DecodedCall {
  return decoder.decodeCall(input, output, succeeded, { abi });
}

/**
 * Decodes a log with the emitting contract's ABI, else by its topic (the shape whose indexed count fits). An unknown
 * event keeps an empty name.
 */
export function decodeEvent(log: { address: string; topics: readonly string[]; data: string }, abi: Abi | undefined): SimulationLog {
  return decoder.decodeLog(log, { abi });
}
