/** Slugs derived from names (spec: a slug is URL-safe and generated from the display name when omitted). */

/** Longest slug. */
export const MAX_SLUG_LENGTH = 100;

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
