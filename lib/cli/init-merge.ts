/**
 * `chainform init` in a directory that already holds a project: its files are added beside the project's own, and
 * package.json and .gitignore are merged, never overwritten. Whatever the project already has wins: a dependency,
 * script or `allowScripts` entry of the same name is left as it is (and listed, so the user can compare), the
 * project's name, version and every other field stay. Pure functions of the two texts, so a unit test reads them.
 */

/** The package.json fields init merges entry by entry; every other field of an existing package.json is left alone. */
const MERGED_FIELDS = ["scripts", "dependencies", "devDependencies", "allowScripts"] as const;

/** The outcome of a merge: the new text, what was added and what was left because the project has its own. */
export interface MergeResult {
  /** The merged file, or undefined when nothing needed adding (the file stays untouched). */
  readonly text: string | undefined;
  /** What was added, e.g. `scripts.up`, `dependencies.chainform`. */
  readonly added: readonly string[];
  /** What the project already had and kept, where it differs from what init would write, e.g. `scripts.up`. */
  readonly kept: readonly string[];
}

/**
 * Merges the package.json init would write (`generated`) into the project's (`existing`).
 * @example
 * mergePackageJson('{"name":"app","scripts":{"test":"jest"}}', '{"name":"x","scripts":{"up":"chainform up"}}')
 * // { text: '{"name":"app","scripts":{"test":"jest","up":"chainform up"}}' (indented), added: ["scripts.up"], kept: [] }
 */
export function mergePackageJson(existing: string, generated: string): MergeResult {
  let project: Record<string, unknown>;
  try {
    project = JSON.parse(existing) as Record<string, unknown>;
  } catch (error) {
    throw new Error(`package.json is not valid JSON (${(error as Error).message}): fix it, then run init again`);
  }
  if (typeof project !== "object" || project === null || Array.isArray(project)) {
    throw new Error("package.json does not hold a JSON object: fix it, then run init again");
  }
  const wanted = JSON.parse(generated) as Record<string, Record<string, unknown> | undefined>;
  const added: string[] = [];
  const kept: string[] = [];
  const merged: Record<string, unknown> = { ...project };
  for (const field of MERGED_FIELDS) {
    const entries = wanted[field];
    if (!entries) continue;
    const own = project[field];
    if (own !== undefined && (typeof own !== "object" || own === null || Array.isArray(own))) {
      throw new Error(`package.json's "${field}" is not an object: fix it, then run init again`);
    }
    const target: Record<string, unknown> = { ...(own as Record<string, unknown> | undefined) };
    // A package the project has among its devDependencies is not added to its dependencies, nor the other way round.
    const sibling = field === "dependencies" ? project.devDependencies : field === "devDependencies" ? project.dependencies : undefined;
    const elsewhere = (name: string) => typeof sibling === "object" && sibling !== null && Object.hasOwn(sibling, name);
    for (const [name, value] of Object.entries(entries)) {
      if (elsewhere(name)) continue;
      if (!Object.hasOwn(target, name)) {
        target[name] = value;
        added.push(`${field}.${name}`);
      } else if (JSON.stringify(target[name]) !== JSON.stringify(value)) {
        kept.push(`${field}.${name}`);
      }
    }
    if (own !== undefined || Object.keys(target).length > 0) merged[field] = target;
  }
  const indent = /^[ \t]*\{\s*\n([ \t]+)"/.exec(existing)?.[1] ?? "  ";
  return { text: added.length > 0 ? `${JSON.stringify(merged, null, indent)}\n` : undefined, added, kept };
}

/**
 * Adds to the project's .gitignore the lines of init's that it lacks, at the end, under init's comment.
 * @example
 * mergeGitignore("node_modules\n", "node_modules/\n.chainform/\n").text // "node_modules\n\n.chainform/\n" (plus init's comment)
 */
export function mergeGitignore(existing: string, generated: string): MergeResult {
  const have = new Set(existing.split(/\r?\n/).map((line) => line.trim().replace(/^\//, "").replace(/\/$/, "")));
  const missing = generated
    .split("\n")
    .filter((line) => line.trim() !== "" && !line.startsWith("#"))
    .filter((line) => !have.has(line.trim().replace(/^\//, "").replace(/\/$/, "")));
  if (missing.length === 0) return { text: undefined, added: [], kept: [] };
  const separator = existing === "" || existing.endsWith("\n") ? "" : "\n";
  return {
    text: `${existing}${separator}\n# added by chainform init\n${missing.join("\n")}\n`,
    added: missing.map((line) => `.gitignore ${line}`),
    kept: [],
  };
}
