/**
 * Planning, as terraform-plugin-framework does it: start from Terraform's proposed new state (configuration merged
 * with prior state), fill defaults, make computed attributes the configuration leaves out unknown when the resource
 * changes, then let each attribute's plan modifiers adjust the value and ask for replacement.
 */
import type { PathStep, ValuePath } from "../protocol/cty/path";
import { isUnknown, Unknown } from "../protocol/cty/unknown";
import type { CtyValue } from "../protocol/cty/value";
import type { AttributeOptions, BlockSpec } from "./schema";
import { isComputed } from "./schema";
import { valuesEqual } from "./values";

/** The three values Terraform sends with PlanResourceChange, decoded. */
export interface PlanInput {
  /** The prior state; null when creating. */
  readonly prior: CtyValue;
  /** Terraform's proposed new state; null when destroying. */
  readonly proposed: CtyValue;
  /** The configuration; null when destroying. */
  readonly config: CtyValue;
}

/** The planned state and the attributes whose change forces replacement. */
export interface PlanResult {
  readonly planned: CtyValue;
  readonly requiresReplace: ValuePath[];
}

type Obj = Record<string, CtyValue>;

/**
 * Computes the planned state of a resource.
 * @example
 * const { planned, requiresReplace } = planResourceChange(schema, { prior, proposed, config });
 */
export function planResourceChange(spec: BlockSpec, input: PlanInput): PlanResult {
  if (input.proposed === null || isUnknown(input.proposed)) return { planned: input.proposed, requiresReplace: [] };
  const creating = input.prior === null;
  // Computed values only become unknown when something changes: an unchanged resource must plan as no-op.
  const changing = creating || !valuesEqual(input.proposed, input.prior);
  const requiresReplace: ValuePath[] = [];
  const planned = planBlock(spec, input.proposed as Obj, asObject(input.config), asObject(input.prior), {
    creating,
    changing,
    path: [],
    requiresReplace,
  });
  return { planned, requiresReplace };
}

interface Walk {
  readonly creating: boolean;
  readonly changing: boolean;
  readonly path: ValuePath;
  readonly requiresReplace: ValuePath[];
}

function planBlock(spec: BlockSpec, proposed: Obj, config: Obj | null, prior: Obj | null, walk: Walk): Obj {
  const planned: Obj = { ...proposed };
  for (const [name, attribute] of Object.entries(spec.attributes)) {
    const options = attribute.options as AttributeOptions<CtyValue>;
    const path: ValuePath = [...walk.path, { attribute: name }];
    const configured = config ? (config[name] ?? null) : null;
    const state = prior ? (prior[name] ?? null) : null;
    let value = planned[name] ?? null;
    if (configured === null && options.default !== undefined) value = options.default;
    else if (configured === null && isComputed(attribute) && walk.changing) value = Unknown;
    for (const modifier of options.planModifiers ?? []) {
      const result = modifier.modify({ config: configured, plan: value, state, creating: walk.creating, path });
      if (result?.plan !== undefined) value = result.plan;
      if (result?.requiresReplace) walk.requiresReplace.push(path);
    }
    planned[name] = value;
  }
  for (const [name, nested] of Object.entries(spec.blocks ?? {})) {
    const value = planned[name] ?? null;
    const configured = config ? (config[name] ?? null) : null;
    const state = prior ? (prior[name] ?? null) : null;
    const path: PathStep[] = [...walk.path, { attribute: name }];
    if (value === null || isUnknown(value)) continue;
    if (nested.nesting === "single") {
      planned[name] = planBlock(nested, value as Obj, asObject(configured), asObject(state), { ...walk, path });
      continue;
    }
    const elements = value as CtyValue[];
    // Set elements have no stable index Terraform could point at, so replacement inside a set names the set itself.
    const replaceInside: ValuePath[] = [];
    planned[name] = elements.map((element, index) => {
      if (element === null || isUnknown(element)) return element;
      const elementPath = nested.nesting === "set" ? path : [...path, { index }];
      return planBlock(nested, element as Obj, elementOf(configured, index), elementOf(state, index), {
        ...walk,
        path: elementPath,
        requiresReplace: nested.nesting === "set" ? replaceInside : walk.requiresReplace,
      });
    });
    if (replaceInside.length > 0) walk.requiresReplace.push(path);
  }
  return planned;
}

function asObject(value: CtyValue): Obj | null {
  return value !== null && typeof value === "object" && !Array.isArray(value) && !isUnknown(value) ? (value as Obj) : null;
}

function elementOf(list: CtyValue, index: number): Obj | null {
  return Array.isArray(list) ? asObject(list[index] ?? null) : null;
}
