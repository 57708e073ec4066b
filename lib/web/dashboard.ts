/**
 * The dashboard (`/dashboard/`) for a signed-in user, with the API's access rules (lib/service/access.ts):
 * projects, environments (Admin RPC URLs only on an explicit reveal, and only for users who may write), an
 * environment's transactions across its vnets with the API's filters, saved simulations, delivery channels and Web3
 * Actions. Changes (delete an environment, stop an action, reveal, sign out) are POSTs carrying the CSRF token;
 * deleting asks first on a page of its own.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { accountAccess, canSeeProject, projectAccess } from "../service/access";
import { ServiceError } from "../service/errors";
import type { EnvironmentRecord, ProjectRow } from "../service/store";
import {
  Address,
  Hash,
  explorerUrl,
  TRANSACTION_CATEGORY_VALUES,
  TRANSACTION_KIND_VALUES,
  TRANSACTION_STATUS_VALUES,
  type Simulation,
} from "../spec";
import { baseUrlOf } from "../service/routes/common";
import type { TransactionFilters } from "../service/store/records";
import { decimal, formatEther } from "./chain-reader";
import { sendPage, summarize, vnetView, type WebContext } from "./context";
import { simplePage, transactionBody } from "./explorer";
import { fields, html, page, shortHex, table, type Html } from "./html";
import { CSRF_FIELD, Sessions, type Session } from "./sessions";
import { argumentList, fromFlatTrace, traceTree } from "./trace-view";

const ADDRESS = new RegExp(Address.pattern!);
const HASH = new RegExp(Hash.pattern!);
const PER_PAGE = 25;
/** Saved simulations searched for one by id (newest first). */
const SIMULATION_SCAN_LIMIT = 1000;

type ProjectParams = { account: string; project: string };
type EnvironmentParams = ProjectParams & { environmentId: string };

