/**
 * The Etherscan-compatible contract API of an explorer, `{base}/explorer/{vnetId}/api` (GET or POST, query or
 * form): `verifysourcecode` (standard JSON input), `checkverifystatus`, `getabi` and `getsourcecode`, answering
 * `{ status, message, result }` as Etherscan does, so that `forge verify-contract --verifier etherscan
 * --verifier-url ...` and hardhat-verify work unchanged. A submission is verified at once (the compile runs in a
 * worker): when it does not reproduce the deployed code the submit itself answers 400 with the reason.
 * `getabi` and `getsourcecode` reveal what `verification_visibility` allows. Malformed input is a 4xx, never a 5xx,
 * and an answer never quotes the parameters it refuses (it names them and says what they must be). Every answer is
 * JSON with `X-Content-Type-Options: nosniff`.
 */
import { randomUUID } from "node:crypto";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { Address, reveals } from "../../api";
import { ChainReader } from "../chain-reader";
import { vnetView, type VnetView, type WebContext } from "../context";
import { CompilerBusy } from "./compiler";
import { MAX_STANDARD_JSON_BYTES, verifySubmission, VerificationRefused } from "./verifier";
import type { VerifiedContract } from "./verified-contracts";
import type { EtherscanAnswer, SourceSubmission } from "../../service/web-interface";

const ADDRESS = new RegExp(Address.pattern!);
/** Body limit of the API: a 4 MB standard JSON input, form-encoded (which can triple its size). */
const API_BODY_LIMIT = 3 * MAX_STANDARD_JSON_BYTES + 64 * 1024;
/** GUIDs of passed verifications kept for `checkverifystatus` (oldest dropped first). */
const MAX_REMEMBERED_GUIDS = 1000;
const NOT_VERIFIED = "Contract source code not verified";

/** The API's parameters: query and form together. */
export type Parameters = Record<string, string | undefined>;

/** An Etherscan-style answer. */
interface ApiAnswer {
  readonly status: "0" | "1";
  readonly message: string;
  readonly result: unknown;
}

class ApiError extends Error {
  constructor(
    readonly httpStatus: number,
    message: string,
  ) {
    super(message);
  }
}

/** Registers the API in its own scope (form bodies, JSON errors). Call with the `/explorer` prefix. */
export async function registerVerificationApi(app: FastifyInstance, context: WebContext): Promise<void> {
  const passed = new Map<string, string>();
  app.addContentTypeParser("application/x-www-form-urlencoded", { parseAs: "string" }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });
  app.addContentTypeParser("multipart/form-data", (_request, _payload, done) => {
    done(new ApiError(415, "send the form as application/x-www-form-urlencoded (multipart is not supported)"), undefined);
  });

  app.addHook("onSend", async (_request, reply) => {
    reply.header("x-content-type-options", "nosniff");
  });

  const handler = async (request: FastifyRequest<{ Params: { vnetId: string } }>, reply: FastifyReply) => {
    const params = parametersOf(request);
    const view = vnetView(context.service.views, request.params.vnetId);
    if (!view?.explorerEnabled)
      throw new ApiError(404, "no explorer here: the Virtual Environment does not exist or its explorer is not enabled");
    const answer = await contractAction(context, view, params, passed);
    return reply.code(200).send(answer);
  };
  const options = { config: { public: true }, bodyLimit: API_BODY_LIMIT };
  app.get("/:vnetId/api", options, handler);
  app.post("/:vnetId/api", options, handler);

  app.setErrorHandler((error, request, reply) => {
    const fastifyError = error as { code?: string; statusCode?: number; message?: string };
    if (fastifyError.code === "FST_ERR_CTP_BODY_TOO_LARGE")
      return sendNotOk(
        reply,
        413,
        `request body larger than ${API_BODY_LIMIT} bytes: the standard JSON input may be at most ${MAX_STANDARD_JSON_BYTES} bytes`,
      );
    if (fastifyError.statusCode && fastifyError.statusCode >= 400 && fastifyError.statusCode < 500) {
      return sendNotOk(reply, fastifyError.statusCode, String(fastifyError.message));
    }
    const answer = errorAnswer(error, (err) => request.log.error({ err }, "verification API failed"));
    if (answer.httpStatus === 503) reply.header("retry-after", "60");
    return reply.code(answer.httpStatus).header("cache-control", "no-store").send(answer.body);
  });
}

