/**
 * Virtual TestNets as the hosted clients call them (docs/hosted-clients.md "Virtual TestNets"): create, list, get,
 * stop (`PATCH {status: "stopped"}`), delete one or many, and fork, under `/v1/account/{a}/project/{p}/vnets`. A vnet
 * created here is an environment of one network, made by the spec's own operations (planEnvironment, the pinned fork
 * point, the store's create); every environment's vnets are listed. Only the shapes are converted here.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import { Type, type Static } from "@sinclair/typebox";
import { MAX_BATCH_DELETE_IDS, ProjectParams, type CreateEnvironmentRequest } from "../../../api";
import { blockNumberHex, parseBlockNumber } from "../../../domain/chain";
import { MAX_SLUG_LENGTH, slugify } from "../../../domain/slug";
import { badRequest, notFound, ServiceError } from "../../errors";
import type { ChainEngine, VnetFork } from "../../chains";

/** A vnet's chain state as a fork copies it. */
interface Saved {
  readonly state: Buffer;
  readonly fork: VnetFork | null;
}
import type { EnvironmentRecord, Store, VnetRecord } from "../../store";
import { projectOf, replies } from "../common";
import { HOSTED_ANSWER } from "./answer";
import { planEnvironment } from "../../environment-plan/plan";
import { pinForkPoints, withForkPoints } from "../../environment-plan/create-fork-point";
import type { Audience } from "../environments/render";
import { environmentsOf, HOSTED_SOURCE_VISIBILITY, projectVnet, rpcStyleOf, toHostedVnet } from "./vnet-view";

/** Path of the vnets of a project (the account segment resolves as ./account.ts says). */
export const VNETS_PATH = "/v1/account/:accountSlug/project/:projectSlug/vnets";

const IntegerOrText = Type.Union([Type.Integer(), Type.String({ minLength: 1, maxLength: 80 })]);

