/**
 * What every chainform function does with its arguments: errors name the argument (Terraform points at it), and
 * whole numbers travel as decimal strings (a string parameter takes an HCL number too, converted exactly at any
 * size, whereas a number parameter would reach the provider as a float64 and round above 2^53).
 */
import { FunctionError, type FunctionParameter } from "../../framework";

/**
 * Throws a {@link FunctionError} at argument `index`. Terraform names the parameter itself (`Invalid value for
 * "amount" parameter: ...`) and underlines the call, so the text says only what is wrong and what would do.
 */
export function argumentError(parameters: readonly FunctionParameter[], index: number, problem: string): never {
  if (!parameters[index]) throw new Error(`argumentError: no parameter ${index}`);
  throw new FunctionError(problem, index);
}

/** A non-negative whole number written in decimal (as Terraform converts a number to a string), exact. */
export function decimalInteger(text: string): bigint | undefined {
  const trimmed = text.trim();
  return /^\d{1,80}$/.test(trimmed) ? BigInt(trimmed) : undefined;
}
