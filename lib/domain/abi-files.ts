/**
 * The ABI files a user may add for a contract (`chainform abi add`, `POST .../abis`): a plain ABI (a JSON array), a
 * Foundry artifact (`out/X.sol/X.json`: `abi`, `bytecode.object`, `metadata`) or a Hardhat artifact (`contractName`,
 * `abi`, `bytecode`). One checker for the CLI, the service and the pages: every entry is an object of a known `type`,
 * every parameter an ABI type, so that a decoder never meets what it cannot read.
 */

/** Largest ABI accepted, in characters of JSON (the largest real ABIs are a few hundred KB). */
export const MAX_ABI_JSON_LENGTH = 2 * 1024 * 1024;
/** Longest contract name kept. */
export const MAX_CONTRACT_NAME_LENGTH = 200;
/** Deepest tuple nesting of a parameter. */
const MAX_TUPLE_DEPTH = 16;

const ENTRY_TYPES = ["function", "event", "error", "constructor", "fallback", "receive"];
const ELEMENTARY = /^(address|bool|string|bytes([1-9]|[12][0-9]|3[0-2])?|(u?int)([0-9]{1,3})?|function|tuple)((\[[0-9]{0,10}\])*)$/;
const NAME = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** A checked ABI (its entries as JSON objects) and the contract's name when the file says it. */
export interface AbiFile {
  readonly abi: readonly Record<string, unknown>[];
  readonly name: string;
}

/**
 * Reads an ABI file's JSON: a plain ABI, a Foundry artifact or a Hardhat artifact.
 * @returns the ABI and the contract name, or an error that says what is wrong, naming the entry at fault
 * @example
 * parseAbiFile('[{"type":"function","name":"ping","inputs":[],"outputs":[]}]') // { abi: [...], name: "" }
 */
export function parseAbiFile(text: string, fileName = ""): AbiFile | { error: string } {
  if (typeof text !== "string" || text.length > MAX_ABI_JSON_LENGTH)
    return { error: `the ABI is larger than ${MAX_ABI_JSON_LENGTH} characters` };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { error: "the ABI is not JSON: give a JSON array, or a Foundry or Hardhat artifact (an object with an abi array)" };
  }
  const artifact = typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  const abi = artifact ? artifact.abi : value;
  if (!Array.isArray(abi)) return { error: "the ABI must be a JSON array, or an artifact whose abi field is one" };
  for (const [i, entry] of abi.entries()) {
    const problem = entryProblem(entry);
    if (problem) return { error: `abi[${i}]: ${problem}` };
  }
  const named =
    typeof artifact?.contractName === "string" ? artifact.contractName : fileName.replace(/^.*[\\/]/, "").replace(/\.json$/, "");
  const name = NAME.test(named) && named.length <= MAX_CONTRACT_NAME_LENGTH ? named : "";
  return { abi: abi as Record<string, unknown>[], name };
}

function entryProblem(entry: unknown): string | undefined {
  if (typeof entry !== "object" || entry === null || Array.isArray(entry)) return "each entry must be an object";
  const item = entry as Record<string, unknown>;
  const type = item.type ?? "function";
  if (typeof type !== "string" || !ENTRY_TYPES.includes(type)) return `type must be one of ${ENTRY_TYPES.join(", ")}`;
  if ((type === "function" || type === "event" || type === "error") && (typeof item.name !== "string" || !NAME.test(item.name))) {
    return "name must be a Solidity identifier";
  }
  for (const key of ["inputs", "outputs"]) {
    if (item[key] === undefined) continue;
    if (!Array.isArray(item[key])) return `${key} must be an array`;
    for (const [i, param] of (item[key] as unknown[]).entries()) {
      const problem = parameterProblem(param, 0);
      if (problem) return `${key}[${i}]: ${problem}`;
    }
  }
  return undefined;
}

function parameterProblem(param: unknown, depth: number): string | undefined {
  if (typeof param !== "object" || param === null || Array.isArray(param)) return "each parameter must be an object";
  const { type, name, components } = param as Record<string, unknown>;
  if (name !== undefined && (typeof name !== "string" || (name !== "" && !NAME.test(name)))) return "name must be a Solidity identifier";
  const match = typeof type === "string" ? ELEMENTARY.exec(type) : null;
  if (!match) return "type must be an ABI type (uint256, address, bytes32, tuple[], ...)";
  // Groups: 1 the base type, 2 a bytesN size, 3 "int" or "uint", 4 its bits.
  const bits = match[4] === undefined ? undefined : Number(match[4]);
  if (match[3] && bits !== undefined && (bits < 8 || bits > 256 || bits % 8 !== 0)) return `type ${String(type)} has no such size`;
  if (match[1] !== "tuple") return undefined;
  if (depth >= MAX_TUPLE_DEPTH) return `tuples nest deeper than ${MAX_TUPLE_DEPTH} levels`;
  if (!Array.isArray(components)) return "a tuple needs its components";
  for (const [i, component] of components.entries()) {
    const problem = parameterProblem(component, depth + 1);
    if (problem) return `components[${i}]: ${problem}`;
  }
  return undefined;
}
