/**
 * An environment's page (its networks with their prefunded accounts and snapshots, Admin RPC URLs on reveal for writers, the
 * contracts deployed in it, its transactions across its vnets with the API's filters), the reveal, and delete (a page
 * that asks first, then the POST that deletes).
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import { explorerUrl } from "../../api";
import { baseUrlOf, type StoreViews, type VnetSnapshot } from "../../service/web-interface";
import { decimal } from "../chain-reader";
import { contractsCreatedBy } from "../explorer/created-contracts";
import { sendPage, summarize, vnetView, type TransactionSummary, type WebContext } from "../context";
import { ether, fields, html, shortHex, table, type Html } from "../html";
import { age, csrfField, dashboardPage, filterForm, pager } from "./layout";
import { environmentOf, publicRpc, requireWriter, type EnvironmentParams } from "./lookup";
import { PER_PAGE, pageNumberOf, transactionFilters } from "./query";
import type { Session, Sessions } from "./sessions";

/** Pages of 100 records searched for contract creations. */
const CONTRACT_SCAN_PAGES = 10;
/** Newest calls whose traces are read for contracts created by contracts (each trace is read once, then kept). */
const TRACED_CALLS = 200;

/** Registers the environment routes. */
export function registerEnvironments(app: FastifyInstance, context: WebContext, sessions: Sessions): void {
  const { service } = context;
  const { views } = service;
  const config = { public: true };

  /** Renders an environment page; `reveal` shows the Admin RPC URLs (writers only). */
  async function environmentPage(
    request: FastifyRequest<{ Params: EnvironmentParams; Querystring: Record<string, string> }>,
    session: Session,
    reveal: boolean,
  ): Promise<string> {
    const { environment, base } = environmentOf(service, session, request.params);
    const filters = transactionFilters(request.query ?? {});
    const pageNumber = pageNumberOf(request.query?.page);
    const transactions = views.records.transactions(environment.instance_id, filters, pageNumber, PER_PAGE).map(summarize);
    const canWrite = !session.requester.readOnly;
    const vnetName = new Map(environment.vnets.map((v) => [v.id, v.network_name]));
    const envBase = `${base}/environments/${environment.id}`;
    const explorerOf = new Map(environment.vnets.map((v) => [v.id, vnetView(views, v.id)?.explorerEnabled ? `/explorer/${v.id}` : null]));
    /** An address, linked to its explorer page when the vnet has an explorer. */
    const addressOn = (vnetId: string, address: string) => {
      const explorer = explorerOf.get(vnetId);
      const text = html`<span class="mono" title="${address}">${shortHex(address)}</span>`;
      return explorer ? html`<a href="${explorer}/address/${address.toLowerCase()}">${text}</a>` : text;
    };
    const networks = environment.vnets.map((vnet) => {
      const accounts = environment.network_configs[vnet.position]?.accounts ?? [];
      return html`<div class="card"><h3>${vnet.display_name}</h3>${fields([
        ["Network", `${vnet.network_name} (${vnet.network_id})`],
        ["Chain id", vnet.chain_id],
        ["Fork point", `block ${decimal(vnet.block_number)}`],
        ["Public RPC", html`<span class="mono">${publicRpc(request, vnet.id)}</span>`],
        [
          "Admin RPC",
          reveal && canWrite ? html`<span class="mono admin-rpc">${baseUrlOf(request)}/rpc/admin/${vnet.admin_secret}</span>` : null,
        ],
        [
          "Explorer",
          explorerOf.get(vnet.id) ? html`<a href="/explorer/${vnet.id}">${explorerUrl(baseUrlOf(request), vnet.id)}</a>` : "not enabled",
        ],
        [
          "Prefunded",
          accounts.length > 0
            ? html`<table class="prefunded"><tbody>${accounts.map((a) => html`<tr><td>${addressOn(vnet.id, a.address)}</td><td>${ether(a.balance)}</td></tr>`)}</tbody></table>`
            : "no prefunded accounts",
        ],
        ["Snapshots", snapshotList(service.chains.snapshots(vnet.id))],
      ])}</div>`;
    });
    const contracts = await deployedContracts(context, environment.instance_id);
    const actions = canWrite
      ? html`<div class="card">${
          reveal
            ? html`<p class="muted">The Admin RPC URLs are secrets: they can change the chain's state. They are not kept in this page's address.</p>`
            : html`<form class="inline" method="post" action="${envBase}/reveal">${csrfField(session)}<button class="plain" type="submit">Reveal Admin RPC URLs</button></form>`
        } <a href="${envBase}/delete"><button class="danger" type="button" id="delete">Delete environment…</button></a></div>`
      : html``;
    return dashboardPage(
      session,
      environment.display_name,
      html`<h1>${environment.display_name}</h1>
<div class="card">${fields([
        ["Slug", html`<code>${environment.slug}</code>`],
        ["Created", `${environment.created_at} (${age(environment.created_at)} ago)`],
        [
          "Bridge",
          environment.bridge_config.enabled
            ? `${environment.bridge_config.relay_mode}, delay ${environment.bridge_config.delay_seconds} s`
            : "off",
        ],
      ])}</div>${actions}
<h2>Networks</h2>${networks}
<h2>Deployed contracts</h2><div class="card" id="contracts">${table(
        ["Contract", "Network", "Deployed by", "In transaction"],
        contracts.map((c) => [
          addressOn(c.vnetId, c.address),
          vnetName.get(c.vnetId) ?? c.vnetId,
          addressOn(c.vnetId, c.creator),
          html`<a class="mono" href="${envBase}/tx/${c.hash}">${shortHex(c.hash)}</a>`,
        ]),
        "no contract deployments recorded",
      )}</div>
<h2>Transactions</h2><div class="card">${filterForm(envBase, request.query ?? {})}${table(
        ["Hash", "Network", "Block", "From", "To", "Value", "Status", "Category", "Kind"],
        transactions.map((t) => [
          html`<a class="mono" href="${envBase}/tx/${t.hash}">${shortHex(t.hash)}</a>`,
          vnetName.get(t.vnetId) ?? t.vnetId,
          t.blockNumber ? decimal(t.blockNumber) : "pending",
          html`<span class="mono" title="${t.from}">${shortHex(t.from)}</span>`,
          t.to ? html`<span class="mono" title="${t.to}">${shortHex(t.to)}</span>` : "create",
          ether(t.value),
          t.status === "success" ? html`<span class="ok">success</span>` : html`<span class="fail">${t.status}</span>`,
          t.category,
          kindCell(views, t, envBase),
        ]),
        "no transactions match",
      )}${pager(envBase, request.query ?? {}, pageNumber, transactions.length === PER_PAGE)}</div>`,
    );
  }

  app.get<{ Params: EnvironmentParams; Querystring: Record<string, string> }>(
    "/:account/:project/environments/:environmentId",
    { config },
    async (request, reply) => {
      const session = sessions.viewer(request);
      return sendPage(reply, 200, await environmentPage(request, session, false));
    },
  );

  app.post<{ Params: EnvironmentParams; Querystring: Record<string, string> }>(
    "/:account/:project/environments/:environmentId/reveal",
    { config },
    async (request, reply) => {
      const session = sessions.changer(request);
      requireWriter(session);
      return sendPage(reply, 200, await environmentPage(request, session, true));
    },
  );

  app.get<{ Params: EnvironmentParams }>("/:account/:project/environments/:environmentId/delete", { config }, async (request, reply) => {
    const session = sessions.viewer(request);
    const { environment, base } = environmentOf(service, session, request.params);
    requireWriter(session);
    const envBase = `${base}/environments/${environment.id}`;
    return sendPage(
      reply,
      200,
      dashboardPage(
        session,
        "Delete environment",
        html`<h1>Delete ${environment.display_name}?</h1><div class="card">
<p>This deletes the environment <code>${environment.slug}</code>, its ${environment.vnets.length} Virtual Environment(s) and their chains. It cannot be undone.</p>
<form method="post" action="${envBase}/delete">${csrfField(session)}<button class="danger" type="submit" id="confirm-delete">Delete</button> <a href="${envBase}">Cancel</a></form></div>`,
      ),
    );
  });

  app.post<{ Params: EnvironmentParams }>("/:account/:project/environments/:environmentId/delete", { config }, async (request, reply) => {
    const session = sessions.changer(request);
    const { environment, project } = environmentOf(service, session, request.params);
    requireWriter(session);
    await service.changes.deleteEnvironment(project.id, environment.id);
    return reply.redirect(`/dashboard/${request.params.account}/${project.slug}`, 303);
  });
}

