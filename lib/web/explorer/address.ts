/** The explorer's address page panels: the transactions the service recorded for an address, and the contract tab. */
import type { StoreViews } from "../../service/web-interface";
import { reveals } from "../../api";
import { summarize, type VnetView, type WebContext } from "../context";
import { fields, html, table, type Html } from "../html";
import type { ExplorerLinks } from "./links";

/** The transactions the service recorded from or to an address, newest first. */
export function addressTransactions(views: StoreViews, view: VnetView, address: string, link: ExplorerLinks): Html {
  const instance = view.vnet.instance_id;
  const records = [
    ...views.records.transactions(instance, { from: address }, 1, 50),
    ...views.records.transactions(instance, { to: address }, 1, 50),
  ]
    .map(summarize)
    .filter((t) => t.vnetId === view.vnet.id);
  const unique = [...new Map(records.map((t) => [t.hash, t])).values()].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  return html`<h2>Transactions</h2><div class="card">${table(
    ["Hash", "Block", "From", "To", "Status", "Category"],
    unique.map((t) => [
      link.tx(t.hash),
      t.blockNumber ? link.block(t.blockNumber) : "pending",
      link.address(t.from),
      t.to ? link.address(t.to) : "create",
      statusOf(t.status),
      t.category,
    ]),
    "no transactions recorded for this address",
  )}</div>`;
}

/** The contract tab: bytecode always; the ABI from `abi` up; the source only for `source`. */
export function contractPanel(context: WebContext, view: VnetView, address: string, code: string): Html {
  const verified = context.verified.get(view.vnet.id, address);
  const parts: Html[] = [];
  if (verified) {
    parts.push(
      html`<div class="card">${fields([
        ["Contract", reveals(view.visibility, "abi") ? verified.contractName : "verified"],
        ["Compiler", verified.compilerVersion],
        ["Optimizer", verified.optimizationUsed ? `on, ${verified.runs} runs` : "off"],
        ["Visibility", `${view.visibility} (verification_visibility)`],
      ])}</div>`,
    );
  } else {
    parts.push(
      html`<p class="muted">Not verified. Verify it with the Etherscan-compatible API at <code>/explorer/${view.vnet.id}/api</code>.</p>`,
    );
  }
  if (verified && reveals(view.visibility, "abi")) {
    parts.push(html`<h2>ABI</h2><div class="card" id="abi"><pre>${JSON.stringify(verified.abi, null, 2)}</pre></div>`);
  }
  if (verified && reveals(view.visibility, "source")) {
    const sources = (JSON.parse(verified.standardJsonInput).sources ?? {}) as Record<string, { content?: string }>;
    parts.push(
      html`<h2>Source</h2><div class="card" id="source">${Object.entries(sources).map(
        ([path, file]) => html`<h3 class="mono">${path}</h3><pre>${file.content ?? "(by reference)"}</pre>`,
      )}</div>`,
    );
  }
  parts.push(html`<h2>Bytecode</h2><div class="card" id="bytecode"><pre>${code}</pre></div>`);
  return html`${parts}`;
}

/** A record's status, coloured. */
function statusOf(status: string): Html {
  return status === "success" ? html`<span class="ok">success</span>` : html`<span class="fail">${status}</span>`;
}
