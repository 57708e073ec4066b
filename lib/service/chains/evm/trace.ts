/**
 * Turns a callTracer tree (`{ tracer: "callTracer", tracerConfig: { withLog: true } }`) into the spec's flat trace
 * (pre-order, with `subtraces` and `traceAddress`), the logs that really happened, and their bloom filter.
 */
import { hexToBytes, keccak256, type Hex } from "./viem";
import type { CallTraceNode, RawLog, TraceEntry } from "../../../api";
import { decodeCall } from "./abi";
import { walkExecution } from "../../../domain/asset-changes";

/** One frame of a callTracer result. */
export interface CallFrame {
  readonly type: string;
  readonly from: string;
  readonly to?: string;
  readonly gas?: string;
  readonly gasUsed?: string;
  readonly input?: string;
  readonly output?: string;
  readonly value?: string;
  readonly error?: string;
  readonly revertReason?: string;
  readonly calls?: readonly CallFrame[];
  readonly logs?: readonly { address: string; topics: readonly string[]; data: string; position?: string }[];
}

/** The frames in pre-order; `traceAddress` is the path of child indexes from the root (`[]` for the root). */
export function flattenTrace(root: CallFrame): TraceEntry[] {
  const entries: TraceEntry[] = [];
  const visit = (frame: CallFrame, traceAddress: number[]) => {
    const input = frame.input ?? "0x";
    const decoded = decodeCall(input, frame.output, !frame.error, frame.to);
    entries.push({
      decodedInput: decoded.decodedInput,
      decodedOutput: decoded.decodedOutput,
      from: frame.from.toLowerCase(),
      to: (frame.to ?? "").toLowerCase(),
      gas: frame.gas ?? "0x0",
      gasUsed: frame.gasUsed ?? "0x0",
      input,
      output: frame.output ?? "0x",
      value: frame.value ?? "0x0",
      method: decoded.method,
      subtraces: frame.calls?.length ?? 0,
      traceAddress,
      type: frame.type,
    });
    frame.calls?.forEach((child, i) => visit(child, [...traceAddress, i]));
  };
  visit(root, []);
  return entries;
}

/** The flat trace nested again by `traceAddress`: the root frame with its `calls` (null for an empty trace). */
export function nestTrace(entries: readonly TraceEntry[]): CallTraceNode | null {
  const byAddress = new Map<string, CallTraceNode>();
  let root: CallTraceNode | null = null;
  for (const entry of entries) {
    const node: CallTraceNode = {
      type: entry.type,
      from: entry.from,
      to: entry.to,
      gas: entry.gas,
      gas_used: entry.gasUsed,
      value: entry.value,
      input: entry.input,
      output: entry.output,
      method: entry.method,
      decoded_input: entry.decodedInput,
      decoded_output: entry.decodedOutput,
      calls: [],
    };
    byAddress.set(entry.traceAddress.join("."), node);
    if (entry.traceAddress.length === 0) root = node;
    else byAddress.get(entry.traceAddress.slice(0, -1).join("."))?.calls.push(node);
  }
  return root;
}

/**
 * The logs the call emitted, in emission order (lib/domain/asset-changes.ts `walkExecution`: a frame's log at
 * `position` p came before its p-th child call). Logs of reverted frames (and their descendants) did not happen and
 * are left out.
 */
export function collectLogs(root: CallFrame): RawLog[] {
  const logs: RawLog[] = [];
  walkExecution(root, { log: (log) => logs.push({ address: log.address.toLowerCase(), data: log.data, topics: [...log.topics] }) });
  return logs;
}

/** The 2048-bit bloom filter of a list of logs (yellow paper, M3:2048), as in a receipt's `logsBloom`. */
export function logsBloom(logs: readonly RawLog[]): Hex {
  const bloom = new Uint8Array(256);
  const add = (value: string) => {
    const hash = hexToBytes(keccak256(value as Hex));
    for (let i = 0; i < 6; i += 2) {
      const bit = ((hash[i] << 8) | hash[i + 1]) & 2047;
      bloom[255 - (bit >> 3)] |= 1 << (bit & 7);
    }
  };
  for (const log of logs) {
    add(log.address);
    for (const topic of log.topics) add(topic);
  }
  return `0x${Buffer.from(bloom).toString("hex")}`;
}
