/**
 * Turns what a resource returns into a value Terraform accepts for its schema: attributes left out become null,
 * list and set blocks left null become empty (Terraform never has null blocks), and the names are checked, so
 * that a typo in a model is a clear error rather than a wire failure.
 */
import { CtyPathError, type ValuePath } from "../protocol/cty/path";
import { isUnknown } from "../protocol/cty/unknown";
import type { CtyValue } from "../protocol/cty/value";
import type { BlockSpec } from "./schema";

/** Normalizes a model (a block's value) for its spec; throws {@link CtyPathError} on unknown names. */
export function normalizeBlock(spec: BlockSpec, value: unknown, path: ValuePath = []): Record<string, CtyValue> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new CtyPathError(`expected an object for the block, got ${value === null ? "null" : typeof value}`, path);
  }
  const input = value as Record<string, unknown>;
  const blocks = spec.blocks ?? {};
  for (const key of Object.keys(input)) {
    if (!(key in spec.attributes) && !(key in blocks)) throw new CtyPathError(`unsupported attribute "${key}"`, path);
  }
  const out: Record<string, CtyValue> = {};
  for (const name of Object.keys(spec.attributes)) out[name] = (input[name] ?? null) as CtyValue;
  for (const [name, nested] of Object.entries(blocks)) {
    const given = input[name];
    const at = [...path, { attribute: name }];
    if (isUnknown(given)) out[name] = given;
    else if (nested.nesting === "single") out[name] = given == null ? null : normalizeBlock(nested, given, at);
    else if (given == null) out[name] = [];
    else if (!Array.isArray(given)) throw new CtyPathError("expected an array of blocks", at);
    else out[name] = given.map((element, index) => (isUnknown(element) ? element : normalizeBlock(nested, element, [...at, { index }])));
  }
  return out;
}
