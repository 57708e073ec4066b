/**
 * Verifying a submission: compile its standard JSON input with the shipped solc and compare the named contract's
 * runtime code with the code deployed at the address (`sameRuntimeCode`). Every refusal is a `VerificationRefused`
 * with a message that says what to fix.
 */
import type { Abi } from "../../service/chains/viem";
import { sameRuntimeCode, type ImmutableReferences } from "./compare";
import { CompilerUnavailable, type SolcWorker } from "./compiler";

/** Largest standard JSON input accepted: 4 MB (also the verification API's body limit, with room for the rest). */
export const MAX_STANDARD_JSON_BYTES = 4 * 1024 * 1024;

/** What a submission names (Etherscan's `verifysourcecode` fields). */
export interface Submission {
  readonly standardJsonInput: string;
  /** `path/File.sol:Name`. */
  readonly contractName: string;
  /** E.g. `v0.8.37+commit.f401782d`. */
  readonly compilerVersion: string;
}

/** A refusal, with the reason shown to the submitter. */
export class VerificationRefused extends Error {}

/** What a successful verification learned. */
export interface VerificationResult {
  readonly abi: Abi;
  readonly optimizationUsed: boolean;
  readonly runs: number;
  readonly evmVersion: string;
}

interface StandardJsonInput {
  language?: unknown;
  sources?: Record<string, unknown>;
  settings?: Record<string, unknown> & { optimizer?: { enabled?: boolean; runs?: number }; evmVersion?: string };
}

interface CompilerOutput {
  errors?: { severity: string; formattedMessage?: string; message?: string }[];
  contracts?: Record<string, Record<string, { abi: Abi; evm: { deployedBytecode: { object: string; immutableReferences?: ImmutableReferences } } }>>;
}

/** Checks a submission against deployed code; throws `VerificationRefused` when it does not reproduce it. */
export async function verifySubmission(compiler: SolcWorker, submission: Submission, deployedCode: string): Promise<VerificationResult> {
  const input = parseStandardJson(submission.standardJsonInput);
  const { path, name } = splitContractName(submission.contractName, input);
  const available = await compiler.compilerVersion().catch((error: unknown) => {
    throw new VerificationRefused(error instanceof CompilerUnavailable ? error.message : String(error));
  });
  if (normalizeVersion(submission.compilerVersion) !== normalizeVersion(available)) {
    throw new VerificationRefused(
      `compiler ${submission.compilerVersion || "(none given)"} is not available offline: this service verifies with ${available} only ` +
        `(the solc chainform ships); build the contract with that version and submit again`,
    );
  }
  if (deployedCode === "0x" || deployedCode === "") throw new VerificationRefused("there is no contract code at this address");
  const settings = {
    ...input.settings,
    outputSelection: { [path]: { [name]: ["abi", "evm.deployedBytecode.object", "evm.deployedBytecode.immutableReferences"] } },
  };
  const output = JSON.parse(await compiler.compile(JSON.stringify({ ...input, settings }))) as CompilerOutput;
  const failure = output.errors?.find((e) => e.severity === "error");
  if (failure) throw new VerificationRefused(`the source does not compile: ${(failure.formattedMessage ?? failure.message ?? "").trim()}`);
  const contract = output.contracts?.[path]?.[name];
  if (!contract) throw new VerificationRefused(`the compiler produced no contract ${submission.contractName}`);
  const compiled = contract.evm.deployedBytecode.object;
  if (/__\$[0-9a-fA-F]{34}\$__/.test(compiled)) throw new VerificationRefused("contracts linked to libraries are not supported");
  if (!sameRuntimeCode(compiled, deployedCode, contract.evm.deployedBytecode.immutableReferences)) {
    throw new VerificationRefused(
      `the compiled runtime code of ${submission.contractName} differs from the code deployed at this address ` +
        `(check the source, the optimizer settings and the EVM version)`,
    );
  }
  return {
    abi: contract.abi,
    optimizationUsed: input.settings?.optimizer?.enabled === true,
    runs: input.settings?.optimizer?.runs ?? 200,
    evmVersion: input.settings?.evmVersion ?? "default",
  };
}

/** Parses and checks the shape of a standard JSON input. */
function parseStandardJson(text: string): StandardJsonInput {
  if (Buffer.byteLength(text) > MAX_STANDARD_JSON_BYTES) {
    throw new VerificationRefused(`sourceCode is larger than ${MAX_STANDARD_JSON_BYTES} bytes`);
  }
  let input: unknown;
  try {
    input = JSON.parse(text);
  } catch (error) {
    throw new VerificationRefused(`sourceCode is not a standard JSON input (codeformat=solidity-standard-json-input): ${(error as Error).message}`);
  }
  const candidate = input as StandardJsonInput;
  if (typeof input !== "object" || input === null || Array.isArray(input)) throw new VerificationRefused("sourceCode must be a JSON object");
  if (candidate.language !== "Solidity") throw new VerificationRefused('sourceCode.language must be "Solidity"');
  if (typeof candidate.sources !== "object" || candidate.sources === null || Object.keys(candidate.sources).length === 0) {
    throw new VerificationRefused("sourceCode.sources must name at least one source file");
  }
  if (candidate.settings !== undefined && (typeof candidate.settings !== "object" || candidate.settings === null)) {
    throw new VerificationRefused("sourceCode.settings must be an object");
  }
  return candidate;
}

function splitContractName(contractName: string, input: StandardJsonInput): { path: string; name: string } {
  const colon = contractName.lastIndexOf(":");
  const path = contractName.slice(0, colon);
  const name = contractName.slice(colon + 1);
  if (colon <= 0 || !/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name)) {
    throw new VerificationRefused(`contractname must be path:Name (e.g. src/Counter.sol:Counter), got "${contractName}"`);
  }
  if (!(path in input.sources!)) throw new VerificationRefused(`contractname names ${path}, which is not among the submitted sources`);
  return { path, name };
}

/** `v0.8.37+commit.f401782d` and `0.8.37+commit.f401782d.Linux.g++` compare equal. */
function normalizeVersion(version: string): string {
  const match = /^v?(\d+\.\d+\.\d+)(?:\+commit\.([0-9a-f]{8}))?/.exec(version.trim());
  return match ? `${match[1]}+${match[2] ?? ""}` : version;
}
