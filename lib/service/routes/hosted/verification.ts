/**
 * The hosted clients' verification doors (docs/hosted-clients.md "Verification"), all onto the one verifier
 * (contract-verifier.ts, the explorer's): the JSON doors of the SDK, the api-client and hardhat-tenderly (public,
 * project and vnet), the ABI-only doors, `vnet-type`, and the Etherscan-compatible verifier of a vnet. A vnet is named
 * by its id or its Admin RPC secret (the last segment of the RPC URL hardhat-tenderly reads); a network is served by
 * the requester's vnets of that chain id, newest first (a vnet is an environment of one network).
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import { Type, type Static } from "@sinclair/typebox";
import { ProjectParams } from "../../../api";
import { authenticateKey } from "../../auth";
import { accountAccess, canSeeProject } from "../../auth/access";
import { MAX_VERIFICATION_BODY_BYTES, type ContractVerifier, type VerificationOutcome } from "../../contract-verifier";
import { forbidden, notFound, ServiceError, unauthorized } from "../../errors";
import type { ProjectRow, Store, VnetRecord } from "../../store";
import { Registry } from "../../store/registry";
import { baseUrlOf, projectOf, requesterOf } from "../common";
import { HOSTED_LEGACY_RPC_HOST } from "../../../domain/hosted-names";
import { accountSlugOf } from "./account";
import { environmentsOf } from "./vnet-view";
import { addressOf, networkIdOf } from "./hosted-shapes";
import { abiDoors } from "./verification-abi";

const V1 = "/v1/account/:accountSlug/project/:projectSlug";

const Source = Type.Object({
  code: Type.Optional(Type.String()),
  content: Type.Optional(Type.String()),
  name: Type.Optional(Type.String()),
});
const Contract = Type.Object({
  contractToVerify: Type.String({ maxLength: 512 }),
  sources: Type.Record(Type.String(), Source),
  compiler: Type.Object({ version: Type.String({ maxLength: 100 }), settings: Type.Optional(Type.Record(Type.String(), Type.Unknown())) }),
  networks: Type.Optional(Type.Record(Type.String(), Type.Object({ address: Type.String({ maxLength: 42 }) }))),
});
const VerifyBody = Type.Object({ contracts: Type.Array(Contract, { maxItems: 50 }) });
type Contract = Static<typeof Contract>;
const OldVerifyBody = Type.Object({
  config: Type.Optional(
    Type.Object({
      compiler_version: Type.Optional(Type.String({ maxLength: 100 })),
      optimizations_used: Type.Optional(Type.Boolean()),
      optimizations_count: Type.Optional(Type.Integer({ minimum: 0, maximum: 4_294_967_295 })),
      evm_version: Type.Optional(Type.String({ maxLength: 40 })),
    }),
  ),
  contracts: Type.Array(
    Type.Object({
      contractName: Type.String({ maxLength: 255 }),
      source: Type.String(),
      sourcePath: Type.String({ maxLength: 512 }),
      compiler: Type.Optional(Type.Object({ version: Type.String({ maxLength: 100 }) })),
      networks: Type.Optional(Type.Record(Type.String(), Type.Object({ address: Type.String({ maxLength: 42 }) }))),
    }),
    { maxItems: 50 },
  ),
});
const KeyParams = Type.Composite([ProjectParams, Type.Object({ key: Type.String({ maxLength: 200 }) })]);

/** The verifier, or 503 when the service was built without the web part that holds it. */
export function verifierOf(request: FastifyRequest): ContractVerifier {
  const verifier = request.server.service.verifier;
  if (!verifier) throw new ServiceError(503, "contract verification is not available: this service runs without its web part");
  return verifier;
}

/** Every project the requester may see: their own, those shared with them, and their organizations' they may see. */
export function visibleProjects(store: Store, request: FastifyRequest): ProjectRow[] {
  const requester = requesterOf(request);
  const user = requester.user;
  const projects = [...store.projects.ofOwner(user.id), ...store.projects.sharedWith(user.id, user.id)];
  for (const orgId of store.accounts.organizationsOf(user.id)) {
    const org = store.accounts.byId(orgId);
    if (!org || !store.accounts.membership(orgId, user.id)?.accepted) continue;
    const access = accountAccess(store, requester, org.slug);
    projects.push(...store.projects.ofOwner(orgId).filter((project) => canSeeProject(store, access, project, user.id)));
  }
  return projects;
}

