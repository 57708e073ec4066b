/** Paths into a cty value, used to point codec errors and diagnostics at the offending attribute. */

/** One step of a path: an attribute name, a map key (string) or a list/tuple/set index (number). */
export type PathStep = { readonly attribute: string } | { readonly key: string } | { readonly index: number };

/** A path from the root of a value, as a list of steps. */
export type ValuePath = readonly PathStep[];

/** Renders a path the way Terraform prints one: `rule[0].name`, `tags["env"]`. */
export function formatPath(path: ValuePath): string {
  let out = "";
  for (const step of path) {
    if ("attribute" in step) out += out === "" ? step.attribute : `.${step.attribute}`;
    else if ("key" in step) out += `[${JSON.stringify(step.key)}]`;
    else out += `[${step.index}]`;
  }
  return out === "" ? "(root)" : out;
}

/** An error in a value at a path: a value that does not match its type, on the wire or from a provider. */
export class CtyPathError extends TypeError {
  constructor(
    message: string,
    /** Where in the value the problem is. */
    readonly path: ValuePath,
  ) {
    super(`${formatPath(path)}: ${message}`);
    this.name = "CtyPathError";
  }
}