/**
 * One call of the Etherscan-compatible contract API on a vnet (module `contract`), its errors answered as the API
 * answers them: the explorer's own route and the service's other Etherscan doors (./service-verifier.ts) share it.
 */
export async function etherscanAnswer(
  context: WebContext,
  view: VnetView,
  params: Parameters,
  passed: Map<string, string>,
  logError: (error: unknown) => void,
): Promise<EtherscanAnswer> {
  try {
    return { httpStatus: 200, body: await contractAction(context, view, params, passed) };
  } catch (error) {
    return errorAnswer(error, logError);
  }
}

/** The Etherscan-style answer of an error. */
function errorAnswer(error: unknown, logError: (error: unknown) => void): EtherscanAnswer {
  const notOkWith = (httpStatus: number, result: string) => ({ httpStatus, body: notOk(result) });
  if (error instanceof ApiError) return notOkWith(error.httpStatus, error.message);
  if (error instanceof VerificationRefused) return notOkWith(400, `Fail - Unable to verify. ${error.message}`);
  if (error instanceof CompilerBusy) return notOkWith(503, error.message);
  const chainStatus = (error as { status?: number }).status;
  if (chainStatus && chainStatus >= 400) return notOkWith(chainStatus, String((error as Error).message));
  logError(error);
  return notOkWith(500, "internal error: the service log has the details");
}

async function contractAction(context: WebContext, view: VnetView, params: Parameters, passed: Map<string, string>): Promise<ApiAnswer> {
  if (params.module !== "contract") throw new ApiError(400, 'module must be "contract"');
  return answerAction(context, view, params, passed);
}

async function answerAction(context: WebContext, view: VnetView, params: Parameters, passed: Map<string, string>): Promise<ApiAnswer> {
  switch (params.action) {
    case "verifysourcecode":
      return submit(context, view, params, passed);
    case "checkverifystatus": {
      const guid = required(params, "guid");
      // The hosted RPC verifier's clients ask by the contract's address (hardhat-integration's `<rpc>/verify`).
      if (ADDRESS.test(guid) && context.verified.get(view.vnet.id, guid)) return ok("Pass - Verified");
      const result = passed.get(guid);
      if (!result) throw new ApiError(400, "Unknown GUID: submit with action=verifysourcecode first");
      return ok(result);
    }
    case "getabi": {
      const verified = context.verified.get(view.vnet.id, addressParam(params));
      if (!verified) return notOk(NOT_VERIFIED);
      // Etherscan clients (forge) recognise the "not verified" prefix; the rest says why.
      if (!reveals(view.visibility, "abi"))
        return notOk(`${NOT_VERIFIED} publicly: the ABI is not public here (verification_visibility is ${view.visibility})`);
      return ok(JSON.stringify(verified.abi));
    }
    case "getsourcecode": {
      const verified = context.verified.get(view.vnet.id, addressParam(params));
      const abi = verified && reveals(view.visibility, "abi");
      const source = verified && reveals(view.visibility, "source");
      return ok([
        {
          SourceCode: source ? `{${verified.standardJsonInput}}` : "",
          ABI: abi ? JSON.stringify(verified.abi) : NOT_VERIFIED,
          ContractName: abi ? verified.contractName.slice(verified.contractName.lastIndexOf(":") + 1) : "",
          CompilerVersion: verified ? verified.compilerVersion : "",
          OptimizationUsed: verified?.optimizationUsed ? "1" : "0",
          Runs: String(verified?.runs ?? ""),
          ConstructorArguments: source ? verified.constructorArguments : "",
          EVMVersion: verified?.evmVersion ?? "",
          Library: "",
          LicenseType: verified?.licenseType ?? "",
          Proxy: "0",
          Implementation: "",
          SwarmSource: "",
        },
      ]);
    }
    default:
      throw new ApiError(400, "action must be one of verifysourcecode, checkverifystatus, getabi, getsourcecode");
  }
}