/** The vnet a key names (its id or Admin RPC secret), among the projects given; undefined otherwise. */
export function vnetByKey(store: Store, projects: readonly ProjectRow[], key: string): VnetRecord | undefined {
  const vnet = store.environments.vnetBySecret(key) ?? store.environments.vnet(key.toLowerCase());
  return vnet && projects.some((project) => project.id === vnet.project_id) ? vnet : undefined;
}

/** The vnets of these projects on a chain id, newest first. */
function vnetsOnNetwork(store: Store, projects: readonly ProjectRow[], networkId: string): VnetRecord[] {
  return projects.flatMap((project) =>
    environmentsOf(store, project.id).flatMap((record) => record.vnets.filter((vnet) => vnet.chain_id === networkId)),
  );
}

/** The verification routes. */
export default async function hostedVerificationRoutes(app: FastifyInstance): Promise<void> {
  const { store } = app.service;
  const registry = new Registry(store.db);
  const routes = app.withTypeProvider<TypeBoxTypeProvider>();
  app.addContentTypeParser(
    "application/x-www-form-urlencoded",
    { parseAs: "string", bodyLimit: MAX_VERIFICATION_BODY_BYTES },
    (_r, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );
  const options = { bodyLimit: MAX_VERIFICATION_BODY_BYTES };

  routes.post("/v1/public/contracts/verify", { ...options, schema: { body: VerifyBody } }, async (request) => {
    const projects = visibleProjects(store, request);
    return verifyAll(request, request.body.contracts, (networkId) => vnetsOnNetwork(store, projects, networkId));
  });

  routes.post(
    "/v1/accounts/:accountSlug/projects/:projectSlug/contracts/verify",
    { ...options, schema: { params: ProjectParams, body: VerifyBody } },
    async (request) => {
      const project = projectOf(request);
      const answer = await verifyAll(request, request.body.contracts, (networkId) => vnetsOnNetwork(store, [project], networkId));
      return answer;
    },
  );

  for (const door of [`${V1}/fork/:key/contracts/verify`, `${V1}/devnet/endpoint/:key/contracts/verify`]) {
    routes.post(door, { ...options, schema: { params: KeyParams, body: VerifyBody } }, async (request) => {
      const project = projectOf(request);
      const vnet = vnetByKey(store, [project], request.params.key);
      if (!vnet) throw notFound("rid:vnet", "no Virtual TestNet of this project has that id or RPC key");
      const answer = await verifyAll(request, request.body.contracts, () => [vnet], true);
      return { ...answer, display_link: `${baseUrlOf(request)}/explorer/${vnet.id}` };
    });
  }

  // The older single-compiler requests (api-client `verifyContracts`, `pushContracts`), converted once here.
  const verifyOld = async (request: FastifyRequest, body: Static<typeof OldVerifyBody>, vnetsFor: (networkId: string) => VnetRecord[]) =>
    oldAnswer(await verifyAll(request, contractsOfOld(body), vnetsFor));
  routes.post("/v1/public/verify-contracts", { ...options, schema: { body: OldVerifyBody } }, async (request) => {
    const projects = visibleProjects(store, request);
    return verifyOld(request, request.body, (networkId) => vnetsOnNetwork(store, projects, networkId));
  });
  routes.post(`${V1}/contracts`, { ...options, schema: { params: ProjectParams, body: OldVerifyBody } }, async (request) => {
    const project = projectOf(request);
    return verifyOld(request, request.body, (networkId) => vnetsOnNetwork(store, [project], networkId));
  });

  routes.get("/v1/vnet-type/:key", { schema: { params: Type.Object({ key: Type.String({ maxLength: 200 }) }) } }, async (request) => {
    if (!vnetByKey(store, visibleProjects(store, request), request.params.key)) {
      throw notFound("rid:vnet", "no Virtual TestNet you may see has that id or RPC key");
    }
    return { vnetType: "testnet" };
  });

  // The Etherscan-compatible verifier of a vnet (hardhat-verify, forge): the explorer's API, by the vnet's key.
  for (const method of ["GET", "POST"] as const) {
    for (const kind of ["testnet", "fork", "devnet"]) {
      routes.route({
        method,
        url: `${V1}/etherscan/verify/${kind}/:key`,
        ...options,
        // Etherscan's clients send the key as `apikey`, read in the handler once the form is parsed.
        config: { public: true },
        schema: { params: KeyParams },
        handler: async (request, reply) => {
          requesterByApiKey(store, request);
          const project = projectOf(request);
          const vnet = vnetByKey(store, [project], request.params.key);
          if (!vnet) throw notFound("rid:vnet", "no Virtual TestNet of this project has that id or RPC key");
          const answer = await verifierOf(request).etherscan(vnet.id, parametersOf(request));
          return reply.code(answer.httpStatus).header("cache-control", "no-store").send(answer.body);
        },
      });
    }
  }

  abiDoors(app, registry);
}

/**
 * Sets the requester of an Etherscan-compatible request from its `apikey` parameter (query or form), the way
 * hardhat-verify and forge send the key, when no header brought credentials; the header's, when it did.
 */
function requesterByApiKey(store: Store, request: FastifyRequest): void {
  const authentication = request.authentication;
  if (authentication.kind === "invalid") throw unauthorized(authentication.reason);
  if (!request.requester) {
    const apiKey = parametersOf(request).apikey;
    if (!apiKey) throw unauthorized("missing credentials: send X-Access-Key, Basic, Bearer or the access key as apikey");
    const byKey = authenticateKey(store.accounts, apiKey);
    if (byKey.kind !== "authenticated") throw unauthorized(byKey.reason);
    request.requester = byKey.requester;
    const params = request.params as Static<typeof KeyParams>;
    params.accountSlug = accountSlugOf(store, request.requester, params.accountSlug, params.projectSlug);
  }
  if (request.requester.readOnly && request.method !== "GET") throw forbidden("this access key is read-only");
}

/** Verifies each contract on each network it names, on the vnets `vnetsFor` gives; the clients' answer shape. */
async function verifyAll(
  request: FastifyRequest,
  contracts: readonly Contract[],
  vnetsFor: (networkId: string) => VnetRecord[],
  onVnet = false,
) {
  const verifier = verifierOf(request);
  const outcomes: { networkId: string; address: string; outcome: VerificationOutcome }[] = [];
  for (const [index, contract] of contracts.entries()) {
    for (const [network, { address: raw }] of Object.entries(contract.networks ?? {})) {
      // A vnet door's path names the vnet: hardhat-tenderly keys `networks` by the vnet's RPC key there
      // (a secret): the answer names the vnet's chain id instead.
      const networkId = onVnet ? (vnetsFor(network)[0]?.chain_id ?? "") : networkIdOf(network, `/contracts/${index}/networks`);
      const address = addressOf(raw, `/contracts/${index}/networks/${network}/address`);
      let outcome: VerificationOutcome = { kind: "mismatch", message: `no vnet of network ${networkId} here holds code at ${address}` };
      for (const vnet of vnetsFor(networkId)) {
        outcome = await verifier.verify(vnet.id, address, submissionOf(contract));
        if (outcome.kind !== "mismatch" || !outcome.message.startsWith("there is no contract code")) break;
      }
      outcomes.push({ networkId, address, outcome });
    }
  }
  return verificationAnswer(outcomes);
}

/** A multi-compiler answer in the older requests' shape: every problem as a bytecode mismatch, or null. */
function oldAnswer(answer: Awaited<ReturnType<typeof verifyAll>>) {
  const problems = [
    ...(answer.bytecode_mismatch_errors ?? []),
    ...(answer.compilation_errors ?? []).map((e) => ({ assumed_reason: e.message })),
  ];
  return { contracts: answer.contracts, bytecode_mismatch_errors: problems.length > 0 ? problems : null };
}

/**
 * The older forks' verifier on `rpc.tenderly.co` (api-client `verifyForkContracts`), registered at the root and only
 * for that Host header: the older single-compiler body, verified on the vnet its key names, as the fork door above.
 */
export async function legacyForkVerifier(app: FastifyInstance): Promise<void> {
  const { store } = app.service;
  const routes = app.withTypeProvider<TypeBoxTypeProvider>();
  const host = new RegExp(`^${HOSTED_LEGACY_RPC_HOST.replace(/\./g, "\\.")}\\.?(:\\d{1,5})?$`, "i");
  routes.post(
    "/account/:accountSlug/project/:projectSlug/fork/:key/verify",
    { bodyLimit: MAX_VERIFICATION_BODY_BYTES, constraints: { host }, schema: { params: KeyParams, body: OldVerifyBody } },
    async (request) => {
      const params = request.params;
      params.accountSlug = accountSlugOf(store, requesterOf(request), params.accountSlug, params.projectSlug);
      const project = projectOf(request);
      const vnet = vnetByKey(store, [project], params.key);
      if (!vnet) throw notFound("rid:vnet", "no Virtual TestNet of this project has that id or RPC key");
      const answer = await verifyAll(request, contractsOfOld(request.body), () => [vnet], true);
      return oldAnswer(answer);
    },
  );
}

/** The older requests as multi-compiler ones: every contract's file in one set of sources. */
function contractsOfOld(body: Static<typeof OldVerifyBody>): Contract[] {
  const sources = Object.fromEntries(body.contracts.map((contract) => [contract.sourcePath, { content: contract.source }]));
  const config = body.config ?? {};
  return body.contracts
    .filter((contract) => Object.keys(contract.networks ?? {}).length > 0)
    .map((contract) => ({
      contractToVerify: `${contract.sourcePath}:${contract.contractName}`,
      sources,
      compiler: {
        version: config.compiler_version ?? contract.compiler?.version ?? "",
        settings: {
          optimizer: { enabled: config.optimizations_used === true, runs: config.optimizations_count ?? 200 },
          ...(config.evm_version && config.evm_version !== "default" ? { evmVersion: config.evm_version } : {}),
        },
      },
      networks: contract.networks,
    }));
}

/**
 * `path:Name` for a contract name: hardhat-tenderly sends the bare name (`Counter`), which names the one source that
 * declares it; a name declared in no source, or in several, is left as sent (the verifier then says what it needs).
 */
function qualifiedName(name: string, sources: Record<string, { content: string }>): string {
  if (name.includes(":") || !/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name)) return name;
  const declares = new RegExp(`\\b(contract|library|interface)\\s+${name.replace(/\$/g, "\\$")}\\b`);
  const paths = Object.keys(sources).filter((path) => declares.test(sources[path].content));
  return paths.length === 1 ? `${paths[0]}:${name}` : name;
}

