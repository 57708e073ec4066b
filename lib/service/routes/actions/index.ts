/** POST /v1/account/{accountSlug}/project/{projectSlug}/actions/action/{actionId}/stop (docs/api.md "Endpoints"). */
import type { FastifyInstance } from "fastify";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import { ActionParams, StopActionResponse } from "../../../api";
import { projectAccess } from "../../auth/access";
import { notFound } from "../../errors";
import { replies, requesterOf } from "../common";

/** The Web3 Action routes. Stopping a stopped action is a success too (docs/service.md). */
export default async function actionRoutes(app: FastifyInstance): Promise<void> {
  const { store } = app.service;
  app
    .withTypeProvider<TypeBoxTypeProvider>()
    .post(
      "/v1/account/:accountSlug/project/:projectSlug/actions/action/:actionId/stop",
      { schema: { params: ActionParams, response: replies({ 200: StopActionResponse }) } },
      async (request) => {
        const { accountSlug, projectSlug, actionId } = request.params;
        const { project } = projectAccess(store, requesterOf(request), accountSlug, projectSlug);
        const action = store.projects.stopAction(project.id, actionId);
        if (!action) throw notFound("rid:action", `Web3 Action ${actionId} not found in ${accountSlug}/${projectSlug}`);
        return { action };
      },
    );
}
