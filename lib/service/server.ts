/**
 * Starts the local service on a port: `chainform serve`, `chainform up` and in-process tests use it. It builds
 * the app, listens, and tells the app its base URL (the RPC URLs are built on it).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import { generateServerCertificate } from "../terraform/protocol/tls/certificate";
import { buildApp, type ServiceOptions } from "./app";
import { signToken } from "./auth";
import { defaultProject } from "./seed";
import { Store } from "./store";

/** Default port of `chainform serve`. */
export const DEFAULT_PORT = 8787;
/** Default host: loopback only. */
export const DEFAULT_HOST = "127.0.0.1";
/** File name of the `--tls` certificate in the data dir. */
export const TLS_CERTIFICATE_FILE = "tls-cert.pem";

const LOOPBACK = new Set(["127.0.0.1", "::1", "localhost"]);

/** The host part of the base URL: the certificate's `localhost` for loopback over TLS, IPv6 in brackets. */
function urlHost(host: string, tls: boolean): string {
  if (tls && LOOPBACK.has(host)) return "localhost";
  return host.includes(":") ? `[${host}]` : host;
}

/** Options of a listening service. */
export interface ServerOptions extends ServiceOptions {
  /** Interface to listen on; default 127.0.0.1. */
  readonly host?: string;
  /** Port; default 8787; 0 picks a free one. */
  readonly port?: number;
  /**
   * Serve HTTPS with a fresh self-signed certificate (CN and SAN `localhost`); the base URL then names
   * `localhost` for a loopback host. With a data dir the certificate is written to `tls-cert.pem` there, for
   * clients to trust (e.g. `NODE_EXTRA_CA_CERTS`).
   */
  readonly tls?: boolean;
}

/** A running service. */
export interface RunningService {
  /** E.g. `http://127.0.0.1:8787`. */
  readonly baseUrl: string;
  /** The seed's default account and project (`acme` / `demo` for the default seed). */
  readonly accountSlug: string;
  readonly projectSlug: string;
  /** The first seeded user's access key (the one the ready line prints). */
  readonly accessKey: string;
  /** An access key for every seeded user, by username (default seed: alice, bob, carol, outsider). Secrets. */
  readonly keys: Readonly<Record<string, string>>;
  /**
   * A one-time dashboard sign-in link for the first seeded user (single use, valid 10 minutes; the ready line
   * prints it). Empty when the seed has no user.
   */
  readonly dashboardUrl: string;
  /** Issues another one-time dashboard sign-in link, for a seeded user. */
  dashboardLink(username: string): string;
  /** The app, for tests that want to look inside (e.g. the store). */
  readonly app: FastifyInstance;
  /** Issues a bearer token (JWT) for a seeded user. */
  token(username: string, ttlSeconds?: number): string;
  /** Stops listening, closes the chain engine and the database. */
  close(): Promise<void>;
}

/**
 * Builds the service and listens.
 *
 * @example
 * const service = await startServer({ port: 0, dataDir: null });
 * await fetch(`${service.baseUrl}/v1/supported-networks`);
 * await service.close();
 */
export async function startServer(options: ServerOptions = {}): Promise<RunningService> {
  const store = options.store ?? Store.open({ dataDir: options.dataDir ?? null, forkUrls: options.forkUrls });
  const host = options.host ?? DEFAULT_HOST;
  const certificate = options.tls ? generateServerCertificate() : undefined;
  if (certificate && store.dataDir !== null) writeFileSync(join(store.dataDir, TLS_CERTIFICATE_FILE), certificate.certPem);
  const app = await buildApp({ ...options, store, ...(certificate && { https: { key: certificate.keyPem, cert: certificate.certPem } }) });
  try {
    await app.listen({ host, port: options.port ?? DEFAULT_PORT });
  } catch (error) {
    await app.close();
    throw error;
  }
  const address = app.server.address();
  const port = typeof address === "object" && address ? address.port : options.port ?? DEFAULT_PORT;
  const baseUrl = options.baseUrl ?? `${certificate ? "https" : "http"}://${urlHost(host, certificate !== undefined)}:${port}`;
  app.service.baseUrl = baseUrl;
  const keys = store.accounts.keysByUsername();
  const firstUserId = store.accounts.firstUserId();
  const firstUser = firstUserId ? store.accounts.byId(firstUserId) : undefined;
  const { account, project } = defaultProject(store);
  const tokenSecret = store.secret("jwt_secret");
  const userId = (username: string) => {
    const user = store.accounts.bySlug(username);
    if (!user || user.type !== "user") throw new Error(`no seeded user named ${username}`);
    return user.id;
  };
  return {
    baseUrl,
    dashboardUrl: firstUser ? app.web.loginUrl(baseUrl, firstUser.id) : "",
    dashboardLink: (username) => app.web.loginUrl(baseUrl, userId(username)),
    accountSlug: account,
    projectSlug: project,
    accessKey: firstUser ? keys[firstUser.slug] : "",
    keys,
    app,
    token: (username, ttlSeconds) => signToken({ sub: userId(username), ttlSeconds }, tokenSecret),
    close: () => app.close(),
  };
}
