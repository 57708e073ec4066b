/**
 * The dashboard's home (the projects of the user's account and organizations) and a project's page (environments,
 * saved simulations, delivery channels, Web3 Actions), with the action that stops a running Web3 Action.
 */
import type { FastifyInstance } from "fastify";
import { ServiceError } from "../../service/web-interface";
import { sendPage, type WebContext } from "../context";
import { html, table } from "../html";
import { age, csrfField, dashboardPage, signInPage } from "./layout";
import { projectOf, publicRpc, requireWriter, type ProjectParams } from "./lookup";
import { PER_PAGE } from "./query";
import type { Sessions } from "./sessions";

/** Registers the home and project routes. */
export function registerProjects(app: FastifyInstance, context: WebContext, sessions: Sessions): void {
  const { service } = context;
  const { views } = service;
  const config = { public: true };

  app.get("/", { config }, async (request, reply) => {
    const session = sessions.of(request);
    if (!session) return sendPage(reply, 200, signInPage());
    const user = session.requester.user;
    const accounts = [user.slug, ...views.accounts.organizationsOf(user.id).map((id) => views.accounts.byId(id)!.slug)];
    const groups = accounts.map((slug) => {
      const access = service.access.account(session.requester, slug);
      const own = views.projects.ofOwner(access.account.id).filter((p) => service.access.canSeeProject(access, p, user.id));
      const shared = access.account.type === "user" ? views.projects.sharedWith(user.id, access.account.id) : [];
      return html`<h2>${slug}</h2><div class="card">${table(
        ["Project", "Environments"],
        [...own, ...shared].map((p) => {
          const owner = views.accounts.byId(p.owner_id)!.slug;
          return [html`<a href="/dashboard/${owner}/${p.slug}">${owner}/${p.name}</a>`, views.environments.page(p.id, 1, 100).length];
        }),
        "no projects",
      )}</div>`;
    });
    return sendPage(reply, 200, dashboardPage(session, "Projects", html`<h1>Projects</h1>${groups}`));
  });

  app.get<{ Params: ProjectParams }>("/:account/:project", { config }, async (request, reply) => {
    const session = sessions.viewer(request);
    const { account, project } = projectOf(service, session, request.params);
    const base = `/dashboard/${request.params.account}/${project.slug}`;
    const environments = views.environments.page(project.id, 1, 100);
    const simulations = views.records.simulations(project.id, 1, PER_PAGE);
    const channels = views.projects.deliveryChannels(account.id).filter((c) => c.project_id === null || c.project_id === project.id);
    const actions = views.projects.actions(project.id);
    const canWrite = !session.requester.readOnly;
    return sendPage(
      reply,
      200,
      dashboardPage(
        session,
        project.name,
        html`<h1>${request.params.account} / ${project.name}</h1>
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
        )}</div>`,
      ),
    );
  });

  app.post<{ Params: ProjectParams & { actionId: string } }>(
    "/:account/:project/actions/:actionId/stop",
    { config },
    async (request, reply) => {
      const session = sessions.changer(request);
      const { project } = projectOf(service, session, request.params);
      requireWriter(session);
      if (!service.changes.stopAction(project.id, request.params.actionId))
        throw new ServiceError(404, "no such Web3 Action in this project");
      return reply.redirect(`/dashboard/${request.params.account}/${project.slug}`, 303);
    },
  );
}
