/**
 * Verifying a submission: compile its standard JSON input with the solc of the version it names (./compilers.ts) and compare the named contract's
 * runtime code with the code deployed at the address (`sameRuntimeCode`). Every refusal is a `VerificationRefused`
 * with a message that says what to fix.
 */
import type { Abi } from "../../service/web-interface";
import { sameRuntimeCode, type ImmutableReferences } from "./compare";
import { CompilerUnavailable, CompileTimedOut } from "./compiler";
import { CompilerMissing, type Compilers } from "./compilers";

/** Largest standard JSON input accepted: 4 MB (also the verification API's body limit, with room for the rest). */
export const MAX_STANDARD_JSON_BYTES = 4 * 1024 * 1024;
/** Deepest nesting of `settings` or of a source entry (solc's own inputs stay below 8). */
export const MAX_JSON_DEPTH = 32;
/** Longest `compilerversion` and `contractname` read. */
const MAX_NAME_LENGTH = 512;
/**
 * The `settings` an anonymous submission may pass: those that shape the bytecode. The rest (`modelChecker`,
 * `stopAfter`, ...) only cost compile time, which an anonymous caller must not spend at will.
 */
export const ALLOWED_SETTINGS: readonly string[] = [
  "remappings",
  "optimizer",
  "evmVersion",
  "eofVersion",
  "viaIR",
  "debug",
  "metadata",
  "libraries",
  "outputSelection",
];
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;

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
  /** The compiler's exact version (as `compilerVersion()` names it). */
  readonly compilerVersion: string;
}

interface StandardJsonInput {
  language?: unknown;
  sources?: Record<string, unknown>;
  settings?: Record<string, unknown> & { optimizer?: { enabled?: boolean; runs?: number }; evmVersion?: string };
}

interface CompilerOutput {
  errors?: { severity: string; formattedMessage?: string; message?: string }[];
  contracts?: Record<
    string,
    Record<string, { abi: Abi; evm: { deployedBytecode: { object: string; immutableReferences?: ImmutableReferences } } }>
  >;
}

/** Checks a submission against deployed code; throws `VerificationRefused` when it does not reproduce it. */
export async function verifySubmission(compilers: Compilers, submission: Submission, deployedCode: string): Promise<VerificationResult> {
  const input = parseStandardJson(submission.standardJsonInput);
  const { path, name } = splitContractName(submission.contractName, input);
  if (submission.compilerVersion.length > MAX_NAME_LENGTH) {
    throw new VerificationRefused(`compilerversion is longer than ${MAX_NAME_LENGTH} characters`);
  }
  let compiler;
  try {
    compiler = compilers.forVersion(submission.compilerVersion);
  } catch (error) {
    throw error instanceof CompilerMissing ? new VerificationRefused(error.message) : error;
  }
  const available = await compiler.compilerVersion().catch((error: unknown) => {
    throw new VerificationRefused(error instanceof CompilerUnavailable ? error.message : String(error));
  });
  checkCompilerVersion(submission.compilerVersion, available);
  if (deployedCode === "0x" || deployedCode === "") throw new VerificationRefused("there is no contract code at this address");
  const settings = {
    ...input.settings,
    outputSelection: { [path]: { [name]: ["abi", "evm.deployedBytecode.object", "evm.deployedBytecode.immutableReferences"] } },
  };
  const output = JSON.parse(
    await compiler.compile(JSON.stringify({ ...input, settings })).catch((error: unknown) => {
      throw error instanceof CompileTimedOut
        ? new VerificationRefused(`${error.message}: submit without costly settings, or a smaller source`)
        : error;
    }),
  ) as CompilerOutput;
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
    compilerVersion: available,
  };
}

/** The exact version the compiler has, `v`-prefixed or not; nothing added, nothing left out (the commit too). */
function checkCompilerVersion(version: string, available: string): void {
  if (version !== available && `v${version}` !== available) {
    throw new VerificationRefused(
      `that compiler version is not available offline: the compiler installed for this release is ${available}; ` +
        `build the contract with it and submit compilerversion=${available}`,
    );
  }
}

/** Parses and checks the shape of a standard JSON input. */
function parseStandardJson(text: string): StandardJsonInput {
  if (Buffer.byteLength(text) > MAX_STANDARD_JSON_BYTES) {
    throw new VerificationRefused(`sourceCode is larger than ${MAX_STANDARD_JSON_BYTES} bytes`);
  }
  let input: unknown;
  try {
    input = JSON.parse(text);
  } catch {
    // The parser's message quotes the input: say what is wrong without it.
    throw new VerificationRefused(
      "sourceCode is not a standard JSON input (codeformat=solidity-standard-json-input): it is not valid JSON",
    );
  }
  const candidate = input as StandardJsonInput;
  if (typeof input !== "object" || input === null || Array.isArray(input))
    throw new VerificationRefused("sourceCode must be a JSON object");
  if (candidate.language !== "Solidity") throw new VerificationRefused('sourceCode.language must be "Solidity"');
  if (typeof candidate.sources !== "object" || candidate.sources === null || Object.keys(candidate.sources).length === 0) {
    throw new VerificationRefused("sourceCode.sources must name at least one source file");
  }
  if (
    candidate.settings !== undefined &&
    (typeof candidate.settings !== "object" || candidate.settings === null || Array.isArray(candidate.settings))
  ) {
    throw new VerificationRefused("sourceCode.settings must be an object");
  }
  if (candidate.settings !== undefined && depthOf(candidate.settings) > MAX_JSON_DEPTH) {
    throw new VerificationRefused(`sourceCode.settings is nested deeper than ${MAX_JSON_DEPTH} levels`);
  }
  for (const key of Object.keys(candidate.settings ?? {})) {
    if (!ALLOWED_SETTINGS.includes(key)) {
      throw new VerificationRefused(
        `sourceCode.settings may hold only ${ALLOWED_SETTINGS.join(", ")}: leave out the others (they do not change the bytecode)`,
      );
    }
  }
  for (const [key, entry] of Object.entries(candidate.sources)) {
    if (CONTROL_CHARACTER.test(key))
      throw new VerificationRefused("sourceCode.sources: a source name holds a control character (NUL included)");
    if (depthOf(entry) > MAX_JSON_DEPTH)
      throw new VerificationRefused(`sourceCode.sources: a source entry is nested deeper than ${MAX_JSON_DEPTH} levels`);
  }
  return candidate;
}

function splitContractName(contractName: string, input: StandardJsonInput): { path: string; name: string } {
  const colon = contractName.lastIndexOf(":");
  const path = contractName.slice(0, colon);
  const name = contractName.slice(colon + 1);
  if (contractName.length > MAX_NAME_LENGTH || CONTROL_CHARACTER.test(contractName)) {
    throw new VerificationRefused(
      `contractname must be path:Name, at most ${MAX_NAME_LENGTH} characters without control characters (NUL included)`,
    );
  }
  if (colon <= 0 || !/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name)) {
    throw new VerificationRefused("contractname must be path:Name (e.g. src/Counter.sol:Counter)");
  }
  if (!(path in input.sources!))
    throw new VerificationRefused("the path in contractname (before the colon) is not among the submitted sources");
  return { path, name };
}

/** How deep a parsed JSON value nests (a scalar is 0), without recursion: the input may nest deeper than the stack. */
function depthOf(value: unknown): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (typeof item !== "object" || item === null) continue;
    deepest = Math.max(deepest, depth + 1);
    if (deepest > MAX_JSON_DEPTH) return deepest;
    for (const child of Object.values(item)) stack.push([child, depth + 1]);
  }
  return deepest;
}
