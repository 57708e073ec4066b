/**
 * Naming and decoding calls and event logs, one way for the chain engine's answers (transaction records, traces,
 * simulations) and for the pages: with the contract's own ABI when the caller has one, else by selector or topic with
 * the standard interfaces (./standard-interfaces.ts), then with what the caller adds (the engine its bridge's ABI, the
 * pages their offline signature table). Within each source and across them, the first definition of a selector wins;
 * the shapes of one event topic are told apart by how many topics they index.
 *
 * The domain imports no library: the ABI codec (viem, as the service loads it) is handed in by whoever builds a
 * decoder, as token-metadata.ts is handed its `eth_call`.
 */
import type * as Viem from "viem" with { "resolution-mode": "import" };
import type { Abi, AbiEvent, AbiFunction, AbiParameter, Hex } from "viem" with { "resolution-mode": "import" };
import { STANDARD_INTERFACES } from "./standard-interfaces";

/** The ABI functions a decoder needs (viem's). */
export type AbiCodec = Pick<
  typeof Viem,
  "decodeEventLog" | "decodeFunctionData" | "decodeFunctionResult" | "parseAbi" | "toEventSelector" | "toFunctionSelector"
>;

/** One decoded argument or result: decimal integers, lowercase addresses, JSON for lists and tuples, booleans kept. */
export interface DecodedArgument {
  name: string;
  type: string;
  value: string | boolean;
}

/** A decoded call: the method name (the bare selector when unknown, empty for a plain transfer), arguments, results. */
export interface DecodedCall {
  readonly method: string;
  readonly args: DecodedArgument[];
  readonly results: DecodedArgument[];
}

/** A log as a chain answers it. */
export interface LogInput {
  readonly address: string;
  readonly topics: readonly string[];
  readonly data: string;
}

/** A log with its event's name and inputs (the simulation log's shape); empty ones when no known event fits. */
export interface DecodedLog {
  anonymous: boolean;
  inputs: { name: string; type: string; value: string }[];
  name: string;
  raw: { address: string; topics: string[]; data: string };
}

/** What one call of the decoder may add: the contract's own ABI, which comes before everything else. */
export interface DecodeOptions {
  readonly abi?: Abi;
}

/** Decodes calls and logs with the standard interfaces and the extra ABIs it was built with. */
export interface AbiDecoder {
  /**
   * Decodes a call's input, and its output when the call succeeded. Calldata that does not fit the signature keeps
   * the method's name with no arguments.
   */
  decodeCall(input: string, output: string | undefined, succeeded: boolean, options?: DecodeOptions): DecodedCall;
  /** Decodes a log (its address lowercased); an unknown event keeps an empty name. */
  decodeLog(log: LogInput, options?: DecodeOptions): DecodedLog;
}

/** Selectors and topics to definitions. */
interface Index {
  readonly functions: Map<string, AbiFunction>;
  /** Per topic, its shapes in order, one per set of indexed positions (others decode alike). */
  readonly events: Map<string, AbiEvent[]>;
}

/**
 * A decoder with `codec` (viem's functions). `extra` answers the ABIs the caller knows besides the standard
 * interfaces, lowest priority last; it is called once, on first use, so that a large table costs nothing until then.
 *
 * @example
 * const decoder = abiDecoder(viem, () => [bridgeAbi]);
 * decoder.decodeCall("0xa9059cbb…", "0x…01", true).method // "transfer"
 */
