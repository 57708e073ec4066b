/**
 * Provider-defined functions (Terraform 1.8 and later) as their authors write them: typed parameters, a return type
 * and `run`. HCL calls them as `provider::NAME::FUNCTION(...)`. Terraform may call a function on a provider it has
 * not configured, so `run` gets its arguments and nothing else.
 */
import type { CtyType } from "../protocol/cty/type";
import type { CtyValue } from "../protocol/cty/value";

/** A positional parameter. */
export interface FunctionParameter {
  /** Its name, shown by Terraform in errors about the argument. */
  readonly name: string;
  /** Its cty type; Terraform converts the argument to it first (a number to a string, exactly, at any size). */
  readonly type: CtyType;
  /** What it is. */
  readonly description: string;
  /** Whether null may be passed (otherwise Terraform rejects it before calling). Default false. */
  readonly allowNull?: boolean;
}

/** A function. `run` gets the arguments decoded against the parameters' types, in order. */
export interface ProviderFunction {
  /** The name after `provider::NAME::`, in snake_case. */
  readonly name: string;
  /** One line: what it returns. */
  readonly summary: string;
  /** Markdown documentation, with an example call. */
  readonly description: string;
  /** The parameters, in order. */
  readonly parameters: readonly FunctionParameter[];
  /** The type of the result. */
  readonly returns: CtyType;
  /** Computes the result; throws {@link FunctionError} for a bad argument. */
  run(args: readonly CtyValue[]): CtyValue;
}

/**
 * The failure of a function call: Terraform shows the text and, when `argument` is given, points at that argument
 * (0-based) in the configuration.
 * @example
 * throw new FunctionError(`"1.2.3" is not a decimal amount`, 0);
 */
export class FunctionError extends Error {
  constructor(
    message: string,
    /** The index of the argument at fault, when one is. */
    readonly argument?: number,
  ) {
    super(message);
    this.name = "FunctionError";
  }
}

/**
 * Defines a function.
 * @example
 * export const double = defineFunction({
 *   name: "double", summary: "Twice a number.", description: "`provider::echo::double(2)` is 4.",
 *   parameters: [{ name: "n", type: cty.number, description: "A number." }], returns: cty.number,
 *   run: ([n]) => (n as number) * 2,
 * });
 */
export function defineFunction(fn: ProviderFunction): ProviderFunction {
  return fn;
}
