/**
 * The ABIs the engine knows (ERC-20, ERC-721, WETH's and a Uniswap V2 pair's events, and chainform's bridge) and decoding of logs and calls with them.
 * ERC-20 and ERC-721 share event topics (Transfer, Approval) and some selectors: events are told apart by their
 * number of indexed topics; for shared selectors the ERC-20 names win.
 */
import {
  decodeEventLog,
  decodeFunctionData,
  decodeFunctionResult,
  parseAbi,
  toEventSelector,
  toFunctionSelector,
  type AbiEvent,
  type AbiFunction,
  type AbiParameter,
  type Hex,
} from "./viem";
import type { DecodedArgument, RawLog, SimulationLog } from "../../../api";
import { loadArtifact } from "./artifacts";

/** ERC-20 events and functions. */
export const ERC20_ABI = parseAbi([
  "event Transfer(address indexed from, address indexed to, uint256 value)",
  "event Approval(address indexed owner, address indexed spender, uint256 value)",
  "function transfer(address to, uint256 value) returns (bool success)",
  "function transferFrom(address from, address to, uint256 value) returns (bool success)",
  "function approve(address spender, uint256 value) returns (bool success)",
  "function balanceOf(address account) view returns (uint256 balance)",
  "function allowance(address owner, address spender) view returns (uint256 remaining)",
  "function totalSupply() view returns (uint256 supply)",
  "function name() view returns (string name)",
  "function symbol() view returns (string symbol)",
  "function decimals() view returns (uint8 decimals)",
]);

/** ERC-721 events and functions. */
export const ERC721_ABI = parseAbi([
  "event Transfer(address indexed from, address indexed to, uint256 indexed tokenId)",
  "event Approval(address indexed owner, address indexed approved, uint256 indexed tokenId)",
  "event ApprovalForAll(address indexed owner, address indexed operator, bool approved)",
  "function safeTransferFrom(address from, address to, uint256 tokenId)",
  "function safeTransferFrom(address from, address to, uint256 tokenId, bytes data)",
  "function setApprovalForAll(address operator, bool approved)",
  "function ownerOf(uint256 tokenId) view returns (address owner)",
  "function getApproved(uint256 tokenId) view returns (address operator)",
  "function isApprovedForAll(address owner, address operator) view returns (bool approved)",
  "function tokenURI(uint256 tokenId) view returns (string uri)",
]);

/** WETH's own events (WETH9's interface): wrapping ether is a mint, unwrapping a burn. */
export const WETH_EVENTS = parseAbi([
  "event Deposit(address indexed dst, uint256 wad)",
  "event Withdrawal(address indexed src, uint256 wad)",
]);

/**
 * The events of a Uniswap V2 pair and factory (their published interfaces), so that a swap's record and its
 * simulation name them as the explorer does.
 */
export const PAIR_EVENTS = parseAbi([
  "event Mint(address indexed sender, uint256 amount0, uint256 amount1)",
  "event Burn(address indexed sender, uint256 amount0, uint256 amount1, address indexed to)",
  "event Swap(address indexed sender, uint256 amount0In, uint256 amount1In, uint256 amount0Out, uint256 amount1Out, address indexed to)",
  "event Sync(uint112 reserve0, uint112 reserve1)",
  "event PairCreated(address indexed token0, address indexed token1, address pair, uint256)",
]);

interface KnownAbi {
  readonly events: Map<Hex, AbiEvent[]>;
  readonly functions: Map<Hex, AbiFunction>;
}

let known: KnownAbi | null = null;

function knownAbi(): KnownAbi {
  if (known) return known;
  const items = [...ERC20_ABI, ...ERC721_ABI, ...WETH_EVENTS, ...PAIR_EVENTS, ...loadArtifact("ChainformBridge").abi];
  const events = new Map<Hex, AbiEvent[]>();
  const functions = new Map<Hex, AbiFunction>();
  for (const item of items) {
    if (item.type === "event") {
      const topic = toEventSelector(item);
      events.set(topic, [...(events.get(topic) ?? []), item]);
    } else if (item.type === "function") {
      const selector = toFunctionSelector(item);
      if (!functions.has(selector)) functions.set(selector, item);
    }
  }
  known = { events, functions };
  return known;
}