export function abiDecoder(codec: AbiCodec, extra: () => readonly Abi[] = () => []): AbiDecoder {
  let known: Index | undefined;
  const knownIndex = () => (known ??= indexOf(codec, [codec.parseAbi(STANDARD_INTERFACES) as Abi, ...extra()]));
  // An own ABI is indexed once while the caller keeps it (a verified contract's ABI serves every page).
  const owned = new WeakMap<Abi, Index>();
  const ownIndex = (abi: Abi | undefined): Index | undefined => {
    if (!abi) return undefined;
    let index = owned.get(abi);
    if (!index) owned.set(abi, (index = indexOf(codec, [abi])));
    return index;
  };

  return {
    decodeCall(input, output, succeeded, options = {}) {
      if (input.length < 10) return { method: "", args: [], results: [] };
      const selector = input.slice(0, 10).toLowerCase();
      const fn = ownIndex(options.abi)?.functions.get(selector) ?? knownIndex().functions.get(selector);
      if (!fn) return { method: selector, args: [], results: [] };
      let args: DecodedArgument[] = [];
      let results: DecodedArgument[] = [];
      try {
        const decoded = codec.decodeFunctionData({ abi: [fn], data: input as Hex });
        args = toArguments(fn.inputs, (decoded.args ?? []) as readonly unknown[]);
      } catch {
        // The calldata does not fit the signature: the name is still right, the arguments are not shown.
      }
      if (succeeded && output && output !== "0x" && fn.outputs.length > 0) {
        try {
          const result = codec.decodeFunctionResult({ abi: [fn], functionName: fn.name, data: output as Hex });
          results = toArguments(fn.outputs, fn.outputs.length === 1 ? [result] : (result as readonly unknown[]));
        } catch {
          // The output does not fit.
        }
      }
      return { method: fn.name, args, results };
    },

    decodeLog(log, options = {}) {
      const raw = { address: log.address.toLowerCase(), topics: [...log.topics], data: log.data };
      const empty: DecodedLog = { anonymous: false, inputs: [], name: "", raw };
      const topic = raw.topics[0]?.toLowerCase();
      if (!topic) return empty;
      const shapes = [...(ownIndex(options.abi)?.events.get(topic) ?? []), ...(knownIndex().events.get(topic) ?? [])];
      for (const event of shapes) {
        if (indexedCount(event) + 1 !== raw.topics.length) continue;
        try {
          const decoded = codec.decodeEventLog({
            abi: [event],
            data: raw.data as Hex,
            topics: raw.topics as [Hex, ...Hex[]],
            strict: true,
          });
          // viem answers a list when any input is unnamed (a V2 factory's PairCreated), else an object by name.
          const list = Array.isArray(decoded.args) ? (decoded.args as unknown[]) : undefined;
          const byName = (decoded.args ?? {}) as Record<string, unknown>;
          return {
            anonymous: false,
            name: event.name,
            inputs: event.inputs.map((input, i) => ({
              name: input.name ?? "",
              type: input.type,
              value: String(formatValue(input, list ? list[i] : byName[input.name ?? String(i)])),
            })),
            raw,
          };
        } catch {
          // Not this shape.
        }
      }
      return empty;
    },
  };
}

function indexOf(codec: AbiCodec, abis: readonly Abi[]): Index {
  const functions = new Map<string, AbiFunction>();
  const events = new Map<string, AbiEvent[]>();
  for (const item of abis.flat()) {
    if (item.type === "function") {
      const selector = codec.toFunctionSelector(item);
      if (!functions.has(selector)) functions.set(selector, item);
    } else if (item.type === "event" && !item.anonymous) {
      // An anonymous event has no topic of its own: its first topic is an indexed argument.
      const topic = codec.toEventSelector(item);
      const shapes = events.get(topic) ?? [];
      if (!shapes.some((shape) => indexedPositions(shape) === indexedPositions(item))) shapes.push(item);
      events.set(topic, shapes);
    }
  }
  return { functions, events };
}

function indexedCount(event: AbiEvent): number {
  return event.inputs.filter((input) => input.indexed).length;
}

function indexedPositions(event: AbiEvent): string {
  return event.inputs.map((input) => (input.indexed ? "1" : "0")).join("");
}

function toArguments(params: readonly AbiParameter[], values: readonly unknown[]): DecodedArgument[] {
  return params.map((param, i) => ({ name: param.name ?? "", type: param.type, value: formatValue(param, values[i]) }));
}

/** The parts of an ABI parameter that say how to show its value. */
export interface ValueType {
  readonly type: string;
  readonly components?: readonly ValueType[];
  readonly name?: string;
}

/**
 * A decoded value as chainform shows it: booleans kept, integers in decimal, addresses lowercase (inside lists and
 * tuples too), other strings (bytes in hex, text) as they are, lists and tuples as JSON.
 *
 * @example
 * formatValue({ type: "address[]" }, ["0xAbC…"]) // '["0xabc…"]'
 */
export function formatValue(param: ValueType, value: unknown): string | boolean {
  if (typeof value === "boolean") return value;
  if (typeof value === "bigint" || typeof value === "number") return value.toString();
  if (typeof value === "string") return param.type === "address" ? value.toLowerCase() : value;
  return JSON.stringify(plain(param, value)) ?? "";
}

/** A value as plain JSON data, read with its ABI type: big integers as decimal strings, addresses lowercase. */
function plain(param: ValueType | undefined, value: unknown): unknown {
  if (typeof value === "bigint") return value.toString();
  if (typeof value === "string") return param?.type === "address" ? value.toLowerCase() : value;
  if (value === null || typeof value !== "object") return value;
  const list = param && /^(.*)\[\d*\]$/.exec(param.type);
  if (list && Array.isArray(value)) return value.map((item: unknown) => plain({ ...param, type: list[1] }, item));
  const parts = param?.type === "tuple" ? (param.components ?? []) : [];
  if (Array.isArray(value)) return value.map((item: unknown, i) => plain(parts[i], item));
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [
      key,
      plain(
        parts.find((p) => p.name === key),
        item,
      ),
    ]),
  );
}
