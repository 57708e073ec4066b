/**
 * What every chainform function does with its arguments: errors name the argument (Terraform points at it), and
 * whole numbers travel as decimal strings (a string parameter takes an HCL number too, converted exactly at any
 * size, whereas a number parameter would reach the provider as a float64 and round above 2^53).
 */
import { FunctionError, type FunctionParameter } from "../../framework";

/** Throws a {@link FunctionError} at argument `index`, named as the parameter is. */
export function argumentError(parameters: readonly FunctionParameter[], index: number, problem: string): never {
  throw new FunctionError(`Invalid ${parameters[index]!.name}: ${problem}`, index);
}

/** A non-negative whole number written in decimal (as Terraform converts a number to a string), exact. */
export function decimalInteger(text: string): bigint | undefined {
  const trimmed = text.trim();
  return /^\d{1,80}$/.test(trimmed) ? BigInt(trimmed) : undefined;
}
