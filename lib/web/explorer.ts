/**
 * The public explorer of a Virtual Environment (`/explorer/{vnetId}`), for vnets whose network config has
 * `explorer_config.enabled: true`: overview, block, transaction, address (with the contract tab) and search.
 * No sign-in. A disabled or unknown vnet, an unknown hash or a malformed address is a 404/400 page.
 */
import type { FastifyInstance, FastifyReply } from "fastify";
import { decodeEventLog, decodeLog, type Abi, type AbiEvent, type Hex, type StoreViews } from "../service/web-interface";
import { Address, Hash, reveals, type SimulationLog } from "../api";
import { ChainReader, ChainReadError, decimal, type ChainBlock } from "./chain-reader";
import { sendPage, summarize, vnetView, type VnetView, type WebContext } from "./context";
import { ether, fields, html, page, shortHex, table, type Html } from "./html";
import { argumentList, decodeInput, formatValue, fromCallFrame, traceTree } from "./trace-view";

const ADDRESS = new RegExp(Address.pattern!);
const HASH = new RegExp(Hash.pattern!);
const BLOCK_NUMBER = /^(0|[1-9][0-9]{0,18})$/;
const LATEST_BLOCKS = 10;
const LATEST_TRANSACTIONS = 20;

/** Registers the explorer pages (the plugin is registered with prefix `/explorer`). */
export function registerExplorer(app: FastifyInstance, context: WebContext): void {
  const { views, chains } = context.service;
  const config = { public: true };

  /** Resolves the vnet of a page, or answers 404. */
  function explorerOf(vnetId: string, reply: FastifyReply): VnetView | undefined {
    const view = vnetView(views, vnetId);
    if (view?.explorerEnabled) return view;
    notFoundPage(reply, "There is no public explorer here: the Virtual Environment does not exist or its explorer is not enabled.");
    return undefined;
  }

  app.get<{ Params: { vnetId: string } }>("/:vnetId", { config }, async (request, reply) => {
    const view = explorerOf(request.params.vnetId, reply);
    if (!view) return reply;
    const chain = new ChainReader(chains, view.vnet.id);
    const blocks = await chain.latestBlocks(LATEST_BLOCKS, BigInt(view.vnet.block_number));
    const link = links(view);
    const latest = latestTransactions(views, view, blocks);
    return sendPage(
      reply,
      200,
      explorerPage(
        view,
        view.vnet.display_name,
        html`<h1>${view.vnet.display_name}</h1>
<div class="card">${fields([
          ["Network", `${view.vnet.network_name} (${view.vnet.network_id})`],
          ["Chain id", view.vnet.chain_id],
          ["Fork point", `block ${decimal(view.vnet.block_number)}`],
          ["Head", blocks[0] ? link.block(blocks[0].number) : "-"],
        ])}</div>
<h2>Latest blocks</h2><div class="card">${table(
          ["Block", "Transactions", "Gas used", "Time"],
          blocks.map((b) => [link.block(b.number), b.transactions.length, decimal(b.gasUsed), timeOf(b)]),
        )}</div>
<h2>Latest transactions</h2><div class="card" id="latest">${table(
          ["Hash", "Block", "From", "To", "Value", "Kind"],
          latest.map((t) => [
            link.tx(t.hash),
            t.blockNumber ? link.block(t.blockNumber) : "pending",
            link.address(t.from),
            t.to ? link.address(t.to) : "create",
            ether(t.value),
            t.cheatcode
              ? html`<span title="state written by ${t.cheatcode}; no transaction was mined">cheatcode <code>${t.cheatcode}</code></span>`
              : "transaction",
          ]),
        )}</div>`,
      ),
    );
  });

  app.get<{ Params: { vnetId: string; number: string } }>("/:vnetId/block/:number", { config }, async (request, reply) => {
    const view = explorerOf(request.params.vnetId, reply);
    if (!view) return reply;
    const { number } = request.params;
    if (!BLOCK_NUMBER.test(number)) return badInputPage(reply, view, `"${number}" is not a block number: use a decimal number such as 42`);
    const block = await new ChainReader(chains, view.vnet.id).block(BigInt(number));
    if (!block) return notFoundPage(reply, `Block ${number} does not exist on this chain yet.`, view);
    const link = links(view);
    return sendPage(
      reply,
      200,
      explorerPage(
        view,
        `Block ${number}`,
        html`<h1>Block ${number}</h1><div class="card">${fields([
          ["Hash", html`<span class="mono">${block.hash}</span>`],
          ["Time", timeOf(block)],
          ["Gas used", `${decimal(block.gasUsed)} of ${decimal(block.gasLimit)}`],
          ["Fee recipient", link.address(block.miner)],
        ])}</div><h2>Transactions</h2><div class="card">${table(
          ["Hash", "From", "To", "Value"],
          block.transactions.map((t) => [link.tx(t.hash), link.address(t.from), t.to ? link.address(t.to) : "create", ether(t.value)]),
        )}</div>`,
      ),
    );
  });

  app.get<{ Params: { vnetId: string; hash: string } }>("/:vnetId/tx/:hash", { config }, async (request, reply) => {
    const view = explorerOf(request.params.vnetId, reply);
    if (!view) return reply;
    const { hash } = request.params;
    if (!HASH.test(hash)) return badInputPage(reply, view, `"${hash}" is not a transaction hash: it is 0x followed by 64 hex digits`);
    const body = await transactionBody(context, view, hash.toLowerCase(), links(view));
    if (!body) return notFoundPage(reply, `No transaction ${hash} on this chain.`, view);
    return sendPage(reply, 200, explorerPage(view, `Transaction ${hash.slice(0, 10)}…`, body));
  });

  app.get<{ Params: { vnetId: string; address: string }; Querystring: { tab?: string } }>(
    "/:vnetId/address/:address",
    { config },
    async (request, reply) => {
      const view = explorerOf(request.params.vnetId, reply);
      if (!view) return reply;
      const { address } = request.params;
      if (!ADDRESS.test(address)) return badInputPage(reply, view, `"${address}" is not an address: it is 0x followed by 40 hex digits`);
      const at = address.toLowerCase();
      const chain = new ChainReader(chains, view.vnet.id);
      const account = await chain.account(at);
      const token = account.code !== "0x" ? await chain.tokenMetadata(at) : undefined;
      const link = links(view);
      const isContract = account.code !== "0x";
      const contractTab = request.query.tab === "contract" && isContract;
      const tabs = isContract
        ? html`<nav class="tabs"><a href="${link.addressUrl(at)}">Overview</a><a href="${link.addressUrl(at)}?tab=contract">Contract</a></nav>`
        : html``;
      const content = contractTab ? contractPanel(context, view, at, account.code) : addressTransactions(views, view, at, link);
      return sendPage(
        reply,
        200,
        explorerPage(
          view,
          `Address ${at}`,
          html`<h1 class="mono">${at}</h1><div class="card">${fields([
            ["Balance", ether(account.balance)],
            ["Nonce", account.nonce.toString()],
            ["Kind", isContract ? `contract (${(account.code.length - 2) / 2} bytes of code)` : "account"],
            ["Token", token ? html`<span id="token">${token.name} (${token.symbol}), ${token.decimals} decimals</span>` : null],
            ["Verified", isContract ? (context.verified.get(view.vnet.id, at) ? html`<span class="ok">yes</span>` : "no") : null],
          ])}</div>${tabs}${content}`,
        ),
      );
    },
  );

  app.get<{ Params: { vnetId: string }; Querystring: { q?: string } }>("/:vnetId/search", { config }, async (request, reply) => {
    const view = explorerOf(request.params.vnetId, reply);
    if (!view) return reply;
    const q = (request.query.q ?? "").trim();
    const link = links(view);
    if (HASH.test(q)) return reply.redirect(link.txUrl(q.toLowerCase()), 303);
    if (ADDRESS.test(q)) return reply.redirect(link.addressUrl(q.toLowerCase()), 303);
    if (BLOCK_NUMBER.test(q)) return reply.redirect(link.blockUrl(q), 303);
    return badInputPage(
      reply,
      view,
      `Search for a transaction hash (0x + 64 hex digits), an address (0x + 40 hex digits) or a block number; "${q}" is none of these.`,
    );
  });

  app.setErrorHandler((error, request, reply) => {
    if (error instanceof ChainReadError) return sendPage(reply, 400, simplePage("Cannot read the chain", error.message));
    const status = (error as { statusCode?: number }).statusCode;
    if (status && status >= 400 && status < 500) return sendPage(reply, status, simplePage("Bad request", (error as Error).message));
    const chainStatus = (error as { status?: number }).status;
    if (chainStatus && chainStatus >= 400)
      return sendPage(reply, chainStatus, simplePage("The chain is not available", (error as Error).message));
    request.log.error({ err: error }, "explorer page failed");
    return sendPage(reply, 500, simplePage("Something went wrong", "The page could not be built; the service log has the details."));
  });
  app.setNotFoundHandler((_request, reply) => notFoundPage(reply, "There is no such explorer page."));
}