/** Registers the dashboard (the plugin is registered with prefix `/dashboard`). */
export function registerDashboard(app: FastifyInstance, context: WebContext, sessions: Sessions): void {
  const { store, engine } = context;
  const config = { public: true };
  const secure = (request: FastifyRequest) => request.protocol === "https";

  /** The session, or a sign-in page. */
  function sessionOf(request: FastifyRequest, reply: FastifyReply): Session | undefined {
    const session = sessions.of(request);
    if (!session) sendPage(reply, 401, signInPage("Sign in to see this page."));
    return session;
  }

  /** Refuses a POST sent by a page of another origin (403, nothing changed); true when it may go on. */
  function ownOrigin(request: FastifyRequest, reply: FastifyReply): boolean {
    if (Sessions.fromOwnOrigin(request)) return true;
    sendPage(reply, 403, simplePage("Refused", "This form was sent from another site (or another port of this host): nothing was changed. Use the dashboard's own pages."));
    return false;
  }

  /** The session of a change: own origin and valid CSRF token required (403 otherwise, nothing changed). */
  function changeSessionOf(request: FastifyRequest, reply: FastifyReply): Session | undefined {
    if (!ownOrigin(request, reply)) return undefined;
    const session = sessionOf(request, reply);
    if (!session) return undefined;
    if (!Sessions.csrfValid(session, request.body)) {
      sendPage(reply, 403, simplePage("Refused", "The form's CSRF token is missing or wrong: nothing was changed. Reload the page and try again."));
      return undefined;
    }
    return session;
  }

  app.get<{ Querystring: { token?: string } }>("/login", { config }, async (request, reply) => {
    const token = request.query.token;
    if (!token) return sendPage(reply, 200, signInPage());
    const session = sessions.redeemLoginToken(token);
    if (!session) return sendPage(reply, 401, signInPage("This sign-in link was already used or has expired (links last 10 minutes). Sign in with your access key."));
    Sessions.setCookie(reply, session, secure(request));
    return reply.redirect("/dashboard/", 303);
  });

  app.post("/login", { config }, async (request, reply) => {
    if (!ownOrigin(request, reply)) return reply;
    const key = (request.body as Record<string, unknown> | undefined)?.access_key;
    const session = typeof key === "string" ? sessions.signInWithKey(key.trim()) : undefined;
    if (!session) return sendPage(reply, 401, signInPage("That access key is not valid."));
    Sessions.setCookie(reply, session, secure(request));
    return reply.redirect("/dashboard/", 303);
  });

  app.post("/logout", { config }, async (request, reply) => {
    const session = changeSessionOf(request, reply);
    if (!session) return reply;
    sessions.close(session);
    Sessions.clearCookie(reply);
    return reply.redirect("/dashboard/login", 303);
  });

  app.get("/", { config }, async (request, reply) => {
    const session = sessions.of(request);
    if (!session) return sendPage(reply, 200, signInPage());
    const user = session.requester.user;
    const accounts = [user.slug, ...store.accounts.organizationsOf(user.id).map((id) => store.accounts.byId(id)!.slug)];
    const groups = accounts.map((slug) => {
      const access = accountAccess(store, session.requester, slug);
      const own = store.projects.ofOwner(access.account.id).filter((p) => canSeeProject(store, access, p, user.id));
      const shared = access.account.type === "user" ? store.projects.sharedWith(user.id, access.account.id) : [];
      return html`<h2>${slug}</h2><div class="card">${table(
        ["Project", "Environments"],
        [...own, ...shared].map((p) => {
          const owner = store.accounts.byId(p.owner_id)!.slug;
          return [html`<a href="/dashboard/${owner}/${p.slug}">${owner}/${p.name}</a>`, store.environments.page(p.id, 1, 100).length];
        }),
        "no projects",
      )}</div>`;
    });
    return sendPage(reply, 200, dashboardPage(session, "Projects", html`<h1>Projects</h1>${groups}`));
  });

  app.get<{ Params: ProjectParams }>("/:account/:project", { config }, async (request, reply) => {
    const session = sessionOf(request, reply);
    if (!session) return reply;
    const { account, project } = projectOf(session, request.params);
    const base = `/dashboard/${request.params.account}/${project.slug}`;
    const environments = store.environments.page(project.id, 1, 100);
    const simulations = store.records.simulations(project.id, 1, PER_PAGE);
    const channels = store.projects.deliveryChannels(account.id).filter((c) => c.project_id === null || c.project_id === project.id);
    const actions = store.projects.actions(project.id);
    const canWrite = !session.requester.readOnly;
    return sendPage(
      reply,
      200,
      dashboardPage(session, project.name, html`<h1>${request.params.account} / ${project.name}</h1>
<h2>Environments</h2><div class="card">${table(
        ["Name", "Slug", "Age", "Networks", "Bridge", "Public RPC"],
        environments.map((e) => [
          html`<a href="${base}/environments/${e.id}">${e.display_name}</a>`,
          html`<code>${e.slug}</code>`,
          age(e.created_at),
          e.vnets.map((v) => v.network_name).join(", "),
          e.bridge_config.enabled ? e.bridge_config.relay_mode : "off",
          e.vnets.map((v) => html`<div class="mono">${publicRpc(request, v.id)}</div>`),
        ]),
        "no environments",
      )}</div>
<h2>Simulations</h2><div class="card">${table(
        ["Simulation", "Network", "Block", "Status", "Created"],
        simulations.map((s) => [
          html`<a href="${base}/simulations/${s.id}">${s.id.slice(0, 8)}</a>`,
          s.network_id,
          s.block_number,
          s.status ? html`<span class="ok">success</span>` : html`<span class="fail">failed</span>`,
          s.created_at,
        ]),
        "no saved simulations",
      )}</div>
<h2>Delivery channels</h2><div class="card">${table(
        ["Label", "Type", "Reference", "Enabled"],
        channels.map((c) => [c.label, c.type, c.reference_id, c.enabled === 1 ? "yes" : "no"]),
        "no delivery channels",
      )}</div>
<h2>Web3 Actions</h2><div class="card">${table(
        ["Name", "Status", ""],
        actions.map((a) => [
          a.name,
          a.status,
          canWrite && a.status === "running"
            ? html`<form class="inline" method="post" action="${base}/actions/${a.id}/stop">${csrfField(session)}<button class="plain" type="submit">Stop</button></form>`
            : "",
        ]),
        "no Web3 Actions",
      )}</div>`),
    );
  });

  app.post<{ Params: ProjectParams & { actionId: string } }>("/:account/:project/actions/:actionId/stop", { config }, async (request, reply) => {
    const session = changeSessionOf(request, reply);
    if (!session) return reply;
    const { project } = projectOf(session, request.params);
    requireWriter(session);
    if (!store.projects.stopAction(project.id, request.params.actionId)) throw new ServiceError(404, "no such Web3 Action in this project");
    return reply.redirect(`/dashboard/${request.params.account}/${project.slug}`, 303);
  });

  /** Renders an environment page; `reveal` shows the Admin RPC URLs (writers only). */
  function environmentPage(request: FastifyRequest<{ Params: EnvironmentParams; Querystring: Record<string, string> }>, session: Session, reveal: boolean): string {
    const { environment, base } = environmentOf(session, request.params);
    const filters = transactionFilters(request.query ?? {});
    const pageNumber = pageNumberOf(request.query?.page);
    const transactions = store.records.transactions(environment.instance_id, filters, pageNumber, PER_PAGE).map(summarize);
    const canWrite = !session.requester.readOnly;
    const vnetName = new Map(environment.vnets.map((v) => [v.id, v.network_name]));
    const envBase = `${base}/environments/${environment.id}`;
    const networks = environment.vnets.map((vnet) => {
      const view = vnetView(store, vnet.id);
      return html`<div class="card"><h3>${vnet.display_name}</h3>${fields([
        ["Network", `${vnet.network_name} (${vnet.network_id})`],
        ["Chain id", vnet.chain_id],
        ["Fork point", `block ${decimal(vnet.block_number)}`],
        ["Public RPC", html`<span class="mono">${publicRpc(request, vnet.id)}</span>`],
        ["Admin RPC", reveal && canWrite ? html`<span class="mono admin-rpc">${baseUrlOf(request)}/rpc/admin/${vnet.admin_secret}</span>` : null],
        ["Explorer", view?.explorerEnabled ? html`<a href="/explorer/${vnet.id}">${explorerUrl(baseUrlOf(request), vnet.id)}</a>` : "not enabled"],
      ])}</div>`;
    });
    const actions = canWrite
      ? html`<div class="card">${
          reveal
            ? html`<p class="muted">The Admin RPC URLs are secrets: they can change the chain's state. They are not kept in this page's address.</p>`
            : html`<form class="inline" method="post" action="${envBase}/reveal">${csrfField(session)}<button class="plain" type="submit">Reveal Admin RPC URLs</button></form>`
        } <a href="${envBase}/delete"><button class="danger" type="button" id="delete">Delete environment…</button></a></div>`
      : html``;
    return dashboardPage(session, environment.display_name, html`<h1>${environment.display_name}</h1>
<div class="card">${fields([
      ["Slug", html`<code>${environment.slug}</code>`],
      ["Created", `${environment.created_at} (${age(environment.created_at)} ago)`],
      ["Bridge", environment.bridge_config.enabled ? `${environment.bridge_config.relay_mode}, delay ${environment.bridge_config.delay_seconds} s` : "off"],
    ])}</div>${actions}
<h2>Networks</h2>${networks}
<h2>Transactions</h2><div class="card">${filterForm(envBase, request.query ?? {})}${table(
      ["Hash", "Network", "Block", "From", "To", "Status", "Category", "Kind"],
      transactions.map((t) => [
        html`<a class="mono" href="${envBase}/tx/${t.hash}">${shortHex(t.hash)}</a>`,
        vnetName.get(t.vnetId) ?? t.vnetId,
        t.blockNumber ? decimal(t.blockNumber) : "pending",
        html`<span class="mono" title="${t.from}">${shortHex(t.from)}</span>`,
        t.to ? html`<span class="mono" title="${t.to}">${shortHex(t.to)}</span>` : "create",
        t.status === "success" ? html`<span class="ok">success</span>` : html`<span class="fail">${t.status}</span>`,
        t.category,
        t.kind,
      ]),
      "no transactions match",
    )}${pager(envBase, request.query ?? {}, pageNumber, transactions.length === PER_PAGE)}</div>`);
  }

  app.get<{ Params: EnvironmentParams; Querystring: Record<string, string> }>("/:account/:project/environments/:environmentId", { config }, async (request, reply) => {
    const session = sessionOf(request, reply);
    if (!session) return reply;
    return sendPage(reply, 200, environmentPage(request, session, false));
  });

  app.post<{ Params: EnvironmentParams; Querystring: Record<string, string> }>("/:account/:project/environments/:environmentId/reveal", { config }, async (request, reply) => {
    const session = changeSessionOf(request, reply);
    if (!session) return reply;
    requireWriter(session);
    return sendPage(reply, 200, environmentPage(request, session, true));
  });

  app.get<{ Params: EnvironmentParams }>("/:account/:project/environments/:environmentId/delete", { config }, async (request, reply) => {
    const session = sessionOf(request, reply);
    if (!session) return reply;
    const { environment, base } = environmentOf(session, request.params);
    requireWriter(session);
    const envBase = `${base}/environments/${environment.id}`;
    return sendPage(
      reply,
      200,
      dashboardPage(session, "Delete environment", html`<h1>Delete ${environment.display_name}?</h1><div class="card">
<p>This deletes the environment <code>${environment.slug}</code>, its ${environment.vnets.length} Virtual Environment(s) and their chains. It cannot be undone.</p>
<form method="post" action="${envBase}/delete">${csrfField(session)}<button class="danger" type="submit" id="confirm-delete">Delete</button> <a href="${envBase}">Cancel</a></form></div>`),
    );
  });

  app.post<{ Params: EnvironmentParams }>("/:account/:project/environments/:environmentId/delete", { config }, async (request, reply) => {
    const session = changeSessionOf(request, reply);
    if (!session) return reply;
    const { environment, project } = environmentOf(session, request.params);
    requireWriter(session);
    const { deletedVnetIds } = store.environments.delete(project.id, [environment.id]);
    if (deletedVnetIds.length > 0) await engine.destroyVnets(deletedVnetIds);
    return reply.redirect(`/dashboard/${request.params.account}/${project.slug}`, 303);
  });

  app.get<{ Params: EnvironmentParams & { hash: string } }>("/:account/:project/environments/:environmentId/tx/:hash", { config }, async (request, reply) => {
    const session = sessionOf(request, reply);
    if (!session) return reply;
    const { environment } = environmentOf(session, request.params);
    const hash = request.params.hash.toLowerCase();
    if (!HASH.test(hash)) throw new ServiceError(400, `"${request.params.hash}" is not a transaction hash: 0x followed by 64 hex digits`);
    const record = store.records.transaction(environment.instance_id, hash);
    const view = record && vnetView(store, summarize(record).vnetId);
    if (!view) throw new ServiceError(404, `no transaction ${hash} in this environment`);
    const explorer = view.explorerEnabled ? `/explorer/${view.vnet.id}` : null;
    const link = {
      block: (n: string) => (explorer ? html`<a href="${explorer}/block/${decimal(n)}">${decimal(n)}</a>` : html`${decimal(n)}`),
      address: (a: string) => (explorer ? html`<a class="mono" href="${explorer}/address/${a.toLowerCase()}">${a.toLowerCase()}</a>` : html`<span class="mono">${a.toLowerCase()}</span>`),
    };
    const body = await transactionBody(context, view, hash, link);
    if (!body) throw new ServiceError(404, `no transaction ${hash} in this environment`);
    return sendPage(reply, 200, dashboardPage(session, "Transaction", html`<p class="muted">${environment.display_name} · ${view.vnet.display_name}</p>${body}`));
  });

  app.get<{ Params: ProjectParams & { simulationId: string } }>("/:account/:project/simulations/:simulationId", { config }, async (request, reply) => {
    const session = sessionOf(request, reply);
    if (!session) return reply;
    const { project } = projectOf(session, request.params);
    const simulation = findSimulation(project.id, request.params.simulationId);
    if (!simulation) throw new ServiceError(404, `no saved simulation ${request.params.simulationId} in this project`);
    const root = simulation.trace[0];
    return sendPage(
      reply,
      200,
      dashboardPage(session, "Simulation", html`<h1>Simulation</h1><div class="card">${fields([
        ["Id", html`<code>${simulation.id}</code>`],
        ["Status", simulation.status ? html`<span class="ok">success</span>` : html`<span class="fail">failed</span>`],
        ["Network", simulation.network_id],
        ["Block", simulation.block_number],
        ["From", html`<span class="mono">${simulation.from}</span>`],
        ["To", simulation.to ? html`<span class="mono">${simulation.to}</span>` : "contract creation"],
        ["Value", formatEther(simulation.value)],
        ["Gas", `${simulation.gas_used} used of ${simulation.gas}`],
        ["Method", root?.method ? html`<code>${root.method}(${argumentList(root.decodedInput)})</code>` : null],
      ])}</div>
<h2>Logs (${simulation.logs.length})</h2><div class="card">${table(
        ["Address", "Event"],
        simulation.logs.map((l) => [html`<span class="mono">${l.raw.address}</span>`, l.name ? `${l.name}(${l.inputs.map((i) => `${i.name}: ${i.value}`).join(", ")})` : "unknown event"]),
        "no logs",
      )}</div>
<h2>Call trace</h2><div class="card">${traceTree(fromFlatTrace(simulation.trace), (a) => html`<span class="mono">${a}</span>`)}</div>`),
    );
  });

  app.setErrorHandler((error, request, reply) => {
    const session = sessions.of(request);
    const render = (status: number, title: string, message: string) =>
      sendPage(reply, status, session ? dashboardPage(session, title, html`<h1>${title}</h1><div class="card error"><p>${message}</p></div>`) : simplePage(title, message));
    if (error instanceof ServiceError) return render(error.status, error.status === 404 ? "Not found" : error.status === 403 ? "Not allowed" : "Bad request", error.message);
    const status = (error as { statusCode?: number }).statusCode;
    if (status && status >= 400 && status < 500) return render(status, "Bad request", (error as Error).message);
    const chainStatus = (error as { status?: number }).status;
    if (chainStatus && chainStatus >= 400) return render(chainStatus, "The chain is not available", (error as Error).message);
    request.log.error({ err: error }, "dashboard page failed");
    return render(500, "Something went wrong", "The page could not be built; the service log has the details.");
  });
  app.setNotFoundHandler((request, reply) => sendPage(reply, 404, simplePage("Not found", "There is no such dashboard page.")));

  function projectOf(session: Session, params: ProjectParams): { account: ReturnType<typeof accountAccess>["account"]; project: ProjectRow } {
    const access = projectAccess(store, session.requester, params.account, params.project);
    return { account: access.account, project: access.project };
  }

  function environmentOf(session: Session, params: EnvironmentParams): { environment: EnvironmentRecord; project: ProjectRow; base: string } {
    const { project } = projectOf(session, params);
    const environment = store.environments.get(project.id, params.environmentId);
    if (!environment) throw new ServiceError(404, `environment ${params.environmentId} not found in ${params.account}/${params.project}`);
    return { environment, project, base: `/dashboard/${params.account}/${project.slug}` };
  }

  function findSimulation(projectId: string, id: string): Simulation | undefined {
    for (let pageNumber = 1; pageNumber * 100 <= SIMULATION_SCAN_LIMIT; pageNumber++) {
      const simulations = store.records.simulations(projectId, pageNumber, 100);
      const found = simulations.find((s) => s.id === id);
      if (found || simulations.length < 100) return found;
    }
    return undefined;
  }
}

