/** Runs the schema's validators over a configuration: every attribute, inside every nested block, known values only. */
import type { ValuePath } from "../protocol/cty/path";
import { isUnknown } from "../protocol/cty/unknown";
import { isKnownDeep, type CtyValue } from "../protocol/cty/value";
import type { Diagnostic } from "./diagnostics";
import type { AttributeOptions, BlockSpec } from "./schema";

/**
 * Validates a decoded configuration against the validators of its schema. Null values are skipped (Terraform
 * itself enforces required attributes) and so are values not wholly known yet (they are validated at apply).
 * @example
 * const problems = validateConfig(schema, config);
 */
export function validateConfig(spec: BlockSpec, config: CtyValue, path: ValuePath = []): Diagnostic[] {
  if (config === null || isUnknown(config) || typeof config !== "object" || Array.isArray(config)) return [];
  const values = config as Record<string, CtyValue>;
  const diagnostics: Diagnostic[] = [];
  for (const [name, attribute] of Object.entries(spec.attributes)) {
    const value = values[name] ?? null;
    if (value === null || !isKnownDeep(value)) continue;
    const at: ValuePath = [...path, { attribute: name }];
    for (const validator of (attribute.options as AttributeOptions<CtyValue>).validators ?? []) {
      diagnostics.push(...validator.validate(value, at).map((d) => (d.path ? d : { ...d, path: at })));
    }
  }
  for (const [name, nested] of Object.entries(spec.blocks ?? {})) {
    const value = values[name] ?? null;
    const at: ValuePath = [...path, { attribute: name }];
    if (nested.nesting === "single") diagnostics.push(...validateConfig(nested, value, at));
    else if (Array.isArray(value)) {
      value.forEach((element, index) =>
        diagnostics.push(...validateConfig(nested, element, nested.nesting === "set" ? at : [...at, { index }])),
      );
    }
  }
  return diagnostics;
}