/** A contract deployed in an environment: by a creation transaction, or by a contract (a CREATE frame of a call). */
interface DeployedContract {
  readonly address: string;
  readonly vnetId: string;
  readonly creator: string;
  readonly hash: string;
}

/**
 * Contracts deployed in an instance, newest first (the newest 1000 records are searched): creation transactions, and
 * the contracts the newest calls created (a factory's pairs), read from their call traces.
 */
async function deployedContracts(context: WebContext, instanceId: string): Promise<DeployedContract[]> {
  const records: TransactionSummary[] = [];
  for (let pageNumber = 1; pageNumber <= CONTRACT_SCAN_PAGES; pageNumber++) {
    const page = context.service.views.records.transactions(instanceId, {}, pageNumber, 100).map(summarize);
    records.push(...page);
    if (page.length < 100) break;
  }
  const calls = records.filter((t) => t.to && t.status === "success" && t.kind === "blockchain").slice(0, TRACED_CALLS);
  const created = new Map(
    await Promise.all(calls.map(async (t) => [t.hash, await contractsCreatedBy(context, t.vnetId, t.hash)] as const)),
  );
  return records.flatMap((t): DeployedContract[] => {
    if (t.contractAddress && t.status === "success")
      return [{ address: t.contractAddress, vnetId: t.vnetId, creator: t.from, hash: t.hash }];
    return (created.get(t.hash) ?? []).map((c) => ({ ...c, vnetId: t.vnetId, hash: t.hash }));
  });
}

/**
 * The kind shown for a record: a bridge relay is `bridge` (the README's word; the API's record keeps kind
 * `blockchain` with origin `bridge`), linked to the deposit it paid out; a cheatcode names its method.
 */
function kindCell(views: StoreViews, t: TransactionSummary, envBase: string): Html {
  if (t.origin === "bridge") {
    const deposit = views.bridgeDepositOf(t.hash);
    return html`<span title="kind ${t.kind}, origin bridge">bridge</span>${deposit ? html` <a class="deposit" href="${envBase}/tx/${deposit.txHash}">relay of ${shortHex(deposit.txHash)}</a>` : html``}`;
  }
  if (t.kind === "cheatcode" && t.rpcMethod) return html`<span title="${t.rpcMethod}">cheatcode</span>`;
  return html`${t.kind}`;
}

/** The snapshots a vnet's chain holds (taken this run of the service: the chain keeps them in memory). */
function snapshotList(snapshots: readonly VnetSnapshot[]): Html | string {
  if (snapshots.length === 0) return "none taken since the service started";
  return html`<table class="snapshots"><tbody>${snapshots.map(
    (s) =>
      html`<tr><td class="mono">${s.id}</td><td>block ${decimal(s.blockNumber)}</td><td>${s.takenAt} (${age(s.takenAt)} ago)</td></tr>`,
  )}</tbody></table>`;
}