function requireWriter(session: Session): void {
  if (session.requester.readOnly) throw new ServiceError(403, "your access is read-only: you cannot change this");
}

/** The API's transaction filters from a query string; a bad value is a 400 naming it. */
function transactionFilters(query: Record<string, string>): TransactionFilters {
  const filters: { -readonly [K in keyof TransactionFilters]: TransactionFilters[K] } = {};
  const pick = <T extends string>(name: string, values: readonly T[]): T | undefined => {
    const value = query[name];
    if (value === undefined || value === "") return undefined;
    if (!values.includes(value as T)) throw new ServiceError(400, `${name} must be one of ${values.join(", ")}, got "${value}"`);
    return value as T;
  };
  filters.status = pick("status", TRANSACTION_STATUS_VALUES);
  filters.category = pick("category", TRANSACTION_CATEGORY_VALUES);
  filters.kind = pick("kind", TRANSACTION_KIND_VALUES);
  for (const name of ["from", "to"] as const) {
    const value = query[name]?.trim();
    if (!value) continue;
    if (!ADDRESS.test(value)) throw new ServiceError(400, `${name} must be an address (0x followed by 40 hex digits), got "${value.slice(0, 80)}"`);
    filters[name] = value;
  }
  return filters;
}

function pageNumberOf(text: string | undefined): number {
  if (text === undefined || text === "") return 1;
  if (!/^[1-9][0-9]{0,5}$/.test(text)) throw new ServiceError(400, `page must be a positive integer, got "${text.slice(0, 20)}"`);
  return Number(text);
}

