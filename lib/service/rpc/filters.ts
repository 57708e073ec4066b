/**
 * A step of the RPC pipeline's per-call stage (./pipeline.ts step 5): the live filters of each RPC URL, counted so
 * that no caller can fill a chain with them (../caller-limits.ts `filtersPerUrl`). A filter counts from the chain's answer
 * that created it until `eth_uninstallFilter` removes it, the chain says it is gone, or nobody has polled it for
 * five minutes: anvil drops such a filter itself (its filter eviction), so the count never holds more than anvil does.
 */
import type { JsonRpcRequest, JsonRpcResponse } from "../chains";
import { refusedInPlace, rpcError, type RpcBody } from "./body";

type RpcCalls = Exclude<RpcBody, { response: unknown }>;

/** The methods that make a filter. */
const CREATES: ReadonlySet<string> = new Set(["eth_newFilter", "eth_newBlockFilter", "eth_newPendingTransactionFilter"]);
/** The methods that poll one (and keep it alive in anvil). */
const POLLS: ReadonlySet<string> = new Set(["eth_getFilterChanges", "eth_getFilterLogs"]);
/** anvil drops a filter nobody polled for this long. */
const UNPOLLED_MS = 5 * 60_000;

/** The message of a filter refused past the cap. */
export function tooManyFilters(cap: number): string {
  return `too many live filters on this RPC URL (at most ${cap}): eth_uninstallFilter one first`;
}

/** The live filters of every RPC URL, by the URL's window name (`RpcTarget.bucket`). */
export class FilterLedger {
  /** Per URL: filter id to when it was made or last polled. */
  private readonly urls = new Map<string, Map<string, number>>();

  constructor(private readonly cap: number) {}

  /**
   * The calls to send, with each filter past the URL's cap refused where it stands (-32005), and what to call with
   * the answer once it comes. Calls with no filter method go through untouched, at the cost of one look at each
   * method's name.
   */
  admit(url: string, calls: RpcCalls): { calls: RpcCalls; settle: (answer: Buffer | string) => void } | null {
    if (!calls.requests.some((request) => request.method.includes("Filter"))) return null;
    const filters = this.live(url);
    let room = this.cap - filters.size;
    const kept: JsonRpcRequest[] = [];
    const refused = new Set<JsonRpcRequest>();
    for (const request of calls.requests) {
      if (CREATES.has(request.method) && room-- <= 0) refused.add(request);
      else kept.push(request);
    }
    const admitted =
      refused.size === 0
        ? calls
        : refusedInPlace(calls, (request) =>
            refused.has(request) ? rpcError(request.id ?? null, -32005, tooManyFilters(this.cap)) : undefined,
          );
    return { calls: admitted, settle: (answer) => this.settle(url, kept, answer) };
  }

  /** Forgets a URL's filters (its vnet is deleted, and its chain with them). */
  forget(url: string): void {
    this.urls.delete(url);
  }

  /** Live filters of a URL (for tests). */
  count(url: string): number {
    return this.live(url).size;
  }

  private live(url: string): Map<string, number> {
    let filters = this.urls.get(url);
    if (!filters) {
      filters = new Map();
      this.urls.set(url, filters);
    }
    const now = Date.now();
    for (const [id, touched] of filters) if (now - touched > UNPOLLED_MS) filters.delete(id);
    return filters;
  }

  /** Reads the chain's answers to the filter calls sent: filters made, polled, removed or unknown to the chain. */
  private settle(url: string, sent: readonly JsonRpcRequest[], answer: Buffer | string): void {
    let parsed: unknown;
    try {
      parsed = JSON.parse(answer.toString());
    } catch {
      return;
    }
    const answers = new Map<unknown, JsonRpcResponse>();
    for (const entry of Array.isArray(parsed) ? parsed : [parsed]) {
      if (typeof entry === "object" && entry !== null) answers.set((entry as JsonRpcResponse).id, entry as JsonRpcResponse);
    }
    const filters = this.live(url);
    for (const request of sent) {
      const reply = request.id === undefined ? undefined : answers.get(request.id);
      if (!reply) continue;
      const result = (reply as { result?: unknown }).result;
      const named = Array.isArray(request.params) ? request.params[0] : undefined;
      if (CREATES.has(request.method) && typeof result === "string") filters.set(result, Date.now());
      else if (typeof named !== "string") continue;
      else if (request.method === "eth_uninstallFilter" || "error" in reply) filters.delete(named);
      else if (POLLS.has(request.method) && filters.has(named)) filters.set(named, Date.now());
    }
    if (filters.size === 0) this.urls.delete(url);
  }
}