async function submit(context: WebContext, view: VnetView, params: Parameters, passed: Map<string, string>): Promise<ApiAnswer> {
  const address = addressParam(params, "contractaddress");
  const codeFormat = params.codeformat ?? "solidity-standard-json-input";
  if (codeFormat !== "solidity-standard-json-input") {
    throw new ApiError(400, "codeformat must be solidity-standard-json-input (single-file submissions are not supported)");
  }
  const standardJsonInput = required(params, "sourceCode");
  const contractName = required(params, "contractname");
  const compilerVersion = required(params, "compilerversion");
  if (context.verified.get(view.vnet.id, address)) return notOk("Contract source code already verified");
  const code = await new ChainReader(context.service.chains, view.vnet.id).code(address);
  if (code === "0x") throw new ApiError(400, `Unable to locate ContractCode at ${address}`);
  await verifyAndKeep(
    context,
    view.vnet.id,
    address,
    code,
    { standardJsonInput, contractName, compilerVersion, constructorArguments: params.constructorArguements ?? params.constructorArguments },
    params.licenseType ?? "",
  );
  const guid = randomUUID();
  passed.set(guid, "Pass - Verified");
  if (passed.size > MAX_REMEMBERED_GUIDS) passed.delete(passed.keys().next().value!);
  return ok(guid);
}

/**
 * Verifies a submission against the code deployed at `address` and keeps the contract verified; throws
 * `VerificationRefused` when it does not reproduce that code. Every door verifies through here.
 */
export async function verifyAndKeep(
  context: WebContext,
  vnetId: string,
  address: string,
  deployedCode: string,
  submission: SourceSubmission,
  licenseType = "",
): Promise<VerifiedContract> {
  const result = await verifySubmission(context.compiler, submission, deployedCode);
  const contract: VerifiedContract = {
    vnetId,
    address: address.toLowerCase(),
    contractName: submission.contractName,
    compilerVersion: result.compilerVersion,
    abi: result.abi,
    standardJsonInput: submission.standardJsonInput,
    optimizationUsed: result.optimizationUsed,
    runs: result.runs,
    evmVersion: result.evmVersion,
    constructorArguments: (submission.constructorArguments ?? "").replace(/^0x/, ""),
    licenseType,
    verifiedAt: new Date().toISOString(),
  };
  context.verified.save(contract);
  return contract;
}

/** Query and form parameters together (form wins); only string values. */
function parametersOf(request: FastifyRequest): Parameters {
  const merged: Parameters = {};
  for (const source of [request.query, request.body]) {
    if (typeof source !== "object" || source === null) continue;
    for (const [key, value] of Object.entries(source)) {
      if (typeof value === "string") merged[key] = value;
      else if (Array.isArray(value) && typeof value[0] === "string") merged[key] = value[0];
    }
  }
  return merged;
}

function required(params: Parameters, name: string): string {
  const value = params[name];
  if (value === undefined || value === "") throw new ApiError(400, `missing parameter ${name}`);
  return value;
}

function addressParam(params: Parameters, name = "address"): string {
  const value = required(params, name);
  if (!ADDRESS.test(value)) throw new ApiError(400, `${name} must be 0x followed by 40 hex digits`);
  return value.toLowerCase();
}

function ok(result: unknown): ApiAnswer {
  return { status: "1", message: "OK", result };
}

function notOk(result: string): ApiAnswer {
  return { status: "0", message: "NOTOK", result };
}

function sendNotOk(reply: FastifyReply, status: number, result: string): FastifyReply {
  return reply.code(status).header("cache-control", "no-store").send(notOk(result));
}
