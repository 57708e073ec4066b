/**
 * The explorer's address page panels: the transactions the service recorded for an address on this network (paged),
 * a token's transfers and holders (from the records' logs), and the contract tab.
 */
import type { StoreViews } from "../../service/web-interface";
import { reveals } from "../../api";
import type { ChainReader, TokenMetadata } from "../chain-reader";
import { summarize, type VnetView, type WebContext } from "../context";
import { decodeEvent } from "../decode/book";
import { tokenAmount, tokenTransfers, ZERO_ADDRESS, type TokenTransfer } from "../decode/tokens";
import { fields, html, table, type Html } from "../html";
import type { ExplorerLinks } from "./links";

/** Rows of an address page's tables. */
export const ADDRESS_PAGE_SIZE = 50;
/** Records read to find a token's holders (its newest transfers). */
const HOLDER_SCAN_RECORDS = 1000;
/** Holders shown (each one balance read). */
const MAX_HOLDERS = 50;
/** `balanceOf(address)`. */
const BALANCE_OF = "0x70a08231";

/** The page number of an address page's query string; undefined when it is not a positive integer. */
export function pageOf(text: string | undefined): number | undefined {
  if (text === undefined || text === "") return 1;
  return /^[1-9][0-9]{0,5}$/.test(text) ? Number(text) : undefined;
}

/** The transactions the service recorded from or to an address on this network, newest first, a page at a time. */
export function addressTransactions(views: StoreViews, view: VnetView, address: string, link: ExplorerLinks, page: number): Html {
  const records = views.transactionsOfVnet(view.vnet.id, { address }, (page - 1) * ADDRESS_PAGE_SIZE, ADDRESS_PAGE_SIZE + 1).map(summarize);
  const shown = records.slice(0, ADDRESS_PAGE_SIZE);
  return html`<h2>Transactions</h2><div class="card" id="transactions">${table(
    ["Hash", "Block", "From", "To", "Status", "Category"],
    shown.map((t) => [
      link.tx(t.hash),
      t.blockNumber ? link.block(t.blockNumber) : "pending",
      link.address(t.from),
      t.to ? link.address(t.to) : "create",
      statusOf(t.status),
      t.category,
    ]),
    page > 1 ? "no more transactions" : "no transactions recorded for this address on this network",
  )}${pager(link.addressUrl(address), page, records.length > ADDRESS_PAGE_SIZE)}</div>`;
}

/** A token's transfers on this network (from the records' logs, newest first, paged) and its holders. */
export async function tokenPanel(
  views: StoreViews,
  view: VnetView,
  chain: ChainReader,
  token: string,
  metadata: TokenMetadata,
  link: ExplorerLinks,
  page: number,
): Promise<Html> {
  const records = views.transactionsOfVnet(view.vnet.id, { emitter: token }, (page - 1) * ADDRESS_PAGE_SIZE, ADDRESS_PAGE_SIZE + 1);
  const rows = records
    .slice(0, ADDRESS_PAGE_SIZE)
    .flatMap((record) =>
      transfersOf(record.logs ?? [], token).map((transfer) => ({ hash: record.tx_hash, blockNumber: record.block_number, transfer })),
    );
  const holders = await holdersOf(views, view, chain, token);
  return html`<h2>Token transfers</h2><div class="card" id="token-transfers">${table(
    ["Transaction", "Block", "From", "To", "Amount"],
    rows.map(({ hash, blockNumber, transfer }) => [
      link.tx(hash),
      blockNumber ? link.block(blockNumber) : "pending",
      link.address(transfer.from),
      link.address(transfer.to),
      tokenAmount(transfer.amount, metadata),
    ]),
    "no transfers recorded on this network",
  )}${pager(link.addressUrl(token), page, records.length > ADDRESS_PAGE_SIZE)}</div>
<h2>Holders</h2><div class="card" id="holders">${table(
    ["Holder", "Balance"],
    holders.map((h) => [link.address(h.holder), tokenAmount(h.balance, metadata)]),
    "no holders known from the recorded transfers",
  )}</div>`;
}

/** The transfers of one token among a record's logs. */
function transfersOf(logs: readonly { raw: { address: string; topics: string[]; data: string } }[], token: string): TokenTransfer[] {
  return tokenTransfers(logs.filter((l) => l.raw.address.toLowerCase() === token).map((l) => decodeEvent(l.raw, undefined)));
}

/** Who holds a token now: the parties of its recorded transfers, each balance read from the chain, largest first. */
async function holdersOf(views: StoreViews, view: VnetView, chain: ChainReader, token: string) {
  const parties = new Set<string>();
  for (let offset = 0; offset < HOLDER_SCAN_RECORDS; offset += 100) {
    const records = views.transactionsOfVnet(view.vnet.id, { emitter: token }, offset, 100);
    for (const record of records) for (const t of transfersOf(record.logs ?? [], token)) parties.add(t.from).add(t.to);
    if (records.length < 100) break;
  }
  parties.delete(ZERO_ADDRESS);
  const candidates = [...parties].slice(0, MAX_HOLDERS * 4);
  const balances = await Promise.all(
    candidates.map((holder) =>
      chain
        .call<string>("eth_call", [{ to: token, data: `${BALANCE_OF}${holder.slice(2).padStart(64, "0")}` }, "latest"])
        .then((answer) => (/^0x[0-9a-fA-F]{64}$/.test(answer) ? BigInt(answer) : 0n))
        .catch(() => 0n),
    ),
  );
  return candidates
    .map((holder, i) => ({ holder, balance: balances[i]! }))
    .filter((h) => h.balance > 0n)
    .sort((a, b) => (b.balance > a.balance ? 1 : b.balance < a.balance ? -1 : 0))
    .slice(0, MAX_HOLDERS);
}

/** Links to the newer and older pages of an address page. */
function pager(url: string, page: number, hasMore: boolean): Html {
  return html`<p class="pager">${page > 1 ? html`<a href="${url}?page=${page - 1}">← newer</a> ` : html``}${
    hasMore ? html`<a href="${url}?page=${page + 1}">older →</a>` : html``
  }</p>`;
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