/** A log with its decoded name and inputs when a known event matches, else empty ones. */
export function decodeLog(raw: RawLog): SimulationLog {
  const log: SimulationLog = { anonymous: false, inputs: [], name: "", raw };
  const candidates = raw.topics[0] ? knownAbi().events.get(raw.topics[0].toLowerCase() as Hex) : undefined;
  for (const event of candidates ?? []) {
    const indexed = event.inputs.filter((input) => input.indexed).length;
    if (indexed + 1 !== raw.topics.length) continue;
    try {
      const decoded = decodeEventLog({ abi: [event], data: raw.data as Hex, topics: raw.topics as [Hex, ...Hex[]], strict: true });
      const args = decoded.args as unknown as Record<string, unknown>;
      return {
        ...log,
        anonymous: event.anonymous ?? false,
        name: event.name,
        inputs: event.inputs.map((input, i) => ({
          name: input.name ?? "",
          type: input.type,
          value: String(formatValue(input, args[input.name ?? String(i)])),
        })),
      };
    } catch {
      // not this event
    }
  }
  return log;
}

/** Decodes a log list (lowercasing addresses). */
export function decodeLogs(logs: readonly { address: string; topics: readonly string[]; data: string }[]): SimulationLog[] {
  return logs.map((l) => decodeLog({ address: l.address.toLowerCase(), data: l.data, topics: [...l.topics] }));
}

/** A call's method name and decoded input/output when its selector is known. */
export interface DecodedCall {
  readonly method: string;
  readonly decodedInput: DecodedArgument[];
  readonly decodedOutput: DecodedArgument[];
}

/**
 * Decodes a call. `method` is the function name when known, else the 4-byte selector (empty for a plain
 * transfer or a creation); `output` is decoded only for a call that succeeded.
 */
export function decodeCall(input: string, output: string | undefined, succeeded: boolean): DecodedCall {
  const selector = input.slice(0, 10).toLowerCase() as Hex;
  if (input.length < 10) return { method: "", decodedInput: [], decodedOutput: [] };
  const fn = knownAbi().functions.get(selector);
  if (!fn) return { method: selector, decodedInput: [], decodedOutput: [] };
  let decodedInput: DecodedArgument[] = [];
  let decodedOutput: DecodedArgument[] = [];
  try {
    const { args } = decodeFunctionData({ abi: [fn], data: input as Hex });
    decodedInput = toArguments(fn.inputs, (args ?? []) as readonly unknown[]);
  } catch {
    // calldata does not fit the known signature
  }
  if (succeeded && output && output !== "0x" && fn.outputs.length > 0) {
    try {
      const result = decodeFunctionResult({ abi: [fn], functionName: fn.name, data: output as Hex });
      decodedOutput = toArguments(fn.outputs, fn.outputs.length === 1 ? [result] : (result as readonly unknown[]));
    } catch {
      // output does not fit
    }
  }
  return { method: fn.name, decodedInput, decodedOutput };
}

function toArguments(params: readonly AbiParameter[], values: readonly unknown[]): DecodedArgument[] {
  return params.map((param, i) => ({ name: param.name ?? "", type: param.type, value: formatValue(param, values[i]) }));
}

/** Strings for everything (decimal integers, lowercase addresses, hex bytes, JSON for lists), booleans kept. */
function formatValue(param: AbiParameter, value: unknown): string | boolean {
  if (typeof value === "boolean") return value;
  if (typeof value === "bigint" || typeof value === "number") return value.toString();
  if (typeof value === "string") return param.type === "address" ? value.toLowerCase() : value;
  return JSON.stringify(value, (_key, v: unknown) => (typeof v === "bigint" ? v.toString() : v));
}
