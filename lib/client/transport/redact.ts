/** What stands in for a secret in anything the client reports. */
export const REDACTED = "[redacted]";

const ADMIN_RPC = /\/rpc\/admin\/[^/?#\s"'<>]+/g;

/**
 * Builds a scrubber that removes secrets from text before it goes into an error or a hook: the given secrets
 * (access key, bearer token, and their Basic-auth encodings) and every Admin RPC URL secret (`/rpc/admin/<secret>`).
 */
export function createRedactor(secrets: readonly (string | undefined)[]): (text: string) => string {
  const needles = new Set<string>();
  for (const secret of secrets) {
    if (!secret) continue;
    needles.add(secret);
    needles.add(encodeURIComponent(secret));
    needles.add(Buffer.from(`${secret}:`).toString("base64"));
    needles.add(Buffer.from(secret).toString("base64"));
  }
  const ordered = [...needles].filter((n) => n.length >= 4).sort((a, b) => b.length - a.length);
  return (text: string) => {
    let out = text.replace(ADMIN_RPC, `/rpc/admin/${REDACTED}`);
    for (const needle of ordered) out = out.split(needle).join(REDACTED);
    return out;
  };
}

/** Applies `scrub` to every string inside a JSON-like value. */
export function scrubDeep<T>(value: T, scrub: (text: string) => string): T {
  if (typeof value === "string") return scrub(value) as T;
  if (Array.isArray(value)) return value.map((v) => scrubDeep(v, scrub)) as T;
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, scrubDeep(v, scrub)])) as T;
  }
  return value;
}