function filterForm(action: string, query: Record<string, string>): Html {
  const select = (name: string, values: readonly string[]) =>
    html`<label>${name}<select name="${name}"><option value="">any</option>${values.map(
      (v) => html`<option${query[name] === v ? html` selected` : html``}>${v}</option>`,
    )}</select></label>`;
  return html`<form class="filters" method="get" action="${action}">${select("status", TRANSACTION_STATUS_VALUES)}${select("category", TRANSACTION_CATEGORY_VALUES)}${select(
    "kind",
    TRANSACTION_KIND_VALUES,
  )}<label>from<input name="from" value="${query.from ?? ""}" placeholder="0x…"></label><label>to<input name="to" value="${query.to ?? ""}" placeholder="0x…"></label><button type="submit">Filter</button></form>`;
}

function pager(action: string, query: Record<string, string>, pageNumber: number, hasMore: boolean): Html {
  const at = (n: number) => `${action}?${new URLSearchParams({ ...query, page: String(n) }).toString()}`;
  return html`<p>${pageNumber > 1 ? html`<a href="${at(pageNumber - 1)}">← newer</a> ` : html``}${hasMore ? html`<a href="${at(pageNumber + 1)}">older →</a>` : html``}</p>`;
}

function csrfField(session: Session): Html {
  return html`<input type="hidden" name="${CSRF_FIELD}" value="${session.csrfToken}">`;
}

function publicRpc(request: FastifyRequest, vnetId: string): string {
  return `${baseUrlOf(request)}/rpc/public/${vnetId}`;
}

function age(createdAt: string): string {
  const seconds = Math.max(0, Math.floor((Date.now() - Date.parse(createdAt)) / 1000));
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)} h`;
  return `${Math.floor(seconds / 86_400)} d`;
}

function dashboardPage(session: Session, title: string, body: Html): string {
  const user = session.requester.user;
  return page({
    title: `${title} · chainform dashboard`,
    header: html`<a href="/dashboard/">chainform</a><span>${user.first_name || user.slug}${session.requester.readOnly ? " (read-only)" : ""}</span>
<form method="post" action="/dashboard/logout" style="margin-left:auto;flex:0">${csrfField(session)}<button class="plain" type="submit">Sign out</button></form>`,
    body,
  });
}

function signInPage(message?: string): string {
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
