/**
 * The dashboard's HTML apart from its routes: the page frame (header with the user and the sign-out form), the
 * sign-in page, the CSRF field every form carries, the transaction filter form and the pager. Pure functions of
 * what the routes read; nothing here reads a request or the store.
 */
import { TRANSACTION_CATEGORY_VALUES, TRANSACTION_KIND_VALUES, TRANSACTION_STATUS_VALUES } from "../../api";
import { html, page, type Html } from "../html";
import { CSRF_FIELD, type Session } from "./sessions";

/** A dashboard page for a signed-in user. */
export function dashboardPage(session: Session, title: string, body: Html): string {
  const user = session.requester.user;
  return page({
    title: `${title} · chainform dashboard`,
    header: html`<a href="/dashboard/">chainform</a><span>${user.first_name || user.slug}${session.requester.readOnly ? " (read-only)" : ""}</span>
<form method="post" action="/dashboard/logout" style="margin-left:auto;flex:0">${csrfField(session)}<button class="plain" type="submit">Sign out</button></form>`,
    body,
  });
}

/** The sign-in page (access key form), with an optional message above it. */
export function signInPage(message?: string): string {
  return page({
    title: "Sign in · chainform dashboard",
    header: html`<a href="/dashboard/">chainform</a>`,
    body: html`<h1>Sign in</h1>${message ? html`<div class="card error"><p>${message}</p></div>` : html``}
<div class="card"><form method="post" action="/dashboard/login" autocomplete="off"><p><label>Access key<br>
<input type="password" name="access_key" required autocomplete="off" style="width:100%;max-width:28rem"></label></p>
<button type="submit">Sign in</button></form>
<p class="muted">Or open the one-time link <code>chainform serve</code> prints as <code>dashboardUrl</code>.</p></div>`,
  });
}

/** The hidden field carrying the session's CSRF token (every form that changes something has it). */
export function csrfField(session: Session): Html {
  return html`<input type="hidden" name="${CSRF_FIELD}" value="${session.csrfToken}">`;
}

/** The transaction filters (the API's: status, category, kind, from, to) as a GET form. */
export function filterForm(action: string, query: Record<string, string>): Html {
  const select = (name: string, values: readonly string[]) =>
    html`<label>${name}<select name="${name}"><option value="">any</option>${values.map(
      (v) => html`<option${query[name] === v ? html` selected` : html``}>${v}</option>`,
    )}</select></label>`;
  return html`<form class="filters" method="get" action="${action}">${select("status", TRANSACTION_STATUS_VALUES)}${select("category", TRANSACTION_CATEGORY_VALUES)}${select(
    "kind",
    TRANSACTION_KIND_VALUES,
  )}<label>from<input name="from" value="${query.from ?? ""}" placeholder="0x…"></label><label>to<input name="to" value="${query.to ?? ""}" placeholder="0x…"></label><button type="submit">Filter</button></form>`;
}

/** Newer/older links keeping the query's filters. */
export function pager(action: string, query: Record<string, string>, pageNumber: number, hasMore: boolean): Html {
  const at = (n: number) => `${action}?${new URLSearchParams({ ...query, page: String(n) }).toString()}`;
  return html`<p>${pageNumber > 1 ? html`<a href="${at(pageNumber - 1)}">← newer</a> ` : html``}${hasMore ? html`<a href="${at(pageNumber + 1)}">older →</a>` : html``}</p>`;
}

/** How long ago an ISO time was, roughly (`42 s`, `5 min`, `3 h`, `2 d`). */
export function age(createdAt: string): string {
  const seconds = Math.max(0, Math.floor((Date.now() - Date.parse(createdAt)) / 1000));
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)} h`;
  return `${Math.floor(seconds / 86_400)} d`;
}
