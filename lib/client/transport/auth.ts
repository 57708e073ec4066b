import { ClientConfigError } from "../errors/transport";

/** How the access key travels: `X-Access-Key` header, HTTP Basic (key as username), or a Bearer token. */
export type AuthMode = "header" | "basic" | "bearer";

/** Credentials as the caller gives them. */
export interface Credentials {
  /** API access key (header or basic mode). */
  accessKey?: string | undefined;
  /** JWT bearer token (bearer mode). */
  bearerToken?: string | undefined;
  /** Defaults to `bearer` when only a bearer token is given, else `header`. */
  authMode?: AuthMode | undefined;
}

/**
 * Resolves credentials to the headers that carry them, once per client. Returns `{}` headers when no credential
 * is given: only the public endpoint answers then, everything else gets 401 from the service.
 */
export function authHeaders(credentials: Credentials): { mode: AuthMode | "none"; headers: Record<string, string> } {
  const mode = credentials.authMode ?? (credentials.bearerToken && !credentials.accessKey ? "bearer" : "header");
  if (mode === "bearer") {
    if (!credentials.bearerToken) throw new ClientConfigError("authMode `bearer` needs a `bearerToken`.");
    return { mode, headers: { authorization: `Bearer ${credentials.bearerToken}` } };
  }
  if (!credentials.accessKey) {
    if (credentials.authMode) throw new ClientConfigError(`authMode \`${mode}\` needs an \`accessKey\`.`);
    return { mode: "none", headers: {} };
  }
  if (mode === "basic") {
    return { mode, headers: { authorization: `Basic ${Buffer.from(`${credentials.accessKey}:`).toString("base64")}` } };
  }
  if (mode !== "header") throw new ClientConfigError(`Unknown authMode \`${String(mode)}\`.`, "Use header, basic or bearer.");
  return { mode, headers: { "x-access-key": credentials.accessKey } };
}
