/**
 * Environments as fixtures (docs/fixtures.md), local extras: export an environment as one file, import one as a new
 * environment, clone one in place. The work is lib/service/environment-files'; these routes check the request and answer.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import {
  CloneEnvironmentRequest,
  Environment,
  EnvironmentParams,
  FIXTURE_MEDIA_TYPE,
  ImportEnvironmentQuery,
  ProjectParams,
} from "../../../api";
import { slugify } from "../../../domain/slug";
import { badRequest, errorBody } from "../../errors";
import {
  EnvironmentFixtures,
  FixtureError,
  FixtureReader,
  ImportBusyError,
  MAX_FIXTURE_BYTES,
  writeFixture,
  type InstallResult,
} from "../../environment-files";
import { baseUrlOf, projectOf, replies } from "../common";
import { generatedSlug } from "../../environment-plan/plan";
import { toEnvironment } from "./render";

/** What an uploaded fixture is called in messages (the CLI names the file itself). */
const UPLOADED = "the uploaded fixture";

/** The export, import and clone routes under `environmentsPath`. */
export async function fixtureRoutes(app: FastifyInstance, environmentsPath: string): Promise<void> {
  const { store, engine } = app.service;
  const fixtures = new EnvironmentFixtures(store, engine);
  // Files are read off the event loop, one import at a time per service (lib/service/environment-files/reader.ts).
  const reader = new FixtureReader();
  const routes = app.withTypeProvider<TypeBoxTypeProvider>();
  // The import's body is the file, read whole (it is checked whole before anything is written) up to the limit.
  app.addContentTypeParser(FIXTURE_MEDIA_TYPE, { parseAs: "buffer", bodyLimit: MAX_FIXTURE_BYTES }, (_request, body, done) =>
    done(null, body),
  );

  /** The 201 answer of an install, or the 400 naming the slug a create gives. */
  const answer = (request: FastifyRequest, result: InstallResult) => {
    if ("slugTakenBy" in result) {
      throw badRequest(
        `slug ${result.slug} is already used by environment ${result.slugTakenBy} in this project: choose another slug`,
        "/slug",
        { environment_id: result.slugTakenBy, slug: result.slug },
      );
    }
    return toEnvironment(result.created, baseUrlOf(request), { mayWrite: request.requester != null && !request.requester.readOnly });
  };

  routes.get(`${environmentsPath}/:environmentId/export`, { schema: { params: EnvironmentParams } }, async (request, reply) => {
    const content = await fixtures.collect(projectOf(request).id, request.params.environmentId, true);
    const file = writeFixture(content);
    // A file no service would take back is not written at all.
    if (file.length > MAX_FIXTURE_BYTES) {
      throw badRequest(
        `environment ${request.params.environmentId} would make a ${file.length}-byte fixture, over the ${MAX_FIXTURE_BYTES}-byte limit a fixture may hold`,
      );
    }
    return reply.type(FIXTURE_MEDIA_TYPE).header("content-disposition", `attachment; filename="${content.slug}.chainform"`).send(file);
  });

  routes.post(
    `${environmentsPath}/import`,
    {
      schema: { params: ProjectParams, querystring: ImportEnvironmentQuery, response: replies({ 201: Environment }) },
      bodyLimit: MAX_FIXTURE_BYTES,
      errorHandler: (error) => {
        if ((error as { code?: string }).code === "FST_ERR_CTP_BODY_TOO_LARGE") {
          throw badRequest(`${UPLOADED} is over the ${MAX_FIXTURE_BYTES}-byte limit of a fixture`);
        }
        if ((error as { code?: string }).code === "FST_ERR_CTP_INVALID_MEDIA_TYPE") {
          throw badRequest(`send the fixture file as the body, with Content-Type: ${FIXTURE_MEDIA_TYPE}`);
        }
        throw error;
      },
    },
    async (request, reply) => {
      const project = projectOf(request);
      if (!Buffer.isBuffer(request.body)) throw badRequest(`send the fixture file as the body, with Content-Type: ${FIXTURE_MEDIA_TYPE}`);
      const body = request.body;
      let result: InstallResult;
      try {
        result = await reader.exclusive(async () => {
          const content = await reader.read(body, UPLOADED);
          return fixtures.install(project.id, content, { slug: request.query.slug, displayName: request.query.display_name });
        });
      } catch (error) {
        if (error instanceof FixtureError) throw badRequest(error.message);
        if (error instanceof ImportBusyError) return reply.code(429).header("retry-after", "5").send(errorBody(429, error.message));
        throw error;
      }
      return reply.code(201).send(answer(request, result));
    },
  );

  routes.post(
    `${environmentsPath}/:environmentId/clone`,
    { schema: { params: EnvironmentParams, body: CloneEnvironmentRequest, response: replies({ 201: Environment }) } },
    async (request, reply) => {
      const project = projectOf(request);
      const content = await fixtures.collect(project.id, request.params.environmentId, false);
      const given = request.body.slug;
      const base = given ?? slugify(request.body.display_name);
      let result = await fixtures.install(project.id, content, { slug: base, displayName: request.body.display_name });
      // A slug made from the name is made unique as a create's is: -2, -3, ...
      for (let n = 2; "slugTakenBy" in result && given === undefined; n++) {
        result = await fixtures.install(project.id, content, { slug: generatedSlug(base, n), displayName: request.body.display_name });
      }
      return reply.code(201).send(answer(request, result));
    },
  );
}
