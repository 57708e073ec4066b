/**
 * Diagnostics: the only thing that crosses the provider boundary when something is wrong. A diagnostic says what is
 * wrong and what to do about it, and points at the attribute it is about.
 */
import type { PathStep, ValuePath } from "../protocol/cty/path";
import type * as wire from "../protocol/messages";

/** Error stops the operation; warning is shown and the operation goes on. */
export type Severity = "error" | "warning";

/** A diagnostic as resources produce it. */
export interface Diagnostic {
  readonly severity: Severity;
  /** One line: what is wrong. */
  readonly summary: string;
  /** What to do about it; quotes the service's error id when there is one. */
  readonly detail?: string;
  /** The attribute it is about (Terraform underlines it in the configuration). */
  readonly path?: ValuePath;
}

/**
 * Builds an attribute path: strings are attribute names, numbers list indexes, `{ key }` map keys.
 * @example
 * at("rule", 0, "port")          // rule[0].port
 * at("tags", { key: "env" })     // tags["env"]
 */
export function at(...steps: (string | number | { key: string })[]): ValuePath {
  return steps.map((step): PathStep =>
    typeof step === "string" ? { attribute: step } : typeof step === "number" ? { index: step } : { key: step.key },
  );
}

/**
 * Diagnostic constructors.
 * @example
 * diagnostics.add(diag.error("Name already taken", `Choose another name; the service said ${id}.`, at("name")));
 */
export const diag = {
  /** An error diagnostic. */
  error: (summary: string, detail?: string, path?: ValuePath): Diagnostic => make("error", summary, detail, path),
  /** A warning diagnostic. */
  warning: (summary: string, detail?: string, path?: ValuePath): Diagnostic => make("warning", summary, detail, path),
};

function make(severity: Severity, summary: string, detail?: string, path?: ValuePath): Diagnostic {
  return { severity, summary, ...(detail !== undefined ? { detail } : {}), ...(path ? { path } : {}) };
}

/**
 * The diagnostics of one operation. Handlers add to it and return early when {@link Diagnostics.hasErrors}.
 * @example
 * if (!response.ok) { diagnostics.error("Could not create the environment", response.error.message); return; }
 */
export class Diagnostics {
  private readonly items: Diagnostic[] = [];

  /** Adds diagnostics (as validators return them). */
  add(...diagnostics: Diagnostic[]): this {
    this.items.push(...diagnostics);
    return this;
  }

  /** Adds an error. */
  error(summary: string, detail?: string, path?: ValuePath): this {
    return this.add(diag.error(summary, detail, path));
  }

  /** Adds a warning. */
  warning(summary: string, detail?: string, path?: ValuePath): this {
    return this.add(diag.warning(summary, detail, path));
  }

  /** Whether any error was added. */
  get hasErrors(): boolean {
    return this.items.some((d) => d.severity === "error");
  }

  /** Everything added so far. */
  get all(): readonly Diagnostic[] {
    return this.items;
  }
}

/** Converts a diagnostic to its protocol form. */
export function toWireDiagnostic(diagnostic: Diagnostic): wire.Diagnostic {
  return {
    severity: diagnostic.severity === "error" ? "ERROR" : "WARNING",
    summary: diagnostic.summary,
    ...(diagnostic.detail !== undefined ? { detail: diagnostic.detail } : {}),
    ...(diagnostic.path && diagnostic.path.length > 0 ? { attribute: toWirePath(diagnostic.path) } : {}),
  };
}

/** Converts a value path to a protocol attribute path. */
export function toWirePath(path: ValuePath): wire.AttributePath {
  return {
    steps: path.map((step): wire.AttributePathStep =>
      "attribute" in step
        ? { attribute_name: step.attribute }
        : "key" in step
          ? { element_key_string: step.key }
          : { element_key_int: step.index },
    ),
  };
}
