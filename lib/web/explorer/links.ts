/** The links of one explorer's pages: to blocks, transactions and addresses. */
import { decimal } from "../chain-reader";
import type { VnetView } from "../context";
import { html, shortHex, type Html } from "../html";

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

/** The links of the explorer of a Virtual Environment. */
export function links(view: VnetView): ExplorerLinks {
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
