/**
 * A transaction of an environment (the explorer's transaction panel, linking to the explorer when it is enabled) and
 * a saved simulation of a project, each with its call trace.
 */
import type { FastifyInstance } from "fastify";
import { Hash } from "../../api";
import { ServiceError } from "../../service/web-interface";
import { decimal } from "../chain-reader";
import { sendPage, summarize, vnetView, type WebContext } from "../context";
import { transactionBody } from "../explorer";
import { ether, fields, html, table } from "../html";
import { decodeEvent } from "../decode/book";
import { argumentList, fromFlatTrace, traceTree } from "../trace-view";
import { dashboardPage } from "./layout";
import { environmentOf, findSimulation, projectOf, type EnvironmentParams, type ProjectParams } from "./lookup";
import type { Sessions } from "./sessions";

const HASH = new RegExp(Hash.pattern!);

/** Registers the transaction and simulation routes. */
export function registerTransactions(app: FastifyInstance, context: WebContext, sessions: Sessions): void {
  const { service } = context;
  const { views } = service;
  const config = { public: true };

  app.get<{ Params: EnvironmentParams & { hash: string } }>(
    "/:account/:project/environments/:environmentId/tx/:hash",
    { config },
    async (request, reply) => {
      const session = sessions.viewer(request);
      const { environment } = environmentOf(service, session, request.params);
      const hash = request.params.hash.toLowerCase();
      if (!HASH.test(hash)) throw new ServiceError(400, `"${request.params.hash}" is not a transaction hash: 0x followed by 64 hex digits`);
      const record = views.records.transaction(environment.instance_id, hash);
      const view = record && vnetView(views, summarize(record).vnetId);
      if (!view) throw new ServiceError(404, `no transaction ${hash} in this environment`);
      const explorer = view.explorerEnabled ? `/explorer/${view.vnet.id}` : null;
      const link = {
        block: (n: string) => (explorer ? html`<a href="${explorer}/block/${decimal(n)}">${decimal(n)}</a>` : html`${decimal(n)}`),
        address: (a: string) =>
          explorer
            ? html`<a class="mono" href="${explorer}/address/${a.toLowerCase()}">${a.toLowerCase()}</a>`
            : html`<span class="mono">${a.toLowerCase()}</span>`,
      };
      const body = await transactionBody(context, view, hash, link);
      if (!body) throw new ServiceError(404, `no transaction ${hash} in this environment`);
      const deposit = summarize(record).origin === "bridge" ? views.bridgeDepositOf(hash) : undefined;
      const relayNote = deposit
        ? html`<div class="card"><p>A bridge relay: it paid out the deposit <a class="mono deposit" href="/dashboard/${request.params.account}/${request.params.project}/environments/${environment.id}/tx/${deposit.txHash}">${deposit.txHash}</a>${
            deposit.vnetId !== view.vnet.id ? html` on ${vnetView(views, deposit.vnetId)?.vnet.display_name ?? "another network"}` : html``
          }.</p></div>`
        : html``;
      return sendPage(
        reply,
        200,
        dashboardPage(
          session,
          "Transaction",
          html`<p class="muted">${environment.display_name} · ${view.vnet.display_name}</p>${relayNote}${body}`,
        ),
      );
    },
  );

  app.get<{ Params: ProjectParams & { simulationId: string } }>(
    "/:account/:project/simulations/:simulationId",
    { config },
    async (request, reply) => {
      const session = sessions.viewer(request);
      const { project } = projectOf(service, session, request.params);
      const simulation = findSimulation(views, project.id, request.params.simulationId);
      if (!simulation) throw new ServiceError(404, `no saved simulation ${request.params.simulationId} in this project`);
      const root = fromFlatTrace(simulation.trace);
      // The service names the standard interfaces' and the bridge's events; the pages' book adds its signature table.
      const logs = simulation.logs.map((l) => (l.name ? l : decodeEvent(l.raw, undefined)));
      return sendPage(
        reply,
        200,
        dashboardPage(
          session,
          "Simulation",
          html`<h1>Simulation</h1><div class="card">${fields([
            ["Id", html`<code>${simulation.id}</code>`],
            ["Status", simulation.status ? html`<span class="ok">success</span>` : html`<span class="fail">failed</span>`],
            ["Network", simulation.network_id],
            ["Block", simulation.block_number],
            ["From", html`<span class="mono">${simulation.from}</span>`],
            ["To", simulation.to ? html`<span class="mono">${simulation.to}</span>` : "contract creation"],
            ["Value", ether(simulation.value)],
            ["Gas", `${simulation.gas_used} used of ${simulation.gas}`],
            ["Method", root?.method ? html`<code>${root.method}(${argumentList(root.args)})</code>` : null],
          ])}</div>
<h2>Logs (${logs.length})</h2><div class="card">${table(
            ["Address", "Event"],
            logs.map((l) => [
              html`<span class="mono">${l.raw.address}</span>`,
              l.name ? `${l.name}(${l.inputs.map((i) => `${i.name}: ${i.value}`).join(", ")})` : "unknown event",
            ]),
            "no logs",
          )}</div>
<h2>Call trace</h2><div class="card">${traceTree(root, (a) => html`<span class="mono">${a}</span>`)}</div>`,
        ),
      );
    },
  );
}
