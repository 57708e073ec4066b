/**
 * The public explorer of a Virtual Environment (`/explorer/{vnetId}`), for vnets whose network config has
 * `explorer_config.enabled: true`: overview, block, transaction, address (with the contract tab) and search.
 * No sign-in. A disabled or unknown vnet, an unknown hash or a malformed address is a 404/400 page. The routes live
 * here; each panel in a file of its own.
 */
import type { FastifyInstance, FastifyReply } from "fastify";
import { Address, Hash } from "../../api";
import { ChainReader, ChainReadError, decimal } from "../chain-reader";
import { sendPage, vnetView, type VnetView, type WebContext } from "../context";
import { ether, fields, html, table } from "../html";
import { ContractAbis } from "../decode/contract-abis";
import { addressTransactions, contractPanel, pageOf, tokenPanel } from "./address";
import { latestTransactions } from "./latest";
import { links } from "./links";
import { badInputPage, explorerPage, notFoundPage, simplePage, timeOf } from "./pages";
import { transactionBody } from "./transaction";

export { simplePage } from "./pages";
export { transactionBody } from "./transaction";
export type { ExplorerLinks } from "./links";

const ADDRESS = new RegExp(Address.pattern!);
const HASH = new RegExp(Hash.pattern!);
const BLOCK_NUMBER = /^(0|[1-9][0-9]{0,18})$/;
const LATEST_BLOCKS = 10;

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

  app.get<{ Params: { vnetId: string; address: string }; Querystring: { tab?: string; page?: string } }>(
    "/:vnetId/address/:address",
    { config },
    async (request, reply) => {
      const view = explorerOf(request.params.vnetId, reply);
      if (!view) return reply;
      const { address } = request.params;
      if (!ADDRESS.test(address)) return badInputPage(reply, view, `"${address}" is not an address: it is 0x followed by 40 hex digits`);
      const page = pageOf(request.query.page);
      if (page === undefined) return badInputPage(reply, view, "page must be a positive whole number, such as 2");
      const at = address.toLowerCase();
      const chain = new ChainReader(chains, view.vnet.id);
      const account = await chain.account(at);
      const isContract = account.code !== "0x";
      const abis = new ContractAbis(context, view, chain);
      const [token, proxy] = isContract ? await Promise.all([chain.tokenMetadata(at), abis.proxyTarget(at)]) : [undefined, undefined];
      const abi = isContract ? await abis.of(at) : undefined;
      const link = links(view);
      const contractTab = request.query.tab === "contract" && isContract;
      const tabs = isContract
        ? html`<nav class="tabs"><a href="${link.addressUrl(at)}">Overview</a><a href="${link.addressUrl(at)}?tab=contract">Contract</a></nav>`
        : html``;
      const content = contractTab
        ? contractPanel(context, view, at, account.code)
        : html`${token ? await tokenPanel(views, view, chain, at, token, link, page) : html``}${addressTransactions(views, view, at, link, page)}`;
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
            [
              "Contract name",
              abi?.name
                ? html`${abi.name} <span class="muted">(${abi.source === "verified" ? "verified" : "ABI added by a user"})</span>`
                : null,
            ],
            ["Proxy", proxy ? html`${proxy.standard}, implementation ${link.address(proxy.implementation)}` : null],
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
