/**
 * Validators: checks of a configured value that run during `terraform validate` and plan, on known, non-null values
 * only (unknown values are checked once known, at apply). They return diagnostics; the path is filled in for them.
 */
import type { ValuePath } from "../protocol/cty/path";
import { diag, type Diagnostic } from "./diagnostics";

/** A check of an attribute's value. */
export interface Validator<T> {
  /** What the check requires, in words ("one of eu, us"). */
  readonly description: string;
  /** Returns what is wrong with the value, if anything. */
  validate(value: T, path: ValuePath): readonly Diagnostic[];
}

/**
 * Makes a validator from a function that returns an error message, or nothing when the value is fine.
 * @example
 * const evenNumber = validator("an even number", (n: number) => (n % 2 === 0 ? undefined : `${n} is odd`));
 */
export function validator<T>(description: string, check: (value: T) => string | undefined | void): Validator<T> {
  return {
    description,
    validate(value, path) {
      const problem = check(value);
      if (!problem) return [];
      // "5 is not a whole number from 1 to 3" already says what is expected: saying it twice reads as a stutter.
      const detail = problem.includes(description) ? `${problem}.` : `${problem}: expected ${description}.`;
      return [diag.error("Invalid attribute value", detail, path)];
    },
  };
}

/**
 * The value must be one of the given values.
 * @example
 * attr.string({ description: "Region.", required: true, validators: [oneOf(["eu", "us"])] })
 */
export function oneOf(values: readonly string[]): Validator<string>;
export function oneOf(values: readonly number[]): Validator<number>;
export function oneOf(values: readonly (string | number)[]): Validator<string | number> {
  return validator(`one of ${values.map((v) => JSON.stringify(v)).join(", ")}`, (value: string | number) =>
    values.includes(value) ? undefined : `${JSON.stringify(value)} is not allowed`,
  );
}

/**
 * The string must match a regular expression.
 * @example
 * regex(/^[a-z][a-z0-9-]*$/, "lowercase letters, digits and dashes, starting with a letter")
 */
export function regex(pattern: RegExp, meaning = `a string matching ${pattern}`): Validator<string> {
  return validator(meaning, (value: string) => (pattern.test(value) ? undefined : `${JSON.stringify(value)} does not match`));
}

/**
 * The number must lie between min and max, inclusive.
 * @example
 * between(1, 65535)
 */
export function between(min: number, max: number): Validator<number> {
  return validator(`a number from ${min} to ${max}`, (value: number) =>
    value >= min && value <= max ? undefined : `${value} is out of range`,
  );
}

/**
 * The string (or list, set, map) must have a length between min and max, inclusive.
 * @example
 * lengthBetween(1, 64)
 */
export function lengthBetween(min: number, max: number): Validator<string | readonly unknown[] | Record<string, unknown>> {
  return validator(`a length from ${min} to ${max}`, (value: string | readonly unknown[] | Record<string, unknown>) => {
    const length = typeof value === "string" || Array.isArray(value) ? value.length : Object.keys(value).length;
    return length >= min && length <= max ? undefined : `length ${length} is out of range`;
  });
}
