/**
 * Authentication in the spec's three forms: `X-Access-Key`, HTTP Basic with the key as username, and
 * `Authorization: Bearer <JWT>` (HS256, signed with the service's own secret, at most 30 days; docs/service.md).
 *
 * This folder is the service's one home of access: who is asking (here), what they may see (./access.ts), and the
 * API's plugin that applies both to every request (./plugin.ts). The rule files import no plugin, route or transport.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";
import type { Accounts, Principal } from "../store";

/** Longest lifetime of a bearer token (docs/api.md "Authentication"). */
export const MAX_TOKEN_LIFETIME_SECONDS = 30 * 24 * 60 * 60;

/** The authenticated user of a request. */
export interface Requester {
  readonly user: Principal;
  /** Read-only keys may only GET (403 otherwise). */
  readonly readOnly: boolean;
  /** What the rate limit counts by: the key, or the token's user. */
  readonly rateKey: string;
}

/** The outcome of reading a request's credentials. */
export type Authentication =
  | { readonly kind: "authenticated"; readonly requester: Requester }
  | { readonly kind: "anonymous" }
  | { readonly kind: "invalid"; readonly reason: string };

const ANONYMOUS: Authentication = { kind: "anonymous" };

/**
 * Issues an HS256 JWT for a user.
 *
 * @example
 * const token = signToken({ sub: userId }, secret); // valid for 30 days
 */
export function signToken(
  claims: { readonly sub: string; readonly ttlSeconds?: number },
  secret: string,
  nowSeconds = Math.floor(Date.now() / 1000),
): string {
  const ttl = Math.min(claims.ttlSeconds ?? MAX_TOKEN_LIFETIME_SECONDS, MAX_TOKEN_LIFETIME_SECONDS);
  const header = base64url({ alg: "HS256", typ: "JWT" });
  const payload = base64url({ sub: claims.sub, iat: nowSeconds, exp: nowSeconds + ttl });
  return `${header}.${payload}.${hmac(`${header}.${payload}`, secret)}`;
}

/** Checks an HS256 JWT; returns its subject, or why it is refused. */
export function verifyToken(
  token: string,
  secret: string,
  nowSeconds = Math.floor(Date.now() / 1000),
): { sub: string } | { error: string } {
  const parts = token.split(".");
  if (parts.length !== 3) return { error: "malformed bearer token" };
  const [header, payload, signature] = parts;
  const expected = Buffer.from(hmac(`${header}.${payload}`, secret));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { error: "invalid bearer token signature" };
  const head = parseJson(header);
  const claims = parseJson(payload);
  if (head?.alg !== "HS256") return { error: "bearer token must be HS256" };
  if (typeof claims?.sub !== "string" || typeof claims.exp !== "number") return { error: "malformed bearer token" };
  if (claims.exp <= nowSeconds) return { error: "bearer token expired" };
  if (claims.exp > nowSeconds + MAX_TOKEN_LIFETIME_SECONDS) return { error: "bearer token lifetime exceeds 30 days" };
  return { sub: claims.sub };
}

/**
 * An access key, however it came (a header, Basic's user name, Etherscan's `apikey` parameter): its owner as the
 * requester, or invalid.
 */
export function authenticateKey(accounts: Pick<Accounts, "keyOwner">, key: string): Exclude<Authentication, { kind: "anonymous" }> {
  const owner = key === "" ? undefined : accounts.keyOwner(key);
  if (!owner) return { kind: "invalid", reason: "invalid access key" };
  return { kind: "authenticated", requester: { user: owner.user, readOnly: owner.readOnly, rateKey: `key:${key}` } };
}

/** Reads the credentials of requests against the store's keys and users. */
export class Authenticator {
  private readonly readOnlyUsers = new Map<string, boolean>();

  constructor(
    private readonly accounts: Accounts,
    private readonly tokenSecret: string,
  ) {}

  /** Authenticates request headers. `X-Access-Key` wins over `Authorization` when both are sent. */
  authenticate(headers: IncomingHttpHeaders): Authentication {
    const key = headers["x-access-key"];
    if (key !== undefined) return this.byKey(Array.isArray(key) ? key[0] : key);
    const authorization = headers.authorization;
    if (authorization === undefined) return ANONYMOUS;
    const space = authorization.indexOf(" ");
    const scheme = authorization.slice(0, space).toLowerCase();
    const value = authorization.slice(space + 1).trim();
    if (space > 0 && scheme === "basic") return this.byBasic(value);
    if (space > 0 && scheme === "bearer") return this.byToken(value);
    return { kind: "invalid", reason: "unsupported Authorization scheme: use X-Access-Key, Basic or Bearer" };
  }

  private byKey(key: string): Authentication {
    return authenticateKey(this.accounts, key);
  }

  private byBasic(encoded: string): Authentication {
    const decoded = Buffer.from(encoded, "base64").toString("utf8");
    const colon = decoded.indexOf(":");
    return this.byKey(colon === -1 ? decoded : decoded.slice(0, colon));
  }

  private byToken(token: string): Authentication {
    const verified = verifyToken(token, this.tokenSecret);
    if ("error" in verified) return { kind: "invalid", reason: verified.error };
    const user = this.accounts.byId(verified.sub);
    if (!user || user.type !== "user") return { kind: "invalid", reason: "bearer token names an unknown user" };
    let readOnly = this.readOnlyUsers.get(user.id);
    if (readOnly === undefined) {
      readOnly = this.accounts.isReadOnlyUser(user.id);
      this.readOnlyUsers.set(user.id, readOnly);
    }
    return { kind: "authenticated", requester: { user, readOnly, rateKey: `user:${user.id}` } };
  }
}

function base64url(value: object): string {
  return Buffer.from(JSON.stringify(value)).toString("base64url");
}

function hmac(data: string, secret: string): string {
  return createHmac("sha256", secret).update(data).digest("base64url");
}

function parseJson(segment: string): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(Buffer.from(segment, "base64url").toString("utf8"));
    return typeof value === "object" && value !== null ? value : undefined;
  } catch {
    return undefined;
  }
}
