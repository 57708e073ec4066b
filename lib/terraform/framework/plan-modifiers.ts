/**
 * Plan modifiers: per-attribute adjustments of the planned value, applied after defaults and after computed
 * attributes became unknown. They are how an attribute says "changing me replaces the resource" or "I never change
 * once set".
 */
import type { ValuePath } from "../protocol/cty/path";
import { isUnknown } from "../protocol/cty/unknown";
import type { CtyValue } from "../protocol/cty/value";
import { valuesEqual } from "./values";

/** What a plan modifier sees. `state` is null when the resource (or this nested block) is being created. */
export interface PlanModifierRequest {
  /** The configured value (may be unknown, or null when not set). */
  readonly config: CtyValue;
  /** The value planned so far. */
  readonly plan: CtyValue;
  /** The value in the prior state; null when creating. */
  readonly state: CtyValue;
  /** Whether the resource is being created (there is no prior state at all). */
  readonly creating: boolean;
  /** Where the attribute is. */
  readonly path: ValuePath;
}

/** What a plan modifier decides. */
export interface PlanModifierResult {
  /** A new planned value. */
  readonly plan?: CtyValue;
  /** The change to this attribute can only be made by replacing the resource. */
  readonly requiresReplace?: boolean;
}

/** A plan modifier of attributes of model type `T` (`T` only constrains where it may be used). */
export interface PlanModifier<T = unknown> {
  /** What it does, in words (for docs). */
  readonly description: string;
  /** Decides on the planned value. */
  modify(request: PlanModifierRequest): PlanModifierResult | void;
  /** Type-level only. */
  readonly __value?: T;
}

/**
 * A change to the attribute replaces the resource (Terraform shows `# forces replacement`).
 * @example
 * attr.string({ description: "Network.", required: true, planModifiers: [requiresReplace()] })
 */
export function requiresReplace(): PlanModifier<any> {
  return requiresReplaceIf("a change replaces the resource", () => true);
}

/**
 * A change to the attribute replaces the resource when `condition` says so (e.g. only when a value shrinks).
 * @example
 * requiresReplaceIf("shrinking replaces", ({ plan, state }) => (plan as number) < (state as number))
 */
export function requiresReplaceIf(description: string, condition: (request: PlanModifierRequest) => boolean): PlanModifier<any> {
  return {
    description,
    modify(request) {
      // Creating or destroying is not replacing; an unchanged value replaces nothing.
      if (request.creating) return;
      if (valuesEqual(request.plan, request.state)) return;
      if (condition(request)) return { requiresReplace: true };
    },
  };
}

/**
 * Plans the prior state's value instead of "known after apply" when the configuration does not set the attribute:
 * for computed values that never change once set, such as ids and creation times.
 * @example
 * attr.string({ description: "Identifier.", computed: true, planModifiers: [useStateForUnknown()] })
 */
export function useStateForUnknown(): PlanModifier<any> {
  return {
    description: "once set, the value does not change",
    modify({ plan, state, config }) {
      if (state === null || !isUnknown(plan) || isUnknown(config)) return;
      return { plan: state };
    },
  };
}
