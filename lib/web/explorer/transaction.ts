/**
 * The transaction panel, shared by the explorer and the dashboard. A record of the service's own (a cheatcode, whose
 * hash is the service's and no chain's) is shown from the service's store without asking the chain: on an offline
 * fork, the chain would ask its upstream for a hash it never had.
 */
import { decodeEventLog, decodeLog, type Abi, type AbiEvent, type Hex } from "../../service/web-interface";
import { reveals, type SimulationLog, type Transaction } from "../../api";
import { ChainReader, ChainReadError, decimal } from "../chain-reader";
import { summarize, type VnetView, type WebContext } from "../context";
import { ether, fields, html, table, type Html } from "../html";
import { argumentList, decodeInput, formatValue, fromCallFrame, traceTree } from "../trace-view";
import type { ExplorerLinks } from "./links";

/**
 * The transaction panel (status, parties, value, gas, decoded input and logs, trace, revert reason), shared with
 * the dashboard; undefined when neither the chain nor the records know the hash.
 */
export async function transactionBody(
  context: WebContext,
  view: VnetView,
  hash: string,
  link: Pick<ExplorerLinks, "block" | "address">,
): Promise<Html | undefined> {
  const stored = context.service.views.records.transaction(view.vnet.instance_id, hash);
  const record = stored?.vnet_id === view.vnet.id ? stored : undefined;
  // A cheatcode's hash is the service's own: no chain has it, and an offline fork would ask its upstream for it.
  if (record?.kind === "cheatcode") return recordPanel(record, link);
  let found: Awaited<ReturnType<ChainReader["transaction"]>>;
  try {
    found = await new ChainReader(context.service.chains, view.vnet.id).transaction(hash);
  } catch (error) {
    // The chain cannot say (an offline fork that never recorded the hash): the service's record still can.
    if (record && error instanceof ChainReadError) return recordPanel(record, link);
    throw error;
  }
  if (!found) return record ? recordPanel(record, link) : undefined;
  const { tx, receipt, trace } = found;
  const abiOf = (address: string) => abiFor(context, view, address);
  const status = !receipt
    ? html`<span class="muted">pending</span>`
    : receipt.status === "0x1"
      ? html`<span class="ok">success</span>`
      : html`<span class="fail">reverted</span>`;
  const reason = trace?.error ? (trace.revertReason ? `${trace.revertReason}` : trace.error) : null;
  const decoded = tx.to ? decodeInput(tx.input, trace?.output, receipt?.status === "0x1", abiOf(tx.to)) : undefined;
  const logs = (receipt?.logs ?? []).map((log) => decodeWith(abiOf(log.address.toLowerCase()), log));
  return html`<h1>Transaction</h1><div class="card">${fields([
    ["Hash", html`<span class="mono">${tx.hash}</span>`],
    ["Status", status],
    ["Revert reason", reason ? html`<span class="fail">${reason}</span>` : null],
    ["Block", tx.blockNumber ? link.block(tx.blockNumber) : "pending"],
    ["From", link.address(tx.from)],
    [
      "To",
      tx.to
        ? link.address(tx.to)
        : receipt?.contractAddress
          ? html`new contract ${link.address(receipt.contractAddress)}`
          : "contract creation",
    ],
    ["Value", ether(tx.value)],
    ["Gas", `${receipt ? decimal(receipt.gasUsed) : "?"} used of ${decimal(tx.gas)}`],
    ["Gas price", tx.gasPrice ? `${decimal(tx.gasPrice)} wei` : null],
    ["Nonce", decimal(tx.nonce)],
    ["Category", record?.category ?? null],
    ["Method", decoded?.method ? html`<code>${decoded.method}(${argumentList(decoded.args)})</code>` : null],
    ["Input", html`<details><summary class="muted">${(tx.input.length - 2) / 2} bytes</summary><pre>${tx.input}</pre></details>`],
  ])}</div>
<h2>Logs (${logs.length})</h2><div class="card">${table(
    ["Address", "Event", "Topics / data"],
    logs.map((log) => [
      link.address(log.raw.address),
      log.name
        ? html`<code>${log.name}(${log.inputs.map((i) => `${i.name}: ${i.value}`).join(", ")})</code>`
        : html`<span class="muted">unknown event</span>`,
      html`<details><summary class="muted">raw</summary><pre>${[...log.raw.topics, log.raw.data].join("\n")}</pre></details>`,
    ]),
    "no logs",
  )}</div>
<h2>Call trace</h2><div class="card">${traceTree(trace ? fromCallFrame(trace, abiOf) : undefined, link.address)}</div>`;
}

/** The ABI the pages may use for an address: a verified contract's, when its visibility reveals the ABI. */
function abiFor(context: WebContext, view: VnetView, address: string): Abi | undefined {
  if (!reveals(view.visibility, "abi")) return undefined;
  return context.verified.get(view.vnet.id, address)?.abi;
}

function decodeWith(abi: Abi | undefined, log: { address: string; topics: readonly string[]; data: string }): SimulationLog {
  const raw = { address: log.address.toLowerCase(), topics: [...log.topics], data: log.data };
  if (abi && raw.topics.length > 0) {
    try {
      const decoded = decodeEventLog({ abi, data: raw.data as Hex, topics: raw.topics as [Hex, ...Hex[]] });
      const args = (decoded.args ?? {}) as Record<string, unknown>;
      const event = abi.find((item) => item.type === "event" && item.name === decoded.eventName) as AbiEvent | undefined;
      return {
        anonymous: event?.anonymous ?? false,
        name: decoded.eventName ?? "",
        inputs: (event?.inputs ?? []).map((input, i) => ({
          name: input.name ?? "",
          type: input.type,
          value: String(formatValue(input.type, args[input.name ?? String(i)])),
        })),
        raw,
      };
    } catch {
      // not an event of this ABI
    }
  }
  return decodeLog(raw);
}

/** A transaction from the service's record alone: a cheatcode, or a transaction the chain cannot show. */
function recordPanel(record: Transaction, link: Pick<ExplorerLinks, "block" | "address">): Html {
  const summary = summarize(record);
  const cheatcode = summary.kind === "cheatcode";
  return html`<h1>Transaction</h1><div class="card">${fields([
    ["Hash", html`<span class="mono">${summary.hash}</span>`],
    ["Status", summary.status],
    ["Category", summary.category],
    ["Kind", cheatcode ? html`cheatcode <code>${summary.rpcMethod ?? ""}</code>` : summary.kind],
    ["At block", summary.blockNumber ? link.block(summary.blockNumber) : "pending"],
    ["From", cheatcode ? null : link.address(summary.from)],
    ["Target", summary.to ? link.address(summary.to) : "-"],
    ["Call", cheatcode ? html`<pre>${Buffer.from(record.input.slice(2), "hex").toString("utf8")}</pre>` : null],
  ])}<p class="muted">${
    cheatcode
      ? "A cheatcode changed the chain's state directly; it mined no transaction, so it has no trace."
      : "The chain cannot show this transaction now; this is the service's record of it."
  }</p></div>`;
}
