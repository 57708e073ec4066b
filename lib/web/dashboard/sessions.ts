/**
 * Who may do what on the dashboard, in one place: sessions, one-time login links, the origin rule and the CSRF rule.
 * Pages ask `viewer(request)`, changes `changer(request)`, sign-in `requireOwnOrigin(request)`; each throws an error
 * the dashboard's error handler renders (a sign-in page, or a 403 that changed nothing). A session is created by an
 * access key typed into the sign-in form or by a one-time link (single use, 10 minutes); either way the browser gets
 * an HttpOnly, SameSite=Strict cookie holding a random session id, never the key. Every POST (sign-in
 * included) must come from the dashboard's own origin, and every change needs the session and its CSRF token (a
 * hidden form field). Sessions live in memory: a restart signs everyone out.
 */
import { randomBytes, timingSafeEqual } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Requester, SignInCheck } from "../../service/web-interface";

/** Name of the session cookie. */
export const SESSION_COOKIE = "chainform_session";
/** Name of the CSRF form field. */
export const CSRF_FIELD = "csrf";
/** A one-time login link is valid this long. */
export const LOGIN_LINK_TTL_MS = 10 * 60 * 1000;
/** A session ends this long after sign-in. */
export const SESSION_TTL_MS = 12 * 60 * 60 * 1000;
/** Most sessions and unredeemed links kept (the oldest go first). */
const MAX_ENTRIES = 10_000;

/** A page needs a signed-in user and the request has no valid session (the sign-in page answers, 401). */
export class SignInRequired extends Error {}

/** A change refused before anything happened: sent from another origin, or without the CSRF token (403). */
export class ChangeRefused extends Error {}

/** A signed-in dashboard user. */
export interface Session {
  readonly id: string;
  readonly requester: Requester;
  /** The token every form that changes something carries. */
  readonly csrfToken: string;
  readonly expiresAt: number;
}

/** Sessions and login links of one service. */
export class Sessions {
  private readonly sessions = new Map<string, Session>();
  private readonly loginTokens = new Map<string, { userId: string; expiresAt: number }>();

  constructor(
    private readonly signIn: SignInCheck,
    private readonly now: () => number = Date.now,
  ) {}

  /** Issues a one-time login token for a user (valid 10 minutes, single use). */
  issueLoginToken(userId: string): string {
    const token = randomBytes(32).toString("base64url");
    this.loginTokens.set(token, { userId, expiresAt: this.now() + LOGIN_LINK_TTL_MS });
    trim(this.loginTokens);
    return token;
  }

  /** Redeems a login token (it is gone afterwards); undefined when unknown, used or expired. */
  redeemLoginToken(token: string): Session | undefined {
    const entry = this.loginTokens.get(token);
    this.loginTokens.delete(token);
    if (!entry || entry.expiresAt <= this.now()) return undefined;
    const requester = this.signIn.byUserId(entry.userId);
    return requester && this.open(requester);
  }

  /** Signs in with an access key; undefined for an unknown key. */
  signInWithKey(key: string): Session | undefined {
    const requester = this.signIn.byKey(key);
    return requester && this.open(requester);
  }

  /** The session of a request's cookie, if valid. */
  of(request: FastifyRequest): Session | undefined {
    const id = cookie(request.headers.cookie, SESSION_COOKIE);
    const session = id ? this.sessions.get(id) : undefined;
    if (!session) return undefined;
    if (session.expiresAt <= this.now()) {
      this.sessions.delete(session.id);
      return undefined;
    }
    return session;
  }

  /** The session of a page view; throws `SignInRequired` without one. */
  viewer(request: FastifyRequest): Session {
    const session = this.of(request);
    if (!session) throw new SignInRequired("Sign in to see this page.");
    return session;
  }

  /**
   * The session of a change (a POST): from the dashboard's own origin, signed in, with the session's CSRF token in
   * the form. Throws `ChangeRefused` or `SignInRequired`; nothing has changed then.
   */
  changer(request: FastifyRequest): Session {
    Sessions.requireOwnOrigin(request);
    const session = this.viewer(request);
    if (!Sessions.csrfValid(session, request.body)) {
      throw new ChangeRefused("The form's CSRF token is missing or wrong: nothing was changed. Reload the page and try again.");
    }
    return session;
  }

  /** Throws `ChangeRefused` for a POST from another origin (sign-in included: no login CSRF). */
  static requireOwnOrigin(request: FastifyRequest): void {
    if (!Sessions.fromOwnOrigin(request)) {
      throw new ChangeRefused(
        "This form was sent from another site (or another port of this host): nothing was changed. Use the dashboard's own pages.",
      );
    }
  }

  /** Ends a session. */
  close(session: Session): void {
    this.sessions.delete(session.id);
  }

  /**
   * Whether a request was sent by a page of the dashboard's own origin, or by no page at all (curl, scripts: no
   * `Origin`, no `Sec-Fetch-Site`). A page on another port of the same host is same-site, so the SameSite cookie
   * goes along with its forms: only the origin tells them apart. `Sec-Fetch-Site` decides where the browser sends
   * it; older browsers send only `Origin` on a POST (the real one, as the pages' referrer policy is `same-origin`).
   */
  static fromOwnOrigin(request: FastifyRequest): boolean {
    const site = request.headers["sec-fetch-site"];
    if (site !== undefined) return site === "same-origin";
    const origin = request.headers.origin;
    return origin === undefined || origin === `${request.protocol}://${request.host}`;
  }

  /** Whether a submitted form carries the session's CSRF token. */
  static csrfValid(session: Session, body: unknown): boolean {
    const given = typeof body === "object" && body !== null ? (body as Record<string, unknown>)[CSRF_FIELD] : undefined;
    if (typeof given !== "string") return false;
    const a = Buffer.from(given);
    const b = Buffer.from(session.csrfToken);
    return a.length === b.length && timingSafeEqual(a, b);
  }

  /** Sets the session cookie (Secure over HTTPS). */
  static setCookie(reply: FastifyReply, session: Session, secure: boolean): void {
    const maxAge = Math.floor(SESSION_TTL_MS / 1000);
    reply.header(
      "set-cookie",
      `${SESSION_COOKIE}=${session.id}; Path=/dashboard; HttpOnly; SameSite=Strict; Max-Age=${maxAge}${secure ? "; Secure" : ""}`,
    );
  }

  /** Clears the session cookie. */
  static clearCookie(reply: FastifyReply): void {
    reply.header("set-cookie", `${SESSION_COOKIE}=; Path=/dashboard; HttpOnly; SameSite=Strict; Max-Age=0`);
  }

  private open(requester: Requester): Session {
    const session: Session = {
      id: randomBytes(32).toString("base64url"),
      requester,
      csrfToken: randomBytes(32).toString("base64url"),
      expiresAt: this.now() + SESSION_TTL_MS,
    };
    this.sessions.set(session.id, session);
    trim(this.sessions);
    return session;
  }
}

function trim(map: Map<string, unknown>): void {
  while (map.size > MAX_ENTRIES) map.delete(map.keys().next().value!);
}

function cookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}
