/** The explorer's page frame (header with search) and its error pages. */
import type { FastifyReply } from "fastify";
import type { ChainBlock } from "../chain-reader";
import { sendPage, type VnetView } from "../context";
import { html, page, type Html } from "../html";

/** A block's time, ISO 8601 to the second. */
export function timeOf(block: ChainBlock): string {
  return timeAt(BigInt(block.timestamp));
}

/** A time in seconds since 1970, ISO 8601 to the second (`2026-11-28T15:30:00Z`). */
export function timeAt(seconds: bigint): string {
  const ms = Number(seconds) * 1000;
  return Number.isFinite(ms) && Math.abs(ms) <= 8.64e15 ? new Date(ms).toISOString().replace(".000Z", "Z") : `${seconds} s`;
}

/** An explorer page: its frame, title and body. */
export function explorerPage(view: VnetView, title: string, body: Html): string {
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

/** A 404 page, in the explorer's frame when the vnet is known. */
export function notFoundPage(reply: FastifyReply, message: string, view?: VnetView): FastifyReply {
  const body = html`<h1>Not found</h1><div class="card error"><p>${message}</p></div>`;
  return sendPage(
    reply,
    404,
    view ? explorerPage(view, "Not found", body) : page({ title: "Not found", header: html`<span>chainform explorer</span>`, body }),
  );
}

/** A 400 page naming what is wrong with the input. */
export function badInputPage(reply: FastifyReply, view: VnetView, message: string): FastifyReply {
  return sendPage(reply, 400, explorerPage(view, "Bad request", html`<h1>Bad request</h1><div class="card error"><p>${message}</p></div>`));
}
