import { Token } from "cdktf";
import type { IConstruct } from "constructs";

/**
 * One row of a validation table: the values a rule reads and the check itself. Rules run at construction, where a
 * mistake is cheapest to fix; a rule whose values are still tokens (resolved only by Terraform) is skipped.
 */
export interface Rule<T> {
  /** The values the check reads; the rule is skipped when any of them is an unresolved token. */
  readonly reads: (subject: T) => readonly unknown[];
  /** What is wrong and how to fix it, or `undefined` when the subject passes. */
  readonly check: (subject: T) => string | undefined;
}

/** A configuration mistake found at construction or synth, naming the construct path. */
export class ChainformValidationError extends Error {
  public override readonly name = "ChainformValidationError";

  /**
   * @param path the construct path, e.g. `pull-request/pr`
   * @param problems one line per problem, each saying what to fix
   */
  public constructor(
    public readonly path: string,
    public readonly problems: readonly string[],
  ) {
    super(problems.map((p) => `[${path}] ${p}`).join("\n"));
  }
}

/** Whether `value` is a token Terraform resolves later (and so cannot be checked now). */
export function isToken(value: unknown): boolean {
  return value !== undefined && value !== null && Token.isUnresolved(value);
}

/** Runs `rules` over `subject`; every message is prefixed with `where` (e.g. `networks[1]`). */
export function checkRules<T>(rules: readonly Rule<T>[], subject: T, where?: string): string[] {
  const problems: string[] = [];
  for (const rule of rules) {
    if (rule.reads(subject).some(isToken)) continue;
    const problem = rule.check(subject);
    if (problem) problems.push(where ? `${where}: ${problem}` : problem);
  }
  return problems;
}

/** Throws a {@link ChainformValidationError} for `scope` when there are problems. */
export function throwIfProblems(scope: IConstruct, problems: readonly string[]): void {
  if (problems.length > 0) throw new ChainformValidationError(scope.node.path, problems);
}
