import { randomBytes } from "node:crypto";

const MAX_SLUG_LENGTH = 100;

/**
 * Turns a display name into a URL-safe slug (lowercase letters, digits, single dashes), the shape the service
 * accepts: "My Env #2" → "my-env-2". Falls back to "environment" when nothing usable is left.
 */
export function slugify(displayName: string): string {
  const slug = displayName
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, MAX_SLUG_LENGTH)
    .replace(/-+$/g, "");
  return slug || "environment";
}

/**
 * The slug the client sends when a caller creates an environment without one: the slugified display name plus
 * a random 6-character suffix, chosen once per `createEnvironment` call. Sending an explicit slug is what makes
 * creation safe to retry: after an ambiguous failure the client can look this exact slug up, and the service's
 * slug uniqueness turns any second POST into a conflict rather than a duplicate. The suffix keeps two creations
 * with the same display name apart, as the service's own generation would.
 */
export function uniqueSlug(displayName: string, random: (bytes: number) => Buffer = randomBytes): string {
  const suffix = [...random(6)].map((b) => "abcdefghijklmnopqrstuvwxyz0123456789"[b % 36]).join("");
  const base = slugify(displayName).slice(0, MAX_SLUG_LENGTH - suffix.length - 1).replace(/-+$/g, "");
  return `${base}-${suffix}`;
}