/** A hosted contract entry as a standard JSON input submission. */
function submissionOf(contract: Contract) {
  const sources = Object.fromEntries(
    Object.entries(contract.sources).map(([path, source]) => [path, { content: source.content ?? source.code ?? "" }]),
  );
  // Linked libraries are not verified here (the verifier refuses linked code); the rest shapes the bytecode.
  const settings = Object.fromEntries(Object.entries(contract.compiler.settings ?? {}).filter(([key]) => key !== "libraries"));
  return {
    standardJsonInput: JSON.stringify({ language: "Solidity", sources, settings }),
    contractName: qualifiedName(contract.contractToVerify, sources),
    compilerVersion: contract.compiler.version,
  };
}

/**
 * The answer the clients read: `results`, one entry per contract and network, each a `verified_contract` or a
 * `bytecode_mismatch_error` (the SDK reads `results[0]`, the api-client goes through them all); `compilation_errors`
 * null when nothing was refused; and the flat `contracts` and `bytecode_mismatch_errors` of the older answer.
 */
export function verificationAnswer(outcomes: readonly { networkId: string; address: string; outcome: VerificationOutcome }[]) {
  const results = outcomes.map(({ networkId, address, outcome }) =>
    outcome.kind === "verified"
      ? { verified_contract: { network_id: networkId, address, contract_name: outcome.contractName.split(":").pop()! } }
      : {
          bytecode_mismatch_error:
            outcome.kind === "mismatch"
              ? { contract_id: `eth:${networkId}:${address}`, expected: "", got: "", similarity: 0, assumed_reason: outcome.message }
              : null,
        },
  );
  const verified = results.flatMap((result) => ("verified_contract" in result ? [result.verified_contract] : []));
  const mismatches = results.flatMap((result) =>
    "bytecode_mismatch_error" in result && result.bytecode_mismatch_error ? [result.bytecode_mismatch_error] : [],
  );
  const refused = outcomes.flatMap(({ outcome }) =>
    outcome.kind === "refused"
      ? [{ message: outcome.message, formatted_message: outcome.message, error_type: "VerificationRefused", component: "compiler" }]
      : [],
  );
  return {
    compilation_errors: refused.length > 0 ? refused : null,
    results,
    contracts: verified,
    bytecode_mismatch_errors: mismatches.length > 0 ? mismatches : null,
  };
}

/** Query and form parameters together (form wins); only string values. */
function parametersOf(request: FastifyRequest): Record<string, string | undefined> {
  const merged: Record<string, string | undefined> = {};
  for (const source of [request.query, request.body]) {
    if (typeof source !== "object" || source === null) continue;
    for (const [key, value] of Object.entries(source)) if (typeof value === "string") merged[key] = value;
  }
  return merged;
}
