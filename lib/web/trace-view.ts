/**
 * The call trace as a collapsible tree (`<details>` in `<details>`, no script), one view for mined transactions
 * (a callTracer tree from the chain) and for simulations (the spec's flat trace, rebuilt into a tree).
 */
import {
  decodeCall,
  decodeFunctionData,
  decodeFunctionResult,
  type Abi,
  type AbiFunction,
  type CallFrame,
  type Hex,
} from "../service/web-interface";
import type { DecodedArgument, TraceEntry } from "../api";
import { decimal, formatEther } from "./chain-reader";
import { html, type Html } from "./html";

/** One call of the tree. */
export interface TraceNode {
  readonly type: string;
  readonly from: string;
  readonly to: string;
  readonly value: string;
  readonly gasUsed: string;
  readonly input: string;
  readonly output: string;
  readonly method: string;
  readonly args: readonly DecodedArgument[];
  readonly results: readonly DecodedArgument[];
  readonly error?: string;
  readonly revertReason?: string;
  readonly children: readonly TraceNode[];
}

/** Finds the ABI the pages may use for a contract (a verified one whose visibility reveals it), if any. */
export type AbiLookup = (address: string) => Abi | undefined;

/** A decoded call: with the contract's own ABI when known, else with the ABIs the engine knows (ERC-20...). */
export function decodeInput(input: string, output: string | undefined, succeeded: boolean, abi: Abi | undefined) {
  if (abi && input.length >= 10) {
    try {
      const { functionName, args } = decodeFunctionData({ abi, data: input as Hex });
      const fn = abi.find((item): item is AbiFunction => item.type === "function" && item.name === functionName)!;
      let results: DecodedArgument[] = [];
      if (succeeded && output && output !== "0x" && fn.outputs.length > 0) {
        try {
          const result = decodeFunctionResult({ abi: [fn], functionName, data: output as Hex });
          results = toArguments(fn.outputs, fn.outputs.length === 1 ? [result] : (result as readonly unknown[]));
        } catch {
          // output does not fit the ABI
        }
      }
      return { method: functionName, args: toArguments(fn.inputs, (args ?? []) as readonly unknown[]), results };
    } catch {
      // not a function of this ABI: fall back to the known ones
    }
  }
  const known = decodeCall(input, output, succeeded);
  return { method: known.method, args: known.decodedInput, results: known.decodedOutput };
}

/** The tree of a callTracer result. */
export function fromCallFrame(frame: CallFrame, abiOf: AbiLookup): TraceNode {
  const to = (frame.to ?? "").toLowerCase();
  const input = frame.input ?? "0x";
  const decoded = decodeInput(input, frame.output, !frame.error, to ? abiOf(to) : undefined);
  return {
    type: frame.type,
    from: frame.from.toLowerCase(),
    to,
    value: frame.value ?? "0x0",
    gasUsed: frame.gasUsed ?? "0x0",
    input,
    output: frame.output ?? "0x",
    method: decoded.method,
    args: decoded.args,
    results: decoded.results,
    error: frame.error,
    revertReason: frame.revertReason,
    children: (frame.calls ?? []).map((child) => fromCallFrame(child, abiOf)),
  };
}

/** The tree of a flat trace (pre-order entries with `traceAddress`). */
export function fromFlatTrace(entries: readonly TraceEntry[]): TraceNode | undefined {
  const byPath = new Map<string, TraceNode & { children: TraceNode[] }>();
  let root: TraceNode | undefined;
  for (const entry of entries) {
    const node = {
      type: entry.type,
      from: entry.from,
      to: entry.to,
      value: entry.value,
      gasUsed: entry.gasUsed,
      input: entry.input,
      output: entry.output,
      method: entry.method,
      args: entry.decodedInput,
      results: entry.decodedOutput,
      children: [] as TraceNode[],
    };
    byPath.set(entry.traceAddress.join("."), node);
    if (entry.traceAddress.length === 0) root = node;
    else byPath.get(entry.traceAddress.slice(0, -1).join("."))?.children.push(node);
  }
  return root;
}

/** Renders the tree; calls deeper than `openDepth` start folded. */
export function traceTree(node: TraceNode | undefined, link: (address: string) => Html, openDepth = 3, depth = 0): Html {
  if (!node) return html`<p class="muted">no trace available</p>`;
  const failed = node.error !== undefined;
  const creates = node.type.startsWith("CREATE");
  const call = creates
    ? html`<span class="muted">contract creation</span>`
    : node.method
      ? html`<code>${node.method}(${argumentList(node.args)})</code>`
      : html`<span class="muted">${node.input === "0x" ? "transfer" : "call"}</span>`;
  const target = creates ? html`new contract ${node.to ? link(node.to) : ""}` : node.to ? link(node.to) : html``;
  const value = BigInt(node.value || "0x0") > 0n ? html` · ${formatEther(node.value)}` : html``;
  return html`<details class="frame${failed ? " failed" : ""}"${depth < openDepth ? html` open` : html``}>
<summary><strong>${node.type}</strong> ${link(node.from)} → ${target} ${call}${value} · gas ${decimal(node.gasUsed)}${
    failed ? html` · <span class="fail">${node.revertReason ? `reverted: ${node.revertReason}` : node.error}</span>` : html``
  }</summary>
${node.results.length > 0 ? html`<div>returns <code>${argumentList(node.results)}</code></div>` : html``}
<details><summary class="muted">input / output</summary><pre>${node.input}</pre><pre>${node.output}</pre></details>
${node.children.map((child) => traceTree(child, link, openDepth, depth + 1))}</details>`;
}

/** `name: value, ...` of decoded arguments. */
export function argumentList(args: readonly DecodedArgument[]): string {
  return args.map((a) => `${a.name ? `${a.name}: ` : ""}${String(a.value)}`).join(", ");
}

function toArguments(params: readonly { name?: string; type: string }[], values: readonly unknown[]): DecodedArgument[] {
  return params.map((param, i) => ({ name: param.name ?? "", type: param.type, value: formatValue(param.type, values[i]) }));
}

/** A decoded value as the pages show it: decimal integers, lowercase addresses, JSON for lists and tuples. */
export function formatValue(type: string, value: unknown): string | boolean {
  if (typeof value === "boolean") return value;
  if (typeof value === "bigint" || typeof value === "number") return value.toString();
  if (typeof value === "string") return type === "address" ? value.toLowerCase() : value;
  return JSON.stringify(value, (_key, v: unknown) => (typeof v === "bigint" ? v.toString() : v));
}
