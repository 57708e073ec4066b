/**
 * Server-side HTML: a tagged template that escapes every interpolated value unless it is already `Html`, and the
 * one page layout (inline CSS, no scripts from elsewhere, no fonts from outside, a viewport for narrow screens).
 */
import { formatEther } from "./chain-reader";

/** HTML that is safe to emit as is (built by `html` or `raw`). */
export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

/** What may be interpolated: text (escaped), Html (kept), lists of either, or nothing. */
export type HtmlValue = string | number | bigint | boolean | Html | null | undefined | readonly HtmlValue[];

/** Escapes text for element content and quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * Builds HTML, escaping interpolated values.
 *
 * @example
 * html`<p>${userInput}</p>` // userInput is escaped
 */
export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): Html {
  let out = strings[0];
  values.forEach((value, i) => (out += render(value) + strings[i + 1]));
  return new Html(out);
}

/** Marks trusted text as HTML (constants only). */
export function raw(text: string): Html {
  return new Html(text);
}

function render(value: HtmlValue): string {
  if (value === null || value === undefined || value === false) return "";
  if (value instanceof Html) return value.text;
  if (Array.isArray(value)) return value.map(render).join("");
  return escapeHtml(String(value));
}

const STYLE = `
*{box-sizing:border-box}body{margin:0;font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1b1f24;background:#f6f7f9}
header{background:#1f2937;color:#fff;padding:.6rem 1rem;display:flex;flex-wrap:wrap;gap:.6rem;align-items:center}
header a{color:#fff;text-decoration:none;font-weight:600}header form{margin-left:auto;display:flex;gap:.4rem;flex:1 1 16rem;max-width:32rem}
header input{flex:1;min-width:0}main{padding:1rem;max-width:72rem;margin:auto}
h1{font-size:1.35rem;margin:.2rem 0 1rem}h2{font-size:1.1rem;margin:1.4rem 0 .5rem}
.card{background:#fff;border:1px solid #d8dde3;border-radius:6px;padding:.8rem;margin-bottom:1rem;overflow-x:auto}
table{border-collapse:collapse;width:100%}table.prefunded{width:auto}th,td{text-align:left;padding:.35rem .5rem;border-bottom:1px solid #eceff2;vertical-align:top}
th{font-weight:600;color:#4b5563;white-space:nowrap}dl{display:grid;grid-template-columns:minmax(7rem,max-content) 1fr;gap:.3rem .9rem;margin:0}
dt{color:#4b5563;font-weight:600}dd{margin:0;min-width:0}.mono,code,pre{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.85rem;word-break:break-all}
td .mono,td a.mono{word-break:normal;white-space:nowrap}
pre{white-space:pre-wrap;background:#f3f4f6;padding:.5rem;border-radius:4px;max-height:24rem;overflow:auto}
.ok{color:#047857;font-weight:600}.fail{color:#b91c1c;font-weight:600}.muted{color:#6b7280}
.error{background:#fef2f2;border-color:#fecaca;color:#991b1b}
button,input,select{font:inherit;padding:.35rem .5rem;border:1px solid #c5cbd3;border-radius:4px;background:#fff}
button{cursor:pointer;white-space:nowrap;background:#2563eb;color:#fff;border-color:#2563eb}button.danger{background:#b91c1c;border-color:#b91c1c}
button.plain{background:#fff;color:#1b1f24;border-color:#c5cbd3}form.inline{display:inline}
.filters{display:flex;flex-wrap:wrap;gap:.4rem;align-items:end}.filters label{display:flex;flex-direction:column;font-size:.8rem;color:#4b5563}
details.frame{border-left:2px solid #c7d2fe;margin:.2rem 0 .2rem .6rem;padding-left:.5rem}details.frame.failed{border-color:#fca5a5}
summary{cursor:pointer}nav.tabs a{margin-right:1rem}a{color:#1d4ed8}
@media (max-width:600px){dl{grid-template-columns:1fr}dt{margin-top:.4rem}main{padding:.6rem}th,td{padding:.3rem}}
`;

/** One page: title, the header (links and an optional search box or sign-out form), and the content. */
export function page(options: { title: string; header: Html; body: Html }): string {
  return `<!doctype html>${
    html`<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="same-origin"><title>${options.title}</title><style>${raw(STYLE)}</style></head>
<body><header>${options.header}</header><main>${options.body}</main></body></html>`.text
  }`;
}

/** A `<dl>` of label/value pairs (values may be Html); pairs whose value is null or undefined are left out. */
export function fields(pairs: readonly (readonly [string, HtmlValue])[]): Html {
  const shown = pairs.filter(([, value]) => value !== null && value !== undefined);
  return html`<dl>${shown.map(([label, value]) => html`<dt>${label}</dt><dd>${value}</dd>`)}</dl>`;
}

/** A table with a header row. */
export function table(headings: readonly string[], rows: readonly (readonly HtmlValue[])[], empty = "nothing yet"): Html {
  if (rows.length === 0) return html`<p class="muted">${empty}</p>`;
  return html`<table><thead><tr>${headings.map((h) => html`<th>${h}</th>`)}</tr></thead>
<tbody>${rows.map((cells) => html`<tr>${cells.map((c) => html`<td>${c}</td>`)}</tr>`)}</tbody></table>`;
}

/** An amount of wei shown in ether, exact, with the wei in its title (on hover), e.g. `1.5 ETH`. */
export function ether(wei: bigint | string): Html {
  const value = typeof wei === "string" ? BigInt(wei) : wei;
  return html`<span class="amount" title="${value.toString()} wei">${formatEther(value)}</span>`;
}

/** A long hex string shortened for tables, e.g. `0x6b182f…a14042` (the full value belongs in a title or link). */
export function shortHex(hex: string): string {
  return hex.length > 18 ? `${hex.slice(0, 10)}…${hex.slice(-6)}` : hex;
}

/**
 * Security headers of every page: no framing, no scripts, nothing cached, no referrer to other origins.
 * `same-origin` rather than `no-referrer`: under `no-referrer` a browser sends `Origin: null` on the pages' own form
 * POSTs, and the dashboard's origin check needs the real origin from browsers that send no `Sec-Fetch-Site`.
 */
export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  "content-type": "text/html; charset=utf-8",
  "content-security-policy":
    "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  "x-content-type-options": "nosniff",
  "referrer-policy": "same-origin",
  "cache-control": "no-store",
};
