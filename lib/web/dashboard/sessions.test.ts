import type { FastifyRequest } from "fastify";
import { NoChainEngine } from "../../service/no-chain-engine";
import { Store } from "../../service/store";
import { applySeed, DEFAULT_SEED } from "../../service/seed";
import { serviceForWeb, type SignInCheck } from "../../service/web-interface";
import { LOGIN_LINK_TTL_MS, Sessions } from "./sessions";

let store: Store;
let signIn: SignInCheck;
beforeAll(() => {
  store = Store.open({ dataDir: null });
  applySeed(store, DEFAULT_SEED);
  signIn = serviceForWeb(store, new NoChainEngine()).signIn;
});
afterAll(() => store.close());

function userId(slug: string): string {
  return store.accounts.bySlug(slug)!.id;
}

test("a login token works once and not after ten minutes", () => {
  let now = 1_000_000;
  const sessions = new Sessions(signIn, () => now);
  const token = sessions.issueLoginToken(userId("alice"));
  const session = sessions.redeemLoginToken(token);
  expect(session?.requester.user.slug).toBe("alice");
  expect(session?.requester.readOnly).toBe(false);
  expect(sessions.redeemLoginToken(token)).toBeUndefined();

  const late = sessions.issueLoginToken(userId("bob"));
  now += LOGIN_LINK_TTL_MS;
  expect(sessions.redeemLoginToken(late)).toBeUndefined();
});

test("a key signs in as its user, read-only keys stay read-only; an unknown key does not", () => {
  const sessions = new Sessions(signIn);
  const keys = store.accounts.keysByUsername();
  expect(sessions.signInWithKey(keys.bob)?.requester).toMatchObject({ readOnly: true, user: { slug: "bob" } });
  expect(sessions.signInWithKey("cf_nope")).toBeUndefined();
  expect(sessions.signInWithKey("")).toBeUndefined();
});

test("the cookie finds the session; the CSRF token must match exactly", () => {
  const sessions = new Sessions(signIn);
  const session = sessions.signInWithKey(store.accounts.keysByUsername().alice)!;
  expect(session.id).not.toContain(store.accounts.keysByUsername().alice);
  const ask = (cookie?: string) => sessions.of({ headers: cookie ? { cookie } : {} } as FastifyRequest)?.requester.user.slug;
  expect(ask(`other=1; chainform_session=${session.id}`)).toBe("alice");
  expect(ask("chainform_session=forged")).toBeUndefined();
  expect(ask()).toBeUndefined();
  sessions.close(session);
  expect(ask(`chainform_session=${session.id}`)).toBeUndefined();
  expect(Sessions.csrfValid(session, { csrf: session.csrfToken })).toBe(true);
  expect(Sessions.csrfValid(session, { csrf: `${session.csrfToken}x` })).toBe(false);
  expect(Sessions.csrfValid(session, {})).toBe(false);
  expect(Sessions.csrfValid(session, undefined)).toBe(false);
});

test("a POST is the dashboard's own when Sec-Fetch-Site says same-origin, or, without it, Origin is this origin", () => {
  const from = (headers: Record<string, string>) =>
    Sessions.fromOwnOrigin({ headers, protocol: "http", host: "127.0.0.1:8787" } as unknown as FastifyRequest);
  expect(from({})).toBe(true); // curl, scripts: no page sent it
  expect(from({ "sec-fetch-site": "same-origin", origin: "null" })).toBe(true);
  expect(from({ "sec-fetch-site": "same-site", origin: "http://127.0.0.1:9999" })).toBe(false); // another port
  expect(from({ "sec-fetch-site": "cross-site" })).toBe(false);
  expect(from({ "sec-fetch-site": "none" })).toBe(false);
  expect(from({ origin: "http://127.0.0.1:8787" })).toBe(true); // a browser without Sec-Fetch-Site
  expect(from({ origin: "http://127.0.0.1:9999" })).toBe(false);
  expect(from({ origin: "https://127.0.0.1:8787" })).toBe(false);
  expect(from({ origin: "null" })).toBe(false);
});
