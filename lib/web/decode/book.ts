/**
 * Decoding calls and events for the pages, with viem: with the contract's own ABI when the page has one (verified, or
 * added by the user), else by selector or topic with the standard interfaces (standard.ts) and then the signature
 * table that ships with chainform (signatures.json, written by scripts/gen-signatures.mjs). Works offline.
 */
import {
  decodeEventLog,
  decodeFunctionData,
  decodeFunctionResult,
  parseAbi,
  toEventSelector,
  toFunctionSelector,
  type Abi,
  type AbiEvent,
  type AbiFunction,
  type AbiParameter,
  type Hex,
} from "../../service/web-interface";
import type { DecodedArgument, SimulationLog } from "../../api";
import signatureTable from "./signatures.json";
import { STANDARD_SIGNATURES } from "./standard";

/** A decoded call: the method name (the bare selector when unknown, empty for a transfer), arguments and results. */
export interface DecodedCall {
  readonly method: string;
  readonly args: readonly DecodedArgument[];
  readonly results: readonly DecodedArgument[];
}

/** Where a page's ABI for a contract came from. */
export type AbiSource = "verified" | "user";

/** The ABI a page has for a contract, if any, and where it came from. */
export interface ContractAbi {
  readonly abi: Abi;
  readonly source: AbiSource;
}

interface Known {
  readonly functions: Map<string, AbiFunction>;
  readonly events: Map<string, AbiEvent[]>;
}

let known: Known | undefined;

/** The selectors and topics of the standard interfaces, then of the signature table (built once). */
function knownSignatures(): Known {
  if (known) return known;
  const functions = new Map<string, AbiFunction>();
  const events = new Map<string, AbiEvent[]>();
  const tableEvents = Object.values(signatureTable.events as Record<string, string[]>).flat();
  const lines = [...STANDARD_SIGNATURES, ...Object.values(signatureTable.functions as Record<string, string>), ...tableEvents];
  for (const item of parseAbi(lines) as Abi) {
    if (item.type === "function") {
      const selector = toFunctionSelector(item);
      if (!functions.has(selector)) functions.set(selector, item);
    } else if (item.type === "event") {
      const topic = toEventSelector(item);
      const shapes = events.get(topic) ?? [];
      if (!shapes.some((shape) => indexedCount(shape) === indexedCount(item))) shapes.push(item);
      events.set(topic, shapes);
    }
  }
  known = { functions, events };
  return known;
}

function indexedCount(event: AbiEvent): number {
  return event.inputs.filter((input) => input.indexed).length;
}

/**
 * Decodes a call's input (and output, when it succeeded) with the contract's ABI, else by its selector.
 *
 * @example
 * decodeCallData("0x7ff36ab5…", undefined, true, undefined).method // "swapExactETHForTokens"
 */
export function decodeCallData(input: string, output: string | undefined, succeeded: boolean, abi: Abi | undefined): DecodedCall {
  if (input.length < 10) return { method: "", args: [], results: [] };
  const selector = input.slice(0, 10).toLowerCase();
  const own = abi?.find((item): item is AbiFunction => item.type === "function" && toFunctionSelector(item) === selector);
  const fn = own ?? knownSignatures().functions.get(selector);
  if (!fn) return { method: selector, args: [], results: [] };
  let args: DecodedArgument[] = [];
  let results: DecodedArgument[] = [];
  try {
    const decoded = decodeFunctionData({ abi: [fn], data: input as Hex });
    args = toArguments(fn.inputs, (decoded.args ?? []) as readonly unknown[]);
  } catch {
    // The calldata does not fit the signature: the name is still right, the arguments are not shown.
  }
  if (succeeded && output && output !== "0x" && fn.outputs.length > 0) {
    try {
      const result = decodeFunctionResult({ abi: [fn], functionName: fn.name, data: output as Hex });
      results = toArguments(fn.outputs, fn.outputs.length === 1 ? [result] : (result as readonly unknown[]));
    } catch {
      // The output does not fit.
    }
  }
  return { method: fn.name, args, results };
}

/**
 * Decodes a log with the emitting contract's ABI, else by its topic (the shape whose indexed count fits). An unknown
 * event keeps an empty name.
 */
export function decodeEvent(log: { address: string; topics: readonly string[]; data: string }, abi: Abi | undefined): SimulationLog {
  const raw = { address: log.address.toLowerCase(), topics: [...log.topics], data: log.data };
  const empty: SimulationLog = { anonymous: false, inputs: [], name: "", raw };
  const topic = raw.topics[0]?.toLowerCase();
  if (!topic) return empty;
  const own = (abi ?? []).filter((item): item is AbiEvent => item.type === "event" && !item.anonymous && toEventSelector(item) === topic);
  for (const event of [...own, ...(knownSignatures().events.get(topic) ?? [])]) {
    if (indexedCount(event) + 1 !== raw.topics.length) continue;
    try {
      const decoded = decodeEventLog({ abi: [event], data: raw.data as Hex, topics: raw.topics as [Hex, ...Hex[]], strict: true });
      const args = (decoded.args ?? {}) as Record<string, unknown>;
      const values = Array.isArray(decoded.args) ? (decoded.args as unknown[]) : undefined;
      return {
        anonymous: false,
        name: event.name,
        inputs: event.inputs.map((input, i) => ({
          name: input.name ?? "",
          type: input.type,
          value: String(formatValue(input.type, values ? values[i] : args[input.name ?? String(i)])),
        })),
        raw,
      };
    } catch {
      // Not this shape.
    }
  }
  return empty;
}

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

function toArguments(params: readonly AbiParameter[], values: readonly unknown[]): DecodedArgument[] {
  return params.map((param, i) => ({ name: param.name ?? "", type: param.type, value: formatValue(param.type, values[i]) }));
}

/** A decoded value as the pages show it: decimal integers, lowercase addresses, JSON for lists and tuples. */
export function formatValue(type: string, value: unknown): string | boolean {
  if (typeof value === "boolean") return value;
  if (typeof value === "bigint" || typeof value === "number") return value.toString();
  if (typeof value === "string") return type === "address" ? value.toLowerCase() : value;
  return JSON.stringify(value, (_key, v: unknown) =>
    typeof v === "bigint" ? v.toString() : typeof v === "string" && ADDRESS.test(v) ? v.toLowerCase() : v,
  );
}