/** A row of the overview's latest transactions: a mined transaction or a recorded cheatcode write. */
interface LatestRow {
  readonly hash: string;
  readonly blockNumber: string | null;
  readonly from: string;
  readonly to: string | null;
  readonly value: string;
  /** The cheatcode's method, for a cheatcode write. */
  readonly cheatcode?: string;
}

/**
 * The newest transactions of the latest blocks with the cheatcode writes the service recorded (they mine nothing, so
 * no block holds them), newest block first; a cheatcode sorts after the transactions of the block it was made at.
 */
function latestTransactions(views: StoreViews, view: VnetView, blocks: readonly ChainBlock[]): LatestRow[] {
  const mined: LatestRow[] = blocks.flatMap((block) => block.transactions);
  const cheatcodes: LatestRow[] = views.records
    .transactions(view.vnet.instance_id, { kind: "cheatcode" }, 1, LATEST_TRANSACTIONS)
    .map(summarize)
    .filter((t) => t.vnetId === view.vnet.id)
    .map((t) => ({
      hash: t.hash,
      blockNumber: t.blockNumber,
      from: t.from,
      to: t.to,
      value: t.value,
      cheatcode: t.rpcMethod ?? "cheatcode",
    }));
  const blockOf = (row: LatestRow) => (row.blockNumber ? BigInt(row.blockNumber) : -1n);
  return [...mined, ...cheatcodes]
    .map((row, i) => ({ row, i }))
    .sort((a, b) => (blockOf(a.row) === blockOf(b.row) ? a.i - b.i : blockOf(b.row) > blockOf(a.row) ? 1 : -1))
    .slice(0, LATEST_TRANSACTIONS)
    .map(({ row }) => row);
}

