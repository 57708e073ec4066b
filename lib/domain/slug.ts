/** Slugs derived from names (a slug is URL-safe and generated from the display name when omitted: docs/api.md "Create an environment"). */

/** Longest slug. */
export const MAX_SLUG_LENGTH = 100;

/** Slug syntax: lowercase letters and digits in dash-separated groups. */
export const SLUG_PATTERN = "^[a-z0-9]+(-[a-z0-9]+)*$";

/** A slug prefix (`slug_prefix`): a slug that may end with a dash, before the suffix that makes it unique. */
export const SLUG_PREFIX_PATTERN = "^[a-z0-9]+(-[a-z0-9]+)*-?$";

/**
 * A URL-safe slug of a name: lowercase letters, digits and single dashes; `fallback` when nothing is left.
 *
 * @example
 * slugify("My Env (Base)!") // "my-env-base"
 */
export function slugify(name: string, fallback = "environment"): string {
  const slug = name
    .normalize("NFKD")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .slice(0, MAX_SLUG_LENGTH)
    .replace(/^-+|-+$/g, "");
  return slug === "" ? fallback : slug;
}
