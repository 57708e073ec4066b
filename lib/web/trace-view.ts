/**
 * The call trace as a collapsible tree (`<details>` in `<details>`, no script), one view for mined transactions
 * (a callTracer tree from the chain) and for simulations (the spec's flat trace, rebuilt into a tree).
 */
import type { Abi, CallFrame } from "../service/web-interface";
import type { DecodedArgument, TraceEntry } from "../api";
import { decimal, formatEther } from "./chain-reader";
import { decodeCallData, type DecodedCall } from "./decode/book";
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

/** Finds the ABI the pages may use for a contract (verified and revealed, or added by a user), if any. */
export type AbiLookup = (address: string) => Abi | undefined;

/** A decoded call: with the contract's own ABI when known, else by selector (decode/book.ts). */
export function decodeInput(input: string, output: string | undefined, succeeded: boolean, abi: Abi | undefined): DecodedCall {
  return decodeCallData(input, output, succeeded, abi);
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

/**
 * The tree of a flat trace (pre-order entries with `traceAddress`); a call the service left as a bare selector is
 * decoded again with the standard interfaces and the signature table (decode/book.ts).
 */
export function fromFlatTrace(entries: readonly TraceEntry[]): TraceNode | undefined {
  const byPath = new Map<string, TraceNode & { children: TraceNode[] }>();
  let root: TraceNode | undefined;
  for (const entry of entries) {
    const known = entry.method.startsWith("0x") ? decodeCallData(entry.input, entry.output, true, undefined) : undefined;
    const node = {
      type: entry.type,
      from: entry.from,
      to: entry.to,
      value: entry.value,
      gasUsed: entry.gasUsed,
      input: entry.input,
      output: entry.output,
      method: known?.method ?? entry.method,
      args: known?.args ?? entry.decodedInput,
      results: known?.results ?? entry.decodedOutput,
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
      ? html`<code>${node.method}(${argumentsHtml(node.args, link)})</code>`
      : html`<span class="muted">${node.input === "0x" ? "transfer" : "call"}</span>`;
  const target = creates ? html`new contract ${node.to ? link(node.to) : ""}` : node.to ? link(node.to) : html``;
  const value = BigInt(node.value || "0x0") > 0n ? html` · ${formatEther(node.value)}` : html``;
  return html`<details class="frame${failed ? " failed" : ""}"${depth < openDepth ? html` open` : html``}>
<summary><strong>${node.type}</strong> ${link(node.from)} → ${target} ${call}${value} · gas ${decimal(node.gasUsed)}${
    failed ? html` · <span class="fail">${node.revertReason ? `reverted: ${node.revertReason}` : node.error}</span>` : html``
  }</summary>
${node.results.length > 0 ? html`<div>returns <code>${argumentsHtml(node.results, link)}</code></div>` : html``}
<details><summary class="muted">input / output</summary><pre>${node.input}</pre><pre>${node.output}</pre></details>
${node.children.map((child) => traceTree(child, link, openDepth, depth + 1))}</details>`;
}

/** `name: value, ...` of decoded arguments. */
export function argumentList(args: readonly DecodedArgument[]): string {
  return args.map((a) => `${a.name ? `${a.name}: ` : ""}${String(a.value)}`).join(", ");
}

/** Decoded arguments as HTML: `name: value, ...`, addresses (and lists of them) shown as `link` renders them. */
export function argumentsHtml(args: readonly DecodedArgument[], link: (address: string) => Html): Html {
  return html`${args.map((a, i) => html`${i > 0 ? ", " : ""}${a.name ? `${a.name}: ` : ""}${valueHtml(a, link)}`)}`;
}

function valueHtml(arg: DecodedArgument, link: (address: string) => Html): Html | string {
  const value = String(arg.value);
  if (arg.type === "address" && ADDRESS.test(value)) return link(value);
  if (arg.type === "address[]") {
    try {
      const list = JSON.parse(value) as unknown;
      if (Array.isArray(list) && list.every((a) => typeof a === "string" && ADDRESS.test(a))) {
        return html`[${list.map((a: string, i) => html`${i > 0 ? ", " : ""}${link(a)}`)}]`;
      }
    } catch {
      // not a JSON list: shown as text
    }
  }
  return value;
}

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