/** The hosted create body: numbers or text for ids, `"latest"` or a block number, `src` or `source`. */
const CreateVnetBody = Type.Object(
  {
    slug: Type.String({ minLength: 1, maxLength: 200 }),
    display_name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    description: Type.Optional(Type.String({ maxLength: 2000 })),
    fork_config: Type.Object({ network_id: IntegerOrText, block_number: Type.Optional(IntegerOrText) }, { additionalProperties: false }),
    virtual_network_config: Type.Optional(
      Type.Object(
        { chain_config: Type.Optional(Type.Object({ chain_id: Type.Optional(IntegerOrText) }, { additionalProperties: false })) },
        { additionalProperties: false },
      ),
    ),
    sync_state_config: Type.Optional(
      Type.Object({ enabled: Type.Optional(Type.Boolean()), commitment_level: Type.Optional(Type.String({ maxLength: 40 })) }),
    ),
    explorer_page_config: Type.Optional(
      Type.Object(
        {
          enabled: Type.Optional(Type.Boolean()),
          verification_visibility: Type.Optional(Type.Union(["bytecode", "abi", "src", "source"].map((v) => Type.Literal(v)))),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);
type CreateVnetBody = Static<typeof CreateVnetBody>;

const VnetParams = Type.Composite([ProjectParams, Type.Object({ vnetId: Type.String({ minLength: 1, maxLength: 200 }) })]);
const PatchVnetBody = Type.Object(
  {
    status: Type.Optional(Type.Union([Type.Literal("stopped"), Type.Literal("running")])),
    display_name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  },
  { additionalProperties: false },
);
const DeleteVnetsBody = Type.Object(
  { vnet_ids: Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { minItems: 1, maxItems: MAX_BATCH_DELETE_IDS }) },
  { additionalProperties: false },
);
const ForkVnetBody = Type.Object(
  {
    vnet_id: Type.String({ minLength: 1, maxLength: 200 }),
    state_sync: Type.Optional(Type.Boolean()),
    slug: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    display_name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  },
  { additionalProperties: false },
);
const ListQuery = Type.Object({
  page: Type.Optional(Type.Integer({ minimum: 1 })),
  per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
});

/** Where a field of the spec's create request sits in the hosted body, for the 400s the spec's rules throw. */
const HOSTED_FIELDS: readonly [RegExp, string][] = [
  [/network_configs(\[0\]|\/0)[./]chain_config_overrides[./]chain_id/, "virtual_network_config.chain_config.chain_id"],
  [/network_configs(\[0\]|\/0)[./]network_id/, "fork_config.network_id"],
  [/network_configs(\[0\]|\/0)[./]block_number/, "fork_config.block_number"],
  [/network_configs(\[0\]|\/0)[./]explorer_config/, "explorer_page_config"],
];

/** Who asks: as for the spec's environments, only a caller who may write receives Admin RPC URLs. */
function audienceOf(request: FastifyRequest): Audience {
  return { mayWrite: request.requester != null && !request.requester.readOnly };
}

/**
 * The slug a hosted slug is stored as: the clients make theirs from names (the vnet GitHub Action joins run number,
 * name, network, workflow, job and run id, which may hold doubled dashes and run past the slug length), and the
 * hosted service takes them. Here it becomes a slug by the one slug rule (`slugify`); a long one keeps its head and
 * its tail, where the clients put what makes it unique.
 */
export function hostedSlug(given: string): string {
  if (given.length <= MAX_SLUG_LENGTH) return slugify(given, "vnet");
  const half = Math.floor((MAX_SLUG_LENGTH - 1) / 2);
  return `${slugify(given.slice(0, half), "vnet")}-${slugify(given.slice(-half), "vnet")}`;
}

/** The spec's create request for a hosted create body (one network; the hosted slug is the environment's). */
export function toCreateEnvironment(body: CreateVnetBody): CreateEnvironmentRequest {
  if (body.sync_state_config?.enabled === true) {
    throw badRequest(
      "sync_state_config.enabled: State Sync is not available locally (a fork stays at its pinned block, docs/forking.md): send false",
      "/sync_state_config/enabled",
    );
  }
  const block = body.fork_config.block_number;
  if (block !== undefined && block !== "latest" && "error" in parseBlockNumber(block)) {
    throw badRequest(
      `fork_config.block_number: ${(parseBlockNumber(block) as { error: string }).error}, or "latest"`,
      "/fork_config/block_number",
    );
  }
  const chainId = body.virtual_network_config?.chain_config?.chain_id;
  const slug = hostedSlug(body.slug);
  const explorer = body.explorer_page_config;
  const visibility = explorer?.verification_visibility === HOSTED_SOURCE_VISIBILITY ? "source" : explorer?.verification_visibility;
  return {
    display_name: body.display_name ?? body.slug,
    slug,
    network_configs: [
      {
        network_id: String(body.fork_config.network_id),
        ...(block !== undefined && block !== "latest" && { block_number: blockNumberHex(block) }),
        ...(chainId !== undefined && { chain_config_overrides: { chain_id: String(chainId) } }),
        ...(explorer && {
          explorer_config: {
            ...(explorer.enabled !== undefined && { enabled: explorer.enabled }),
            ...(visibility !== undefined && { verification_visibility: visibility as "bytecode" | "abi" | "source" }),
          },
        }),
      },
    ],
  };
}

/** A 400 of the spec's rules, its field named as the hosted body names it. */
function inHostedTerms(error: unknown): unknown {
  if (!(error instanceof ServiceError) || error.status !== 400) return error;
  const field = typeof error.data?.field === "string" ? error.data.field : "";
  for (const [pattern, hosted] of HOSTED_FIELDS) {
    if (pattern.test(error.message) || pattern.test(field)) {
      const message = error.message.replace(/^network_configs\[0\]\.[a-z_.]+/, hosted);
      return badRequest(message, `/${hosted.replace(/\./g, "/")}`, { ...error.data, field: undefined });
    }
  }
  return error;
}

/** Creates the environment of one network a hosted create body asks for: the spec's operations, in the spec's order. */
export async function createVnetEnvironment(
  app: FastifyInstance,
  projectId: string,
  body: CreateVnetBody,
  onCreated?: (record: EnvironmentRecord) => void,
): Promise<EnvironmentRecord> {
  const { store, engine } = app.service;
  try {
    const request = toCreateEnvironment(body);
    const slug = request.slug!;
    const plan = planEnvironment(store, projectId, request, slug);
    // The vnet is the environment: it takes the environment's slug and name rather than the per-network ones.
    const single = { ...plan, vnets: plan.vnets.map((vnet) => ({ ...vnet, slug, displayName: request.display_name })) };
    const pinned = withForkPoints(single, await pinForkPoints(engine, request, single));
    // `onCreated` runs in the creating transaction: what it places is there before any call can start the chain.
    const result = store.db
      .transaction(() => {
        const created = store.environments.create(pinned);
        if ("created" in created) onCreated?.(created.created);
        return created;
      })
      .immediate();
    if ("slugTakenBy" in result) {
      throw badRequest(`slug ${slug} is already used in this project: choose another slug`, "/slug", {
        environment_id: result.slugTakenBy,
      });
    }
    return result.created;
  } catch (error) {
    throw inHostedTerms(error);
  }
}

/** A vnet of the request's project, or the 404 naming it. */
function vnetOf(store: Store, projectId: string, vnetId: string): { record: EnvironmentRecord; vnet: VnetRecord } {
  const found = projectVnet(store, projectId, vnetId);
  if (!found) throw notFound("rid:vnet", `vnet ${vnetId} not found in this project`);
  return found;
}

/** The vnet routes. */
export default async function vnetRoutes(app: FastifyInstance): Promise<void> {
  const { store, engine } = app.service;
  const routes = app.withTypeProvider<TypeBoxTypeProvider>();

  /** Deletes the environments of these vnets (a vnet of a many-network environment takes its environment along). */
  async function deleteVnets(projectId: string, vnetIds: readonly string[]): Promise<string[]> {
    const found = vnetIds.map((id) => ({ id, found: projectVnet(store, projectId, id) }));
    const missing = found.filter((entry) => !entry.found).map((entry) => entry.id);
    const environmentIds = [...new Set(found.flatMap((entry) => (entry.found ? [entry.found.record.id] : [])))];
    const { deletedVnetIds } = store.environments.delete(projectId, environmentIds);
    if (deletedVnetIds.length > 0) await engine.destroyVnets(deletedVnetIds);
    return missing;
  }

  routes.post(
    VNETS_PATH,
    { schema: { params: ProjectParams, body: CreateVnetBody, response: replies({ 200: HOSTED_ANSWER }) } },
    async (request) => {
      const record = await createVnetEnvironment(app, projectOf(request).id, request.body);
      return toHostedVnet(store, record, record.vnets[0], rpcStyleOf(request), audienceOf(request));
    },
  );

  routes.get(
    VNETS_PATH,
    { schema: { params: ProjectParams, querystring: ListQuery, response: replies({ 200: HOSTED_ANSWER }) } },
    async (request) => {
      const project = projectOf(request);
      const style = rpcStyleOf(request);
      const audience = audienceOf(request);
      const all = environmentsOf(store, project.id).flatMap((record) =>
        record.vnets.map((vnet) => toHostedVnet(store, record, vnet, style, audience)),
      );
      const perPage = request.query.per_page ?? 100;
      const page = request.query.page ?? 1;
      return all.slice((page - 1) * perPage, page * perPage);
    },
  );

  routes.get(`${VNETS_PATH}/:vnetId`, { schema: { params: VnetParams, response: replies({ 200: HOSTED_ANSWER }) } }, async (request) => {
    const { record, vnet } = vnetOf(store, projectOf(request).id, request.params.vnetId);
    return toHostedVnet(store, record, vnet, rpcStyleOf(request), audienceOf(request));
  });

  routes.patch(
    `${VNETS_PATH}/:vnetId`,
    { schema: { params: VnetParams, body: PatchVnetBody, response: replies({ 200: HOSTED_ANSWER }) } },
    async (request) => {
      const project = projectOf(request);
      const { vnet } = vnetOf(store, project.id, request.params.vnetId);
      if (request.body.display_name !== undefined) {
        throw badRequest("display_name: renaming a vnet is not available locally; send status only", "/display_name");
      }
      if (request.body.status !== undefined) store.environments.setStatus(vnet.id, request.body.status);
      const { record, vnet: changed } = vnetOf(store, project.id, vnet.id);
      return toHostedVnet(store, record, changed, rpcStyleOf(request), audienceOf(request));
    },
  );

  routes.delete(
    `${VNETS_PATH}/:vnetId`,
    { schema: { params: VnetParams, response: replies({ 200: HOSTED_ANSWER }) } },
    async (request, reply) => {
      const missing = await deleteVnets(projectOf(request).id, [request.params.vnetId]);
      if (missing.length > 0) throw notFound("rid:vnet", `vnet ${request.params.vnetId} not found in this project`);
      return reply.code(204).send(null);
    },
  );

  routes.delete(
    VNETS_PATH,
    { schema: { params: ProjectParams, body: DeleteVnetsBody, response: replies({ 200: HOSTED_ANSWER }) } },
    async (request, reply) => {
      const missing = await deleteVnets(projectOf(request).id, request.body.vnet_ids);
      if (missing.length > 0) {
        throw notFound("rid:vnet", `${missing.length} vnet(s) not found; the others were deleted`, { missing_ids: missing });
      }
      return reply.code(204).send(null);
    },
  );

  await forkRoute(app);
}

/**
 * `POST .../vnets/fork {vnet_id, state_sync}`: a new vnet whose chain starts from the source vnet's chain as it is
 * now (its blocks and state), through the same state installation the fixtures use.
 */
async function forkRoute(app: FastifyInstance): Promise<void> {
  const { store, engine } = app.service;
  app
    .withTypeProvider<TypeBoxTypeProvider>()
    .post(
      `${VNETS_PATH}/fork`,
      { schema: { params: ProjectParams, body: ForkVnetBody, response: replies({ 200: HOSTED_ANSWER }) } },
      async (request) => {
        const project = projectOf(request);
        const { record, vnet } = vnetOf(store, project.id, request.body.vnet_id);
        if (request.body.state_sync === true) {
          throw badRequest("state_sync: State Sync is not available locally: send false", "/state_sync");
        }
        const { withVnetState, installVnetState } = engine;
        if (!withVnetState || !installVnetState) throw badRequest("forking a vnet needs the anvil chain engine", "/vnet_id");
        const config = record.network_configs[vnet.position];
        const body: CreateVnetBody = {
          slug: request.body.slug ?? `${vnet.slug}-fork-${Date.now().toString(36)}`.slice(0, 100),
          display_name: request.body.display_name ?? `${vnet.display_name} (fork)`,
          fork_config: { network_id: vnet.network_id, block_number: vnet.block_number },
          virtual_network_config: { chain_config: { chain_id: vnet.chain_id } },
          ...(config.explorer_config && {
            explorer_page_config: {
              enabled: config.explorer_config.enabled,
              verification_visibility: config.explorer_config.verification_visibility,
            },
          }),
        };
        const source = await withVnetState.call<ChainEngine, [string, (state: Buffer, fork: VnetFork | null) => Saved], Promise<Saved>>(
          engine,
          vnet.id,
          (state, fork) => ({ state, fork }),
        );
        const created = await createVnetEnvironment(app, project.id, body, (record) =>
          installVnetState.call(engine, record.vnets[0].id, source.state, source.fork),
        );
        return toHostedVnet(store, created, created.vnets[0], rpcStyleOf(request), audienceOf(request));
      },
    );
}
