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

const ADDRESS = new RegExp(Address.pattern!);
/** Body limit of the API: a 4 MB standard JSON input, form-encoded (which can triple its size). */
const API_BODY_LIMIT = 3 * MAX_STANDARD_JSON_BYTES + 64 * 1024;
/** GUIDs of passed verifications kept for `checkverifystatus` (oldest dropped first). */
const MAX_REMEMBERED_GUIDS = 1000;
const NOT_VERIFIED = "Contract source code not verified";

type Parameters = Record<string, string | undefined>;

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
    if (params.module !== "contract") throw new ApiError(400, 'module must be "contract"');
    const answer = await answerAction(context, view, params, passed);
    return reply.code(200).send(answer);
  };
  const options = { config: { public: true }, bodyLimit: API_BODY_LIMIT };
  app.get("/:vnetId/api", options, handler);
  app.post("/:vnetId/api", options, handler);

  app.setErrorHandler((error, request, reply) => {
    if (error instanceof ApiError) return sendNotOk(reply, error.httpStatus, error.message);
    if (error instanceof VerificationRefused) return sendNotOk(reply, 400, `Fail - Unable to verify. ${error.message}`);
    if (error instanceof CompilerBusy) return sendNotOk(reply.header("retry-after", "60"), 503, error.message);
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
    const chainStatus = (error as { status?: number }).status;
    if (chainStatus && chainStatus >= 400) return sendNotOk(reply, chainStatus, String(fastifyError.message));
    request.log.error({ err: error }, "verification API failed");
    return sendNotOk(reply, 500, "internal error: the service log has the details");
  });
}

async function answerAction(context: WebContext, view: VnetView, params: Parameters, passed: Map<string, string>): Promise<ApiAnswer> {
  switch (params.action) {
    case "verifysourcecode":
      return submit(context, view, params, passed);
    case "checkverifystatus": {
      const guid = required(params, "guid");
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
  const result = await verifySubmission(context.compiler, { standardJsonInput, contractName, compilerVersion }, code);
  context.verified.save({
    vnetId: view.vnet.id,
    address,
    contractName,
    compilerVersion: result.compilerVersion,
    abi: result.abi,
    standardJsonInput,
    optimizationUsed: result.optimizationUsed,
    runs: result.runs,
    evmVersion: result.evmVersion,
    constructorArguments: (params.constructorArguements ?? params.constructorArguments ?? "").replace(/^0x/, ""),
    licenseType: params.licenseType ?? "",
    verifiedAt: new Date().toISOString(),
  });
  const guid = randomUUID();
  passed.set(guid, "Pass - Verified");
  if (passed.size > MAX_REMEMBERED_GUIDS) passed.delete(passed.keys().next().value!);
  return ok(guid);
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
