import { durationText } from "./duration";

/** The part of an environment that teardown selects on. */
export interface TeardownCandidate {
  readonly id: string;
  readonly slug: string;
  readonly display_name: string;
  readonly created_at: string;
}

/** Which environments `chainform teardown` removes: exactly one selector. */
export type TeardownSelector =
  { readonly kind: "prefix"; readonly prefix: string } | { readonly kind: "olderThan"; readonly ms: number } | { readonly kind: "all" };

/** A human description of a selector, for the confirmation prompt and summaries. */
export function describeSelector(selector: TeardownSelector): string {
  switch (selector.kind) {
    case "prefix":
      return `environments whose slug starts with "${selector.prefix}"`;
    case "olderThan":
      return `environments created more than ${durationText(selector.ms)} ago`;
    case "all":
      return "every environment of the project";
  }
}

/**
 * The candidates a selector picks, in the order given. `now` is injectable for tests.
 * @example
 * selectForTeardown(envs, { kind: "prefix", prefix: "pr-42-" })
 */
export function selectForTeardown<T extends TeardownCandidate>(
  candidates: readonly T[],
  selector: TeardownSelector,
  now: number = Date.now(),
): T[] {
  switch (selector.kind) {
    case "prefix":
      return candidates.filter((c) => c.slug.startsWith(selector.prefix));
    case "olderThan":
      return candidates.filter((c) => now - Date.parse(c.created_at) > selector.ms);
    case "all":
      return [...candidates];
  }
}

/**
 * Exit codes of `chainform teardown`. 0 means the selection is gone; CI steps that may find nothing can accept 3:
 * `chainform teardown --prefix pr-42- --yes || test $? -eq 3`.
 */
export const TEARDOWN_EXIT = {
  /** Every selected environment was deleted (or was already gone). */
  deleted: 0,
  /** Nothing matched the selector; nothing was deleted. Also a dry run or a declined prompt. */
  nothingToDo: 3,
  /** Some deletions failed; the summary names them. */
  partialFailure: 4,
} as const;
