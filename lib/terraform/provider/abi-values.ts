/**
 * Terraform values to ABI values and back, for constructor arguments and contract calls. Terraform passes them as a
 * list of strings (numbers and bools convert to strings on their own: `[1000, true, "0xabc..."]` works); arrays
 * and tuples are JSON text (`jsonencode([...])`). Results come back as strings: decimal integers, `true`/`false`,
 * lower-case addresses, hex bytes, and JSON for arrays and tuples.
 */
import type { AbiParameter } from "./viem";

/** An argument that does not fit its parameter; `index` is the argument's position. */
export class AbiValueError extends Error {
  constructor(
    readonly index: number,
    message: string,
  ) {
    super(message);
    this.name = "AbiValueError";
  }
}

/** Describes parameters for messages: `(string name_, uint8 decimals_)`. */
export function describeParameters(parameters: readonly AbiParameter[]): string {
  return `(${parameters.map((p) => `${p.type}${p.name ? ` ${p.name}` : ""}`).join(", ")})`;
}

/** Converts the arguments to the parameters' ABI values; throws `AbiValueError` naming the argument at fault. */
export function toAbiValues(parameters: readonly AbiParameter[], args: readonly string[], what: string): unknown[] {
  if (args.length !== parameters.length) {
    throw new AbiValueError(-1, `${what} takes ${parameters.length} argument(s) ${describeParameters(parameters)}, got ${args.length}.`);
  }
  return parameters.map((parameter, i) => {
    try {
      return toAbiValue(parameter, args[i]!);
    } catch (error) {
      throw new AbiValueError(
        i,
        `Argument ${i} (${parameter.type}${parameter.name ? ` ${parameter.name}` : ""}) of ${what}: ${(error as Error).message}`,
      );
    }
  });
}

function toAbiValue(parameter: AbiParameter, value: unknown): unknown {
  const type = parameter.type;
  const array = /^(.*)\[(\d*)\]$/.exec(type);
  if (array) {
    const items = typeof value === "string" ? parseJson(value) : value;
    if (!Array.isArray(items)) throw new Error(`expected a JSON array for ${type}, got ${JSON.stringify(value)}`);
    if (array[2] && items.length !== Number(array[2])) throw new Error(`expected ${array[2]} elements for ${type}, got ${items.length}`);
    return items.map((item) => toAbiValue({ ...parameter, type: array[1]! } as AbiParameter, item));
  }
  if (type === "tuple") {
    const components = (parameter as { components?: readonly AbiParameter[] }).components ?? [];
    const fields = typeof value === "string" ? parseJson(value) : value;
    if (Array.isArray(fields)) return components.map((c, i) => toAbiValue(c, fields[i]));
    if (fields && typeof fields === "object")
      return Object.fromEntries(components.map((c) => [c.name!, toAbiValue(c, (fields as Record<string, unknown>)[c.name!])]));
    throw new Error(`expected a JSON object or array for the tuple, got ${JSON.stringify(value)}`);
  }
  const text =
    typeof value === "string" ? value : typeof value === "number" || typeof value === "boolean" ? String(value) : JSON.stringify(value);
  if (/^u?int\d*$/.test(type)) {
    if (!/^-?[0-9]+$/.test(text) && !/^0x[0-9a-fA-F]+$/.test(text))
      throw new Error(`expected a whole number (decimal or 0x hex), got ${JSON.stringify(text)}`);
    const n = BigInt(text);
    const bits = Number(type.replace(/^u?int/, "") || 256);
    const signed = type.startsWith("int");
    const min = signed ? -(1n << BigInt(bits - 1)) : 0n;
    const max = signed ? (1n << BigInt(bits - 1)) - 1n : (1n << BigInt(bits)) - 1n;
    if (n < min || n > max) throw new Error(`${text} does not fit ${type} (${min} to ${max})`);
    return n;
  }
  if (type === "address") {
    if (!/^0x[0-9a-fA-F]{40}$/.test(text))
      throw new Error(`expected an address (0x followed by 40 hex digits), got ${JSON.stringify(text)}`);
    return text;
  }
  if (type === "bool") {
    if (text !== "true" && text !== "false") throw new Error(`expected true or false, got ${JSON.stringify(text)}`);
    return text === "true";
  }
  if (type === "string") return text;
  const bytes = /^bytes(\d*)$/.exec(type);
  if (bytes) {
    if (!/^0x([0-9a-fA-F]{2})*$/.test(text)) throw new Error(`expected 0x-prefixed hex bytes, got ${JSON.stringify(text)}`);
    if (bytes[1] && text.length !== 2 + 2 * Number(bytes[1]))
      throw new Error(`expected exactly ${bytes[1]} bytes, got ${(text.length - 2) / 2}`);
    return text;
  }
  throw new Error(`the ABI type ${type} is not supported`);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new Error(`expected JSON text (jsonencode(...)), got ${JSON.stringify(text)}`);
  }
}

/**
 * One decoded ABI value as Terraform text: decimal integers, true/false, lower-case addresses, bytes as hex, JSON
 * for arrays and tuples (viem decodes addresses checksummed; lower case compares equal to what chainform_contract
 * and the service report).
 */
export function fromAbiValue(parameter: Pick<AbiParameter, "type">, value: unknown): string {
  if (parameter.type === "address" && typeof value === "string") return value.toLowerCase();
  if (typeof value === "string") return value;
  if (typeof value === "bigint" || typeof value === "number" || typeof value === "boolean") return String(value);
  return toJson(value);
}

/** Decoded values as JSON text: integers as decimal strings, addresses in lower case. */
export function toJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    typeof v === "bigint" ? v.toString() : typeof v === "string" && /^0x[0-9a-fA-F]{40}$/.test(v) ? v.toLowerCase() : v,
  );
}