/** Links of one explorer. */
export interface ExplorerLinks {
  readonly root: string;
  block(number: string): Html;
  tx(hash: string): Html;
  address(address: string): Html;
  blockUrl(number: string): string;
  txUrl(hash: string): string;
  addressUrl(address: string): string;
}

function links(view: VnetView): ExplorerLinks {
  const root = `/explorer/${view.vnet.id}`;
  return {
    root,
    blockUrl: (n) => `${root}/block/${decimal(n)}`,
    txUrl: (h) => `${root}/tx/${h}`,
    addressUrl: (a) => `${root}/address/${a}`,
    block: (n) => html`<a href="${root}/block/${decimal(n)}">${decimal(n)}</a>`,
    tx: (h) => html`<a class="mono" href="${root}/tx/${h}">${shortHex(h)}</a>`,
    address: (a) => html`<a class="mono" href="${root}/address/${a.toLowerCase()}">${shortHex(a.toLowerCase())}</a>`,
  };
}

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
  const found = await new ChainReader(context.service.chains, view.vnet.id).transaction(hash);
  const record = context.service.views.records.transaction(view.vnet.instance_id, hash);
  if (!found) {
    if (!record || record.vnet_id !== view.vnet.id) return undefined;
    const summary = summarize(record);
    return html`<h1>Transaction</h1><div class="card">${fields([
      ["Hash", html`<span class="mono">${summary.hash}</span>`],
      ["Category", summary.category],
      ["At block", summary.blockNumber ? link.block(summary.blockNumber) : "pending"],
      ["Target", summary.to ? link.address(summary.to) : "-"],
      ["Call", html`<pre>${Buffer.from(record.input.slice(2), "hex").toString("utf8")}</pre>`],
    ])}<p class="muted">A cheatcode changed the chain's state directly; it mined no transaction, so it has no trace.</p></div>`;
  }
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

function addressTransactions(views: StoreViews, view: VnetView, address: string, link: ExplorerLinks): Html {
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
function contractPanel(context: WebContext, view: VnetView, address: string, code: string): Html {
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

function statusOf(status: string): Html {
  return status === "success" ? html`<span class="ok">success</span>` : html`<span class="fail">${status}</span>`;
}

function timeOf(block: ChainBlock): string {
  return new Date(Number(BigInt(block.timestamp)) * 1000).toISOString().replace(".000Z", "Z");
}

function explorerPage(view: VnetView, title: string, body: Html): string {
  const root = `/explorer/${view.vnet.id}`;
  return page({
    title: `${title} · ${view.vnet.display_name} explorer`,
    header: html`<a href="${root}">${view.vnet.display_name} · explorer</a><form method="get" action="${root}/search" role="search">
<input name="q" placeholder="hash, address or block number" aria-label="Search" required><button type="submit">Search</button></form>`,
    body,
  });
}

/** A page with a heading and a message. */
export function simplePage(title: string, message: string): string {
  return page({
    title,
    header: html`<a href="/dashboard/">chainform</a>`,
    body: html`<h1>${title}</h1><div class="card error"><p>${message}</p></div>`,
  });
}

function notFoundPage(reply: FastifyReply, message: string, view?: VnetView): FastifyReply {
  const body = html`<h1>Not found</h1><div class="card error"><p>${message}</p></div>`;
  return sendPage(
    reply,
    404,
    view ? explorerPage(view, "Not found", body) : page({ title: "Not found", header: html`<span>chainform explorer</span>`, body }),
  );
}

function badInputPage(reply: FastifyReply, view: VnetView, message: string): FastifyReply {
  return sendPage(reply, 400, explorerPage(view, "Bad request", html`<h1>Bad request</h1><div class="card error"><p>${message}</p></div>`));
}
