/**
 * The transaction panel, shared by the explorer and the dashboard. A record of the service's own (a cheatcode, whose
 * hash is the service's and no chain's) is shown from the service's store without asking the chain: on an offline
 * fork, the chain would ask its upstream for a hash it never had.
 */
import { isOwnDiff, PRESTATE_DIFF, stateChanges, type CallFrame, type PrestateDiff } from "../../service/web-interface";
import type { SimulationLog, Transaction } from "../../api";
import { assetChanges } from "../../domain/asset-changes";
import { ChainReader, ChainReadError, decimal } from "../chain-reader";
import { summarize, type VnetView, type WebContext } from "../context";
import { decodeEvent } from "../decode/book";
import { hasPairAmounts, pairTokens, type PairTokens } from "../decode/pairs";
import { ContractAbis } from "../decode/contract-abis";
import { TokenBook, tokenTransfers } from "../decode/tokens";
import { ether, fields, html, type Html } from "../html";
import { argumentsHtml, decodeInput, fromCallFrame, traceTree } from "../trace-view";
import type { ExplorerLinks } from "./links";
import { timeAt } from "./pages";
import { balanceTable, createdContracts, logTable, namesOf, stateTable, transferTable } from "./transaction-parts";

/**
 * The transaction panel (status, parties, value, gas, time, the decoded call, token transfers, named events, the
 * trace, contracts it created, revert reason), shared with the dashboard; undefined when neither the chain nor the
 * records know the hash. Unverified contracts decode too: by their user-added ABI, their proxy's implementation, or
 * the standard interfaces and the signature table (lib/web/decode).
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
  const chain = new ChainReader(context.service.chains, view.vnet.id);
  let found: Awaited<ReturnType<ChainReader["transaction"]>>;
  try {
    found = await chain.transaction(hash);
  } catch (error) {
    // The chain cannot say (an offline fork that never recorded the hash): the service's record still can.
    if (record && error instanceof ChainReadError) return recordPanel(record, link);
    throw error;
  }
  if (!found) return record ? recordPanel(record, link) : undefined;
  const { tx, receipt, trace } = found;
  const succeeded = receipt?.status === "0x1";
  const rawLogs = receipt?.logs ?? [];
  const abis = new ContractAbis(context, view, chain);
  const [abiOf, time, diff] = await Promise.all([
    abis.lookup([...(tx.to ? [tx.to] : []), ...rawLogs.map((l) => l.address), ...frameTargets(trace)]),
    tx.blockNumber ? chain.blockTime(tx.blockNumber).catch(() => null) : null,
    // What it wrote is not kept: the chain can say it only while it can still run the block again.
    receipt ? chain.call<PrestateDiff>("debug_traceTransaction", [hash, PRESTATE_DIFF]).catch(() => null) : null,
  ]);
  const logs = rawLogs.map((log) => decodeEvent(log, abiOf(log.address)));
  const transfers = tokenTransfers(logs);
  const blockTag = tx.blockNumber ?? "latest";
  const tokens = new TokenBook(chain, blockTag);
  const pairs = await pairsOf(chain, logs, blockTag);
  const pairTokenList = [...pairs.values()].flatMap((p) => [p.token0, p.token1]);
  const metadata = await tokens.load([...rawLogs.map((l) => l.address), ...pairTokenList]);
  const fee = receipt ? BigInt(receipt.gasUsed) * BigInt(receipt.effectiveGasPrice ?? tx.gasPrice ?? "0x0") : 0n;
  const changes = trace ? assetChanges(trace, tx.from, fee, metadata) : undefined;
  const names = await namesOf(abis, metadata, [tx.from, ...(tx.to ? [tx.to] : [])]);
  const named = (address: string) => {
    const name = names.get(address.toLowerCase());
    return name ? html`<span class="name">${name}</span> ${link.address(address)}` : link.address(address);
  };
  const status = !receipt
    ? html`<span class="muted">pending</span>`
    : succeeded
      ? html`<span class="ok">success</span>`
      : html`<span class="fail">reverted</span>`;
  const reason = trace?.error ? (trace.revertReason ? `${trace.revertReason}` : trace.error) : null;
  const decoded = tx.to ? decodeInput(tx.input, trace?.output, succeeded, abiOf(tx.to)) : undefined;
  const created = trace ? createdContracts(trace) : [];
  return html`<h1>Transaction</h1><div class="card">${fields([
    ["Hash", html`<span class="mono">${tx.hash}</span>`],
    ["Status", status],
    ["Revert reason", reason ? html`<span class="fail">${reason}</span>` : null],
    ["Block", tx.blockNumber ? link.block(tx.blockNumber) : "pending"],
    ["Time", time === null ? null : html`<time id="block-time">${timeAt(time)}</time>`],
    ["From", named(tx.from)],
    [
      "To",
      tx.to ? named(tx.to) : receipt?.contractAddress ? html`new contract ${link.address(receipt.contractAddress)}` : "contract creation",
    ],
    ["Method", decoded?.method ? html`<code id="method">${decoded.method}(${argumentsHtml(decoded.args, named)})</code>` : null],
    ["Returns", decoded && decoded.results.length > 0 ? html`<code>${argumentsHtml(decoded.results, named)}</code>` : null],
    ["Value", ether(tx.value)],
    ["Gas", `${receipt ? decimal(receipt.gasUsed) : "?"} used of ${decimal(tx.gas)}`],
    ["Gas price", tx.gasPrice ? `${decimal(tx.gasPrice)} wei` : null],
    ["Nonce", decimal(tx.nonce)],
    ["Category", record?.category ?? null],
    ["Contracts created", created.length > 0 ? html`${created.map((c) => html`${link.address(c.address)} `)}` : null],
    ["Input", html`<details><summary class="muted">${(tx.input.length - 2) / 2} bytes</summary><pre>${tx.input}</pre></details>`],
  ])}</div>
<h2>Token transfers (${transfers.length})</h2><div class="card" id="transfers">${transferTable(transfers, metadata, named)}</div>
<h2>Balance changes</h2><div class="card" id="balance-changes">${
    changes ? balanceTable(changes, named) : html`<p class="muted">no trace available</p>`
  }<p class="muted">No prices: chainform knows none offline.</p></div>
<h2>State changes</h2><div class="card" id="state-changes">${
    isOwnDiff(diff, tx.from)
      ? stateTable(stateChanges(diff), named)
      : html`<p class="muted">not available: the chain was reloaded since (state changes are not kept)</p>`
  }</div>
<h2>Events (${logs.length})</h2><div class="card" id="events">${logTable(logs, metadata, named, pairs)}</div>
<h2>Call trace</h2><div class="card">${traceTree(trace ? fromCallFrame(trace, abiOf) : undefined, named)}</div>`;
}

/** The pairs (contracts answering `token0()`/`token1()`) among the emitters of events with pair amounts. */
async function pairsOf(chain: ChainReader, logs: readonly SimulationLog[], blockTag: string): Promise<Map<string, PairTokens>> {
  const emitters = [...new Set(logs.filter((log) => hasPairAmounts(log.inputs)).map((log) => log.raw.address.toLowerCase()))];
  const found = await Promise.all(emitters.map((address) => pairTokens(chain, address, blockTag)));
  return new Map(emitters.flatMap((address, i) => (found[i] ? [[address, found[i]] as const] : [])));
}

/** Every address a trace calls. */
function frameTargets(frame: CallFrame | null): string[] {
  if (!frame) return [];
  return [...(frame.to ? [frame.to] : []), ...(frame.calls ?? []).flatMap(frameTargets)];
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
