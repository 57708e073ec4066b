/**
 * Environments (docs/api.md "Endpoints", docs/service.md "Shapes"): create, list, get, delete, batch delete under
 * `/public/v1/account/{accountSlug}/project/{projectSlug}/environments`. Creating only writes rows; chains
 * start lazily on first use. Deleting destroys the chains of the deleted vnets.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import { Type } from "@sinclair/typebox";
import {
  BatchDeleteEnvironmentsRequest,
  CreateEnvironmentRequest,
  Environment,
  EnvironmentList,
  EnvironmentParams,
  ListEnvironmentsQuery,
  ProjectParams,
} from "../../../api";
import { badRequest, notFound } from "../../errors";
import { baseUrlOf, pageOf, projectOf, replies } from "../common";
import { generatedSlug, planEnvironment } from "../../environment-plan/plan";
import { fixtureRoutes } from "./files";
import { pinForkPoints, withForkPoints } from "../../environment-plan/create-fork-point";
import { slugify } from "../../../domain/slug";
import { toEnvironment, type Audience } from "./render";

const AnyEnvironmentIdParams = Type.Composite([
  ProjectParams,
  Type.Object({ environmentId: Type.String({ minLength: 1, maxLength: 500 }) }),
]);

/** Path prefix of the environment endpoints. */
export const ENVIRONMENTS_PATH = "/public/v1/account/:accountSlug/project/:projectSlug/environments";

/** Whether the caller may receive Admin RPC URLs: only callers who may write (docs/service.md "Access": never a read-only key). */
function audienceOf(request: FastifyRequest): Audience {
  return { mayWrite: request.requester != null && !request.requester.readOnly };
}

/** The environment routes. */
export default async function environmentRoutes(app: FastifyInstance): Promise<void> {
  const { store, engine } = app.service;
  const routes = app.withTypeProvider<TypeBoxTypeProvider>();

  /** Deletes environments of a project, then destroys their chains; returns the ids that did not exist. */
  async function deleteEnvironments(projectId: string, ids: readonly string[]): Promise<string[]> {
    const { missing, deletedVnetIds } = store.environments.delete(projectId, ids);
    if (deletedVnetIds.length > 0) await engine.destroyVnets(deletedVnetIds);
    return missing;
  }

  routes.post(
    ENVIRONMENTS_PATH,
    { schema: { params: ProjectParams, body: CreateEnvironmentRequest, response: replies({ 200: Environment }) } },
    async (request) => {
      const project = projectOf(request);
      const base = request.body.slug ?? slugify(request.body.display_name);
      let plan = planEnvironment(store, project.id, request.body, base);
      // Forked networks pin their block now (docs/forking.md); an upstream failure leaves nothing written.
      const pins = await pinForkPoints(engine, request.body, plan);
      plan = withForkPoints(plan, pins);
      let result = store.environments.create(plan);
      // A generated slug is unique in the project (docs/service.md): the display name's slug, then -2, -3, ...
      for (let n = 2; "slugTakenBy" in result && request.body.slug === undefined; n++) {
        plan = withForkPoints(planEnvironment(store, project.id, request.body, generatedSlug(base, n)), pins);
        result = store.environments.create(plan);
      }
      if ("slugTakenBy" in result) {
        throw badRequest(
          `slug ${plan.slug} is already used by environment ${result.slugTakenBy} in this project: choose another slug or display_name`,
          "/slug",
          { environment_id: result.slugTakenBy, slug: plan.slug },
        );
      }
      return toEnvironment(result.created, baseUrlOf(request), audienceOf(request));
    },
  );

  routes.get(
    ENVIRONMENTS_PATH,
    { schema: { params: ProjectParams, querystring: ListEnvironmentsQuery, response: replies({ 200: EnvironmentList }) } },
    async (request) => {
      const project = projectOf(request);
      const { page, perPage } = pageOf(request.query);
      const baseUrl = baseUrlOf(request);
      const audience = audienceOf(request);
      return { environments: store.environments.page(project.id, page, perPage).map((e) => toEnvironment(e, baseUrl, audience)) };
    },
  );

  routes.get(
    `${ENVIRONMENTS_PATH}/:environmentId`,
    { schema: { params: EnvironmentParams, response: replies({ 200: Environment }) } },
    async (request) => {
      const project = projectOf(request);
      const environment = store.environments.get(project.id, request.params.environmentId);
      if (!environment) throw notFound("rid:vnet", `environment ${request.params.environmentId} not found`);
      return toEnvironment(environment, baseUrlOf(request), audienceOf(request));
    },
  );

  // Any id, malformed ones included: deleting what does not exist is a 404 (docs/api.md "Conventions").
  routes.delete(
    `${ENVIRONMENTS_PATH}/:environmentId`,
    { schema: { params: AnyEnvironmentIdParams, response: replies({ 204: Type.Null() }) } },
    async (request, reply) => {
      const missing = await deleteEnvironments(projectOf(request).id, [request.params.environmentId]);
      if (missing.length > 0) throw notFound("rid:vnet", `environment ${request.params.environmentId} not found`);
      return reply.code(204).send(null);
    },
  );

  routes.delete(
    ENVIRONMENTS_PATH,
    { schema: { params: ProjectParams, body: BatchDeleteEnvironmentsRequest, response: replies({ 204: Type.Null() }) } },
    async (request, reply) => {
      const missing = await deleteEnvironments(projectOf(request).id, request.body.environment_ids);
      if (missing.length > 0) {
        throw notFound("rid:vnet", `${missing.length} environment(s) not found; the others were deleted`, { missing_ids: missing });
      }
      return reply.code(204).send(null);
    },
  );

  await fixtureRoutes(app, ENVIRONMENTS_PATH);
}
