/**
 * Starts the local service on a port: `chainform serve`, `chainform up` and in-process tests use it. It composes the
 * service's three plugins, which know nothing of each other: the API (./app.ts, the control plane), the RPC URLs
 * (./rpc, the data plane) and the web UI (lib/web); then listens, and tells the app its base URL (the RPC URLs are
 * built on it). Off loopback it serves HTTPS only, unless told `insecureHttp` (lib/service/https has the rules).
 */
import { rmSync } from "node:fs";
import type { FastifyInstance } from "fastify";
import { buildApp, openStore, type ServiceOptions } from "./app";
import { registerRpc } from "./rpc";
import { rpcLimits } from "./caller-limits";
import { limitConnections } from "./connection-limits";
import { serviceForWeb } from "./web-interface";
import { registerWeb } from "../web";
import { signToken } from "./auth";
import { defaultProject } from "./seed";
import { isLoopbackHost } from "../domain/loopback";
import {
  baseUrlFor,
  certificateNames,
  checkBind,
  checkPublicUrl,
  insecureHttpWarning,
  selfSignedCertificate,
  type ServiceCertificate,
} from "./https";

/** Default port of `chainform serve`. */
export const DEFAULT_PORT = 8787;
/** Default host: loopback only. */
export const DEFAULT_HOST = "127.0.0.1";

/** Options of a listening service. */
export interface ServerOptions extends ServiceOptions {
  /** Interface to listen on; default 127.0.0.1. */
  readonly host?: string;
  /** Port; default 8787; 0 picks a free one. */
  readonly port?: number;
  /**
   * Serve HTTPS with a self-signed certificate naming localhost, the machine's host name and the bound addresses
   * (every interface's for a wildcard bind). With a data dir it is kept there (`tls-cert.pem`, `tls-key.pem`) and
   * reused while it still fits; `caFile` names the file clients trust (CHAINFORM_CA_FILE).
   */
  readonly tls?: boolean;
  /** Serve HTTPS with this certificate (PEM, chain allowed) and key instead (`--tls-cert`, `--tls-key`). */
  readonly certificate?: { readonly certPem: string; readonly keyPem: string };
  /** Allow plain HTTP on a host that is not loopback (`--insecure-http`); `warnings` then says so. */
  readonly insecureHttp?: boolean;
  /** The base URL clients use, when it is not the bound address (`--public-url`, e.g. behind a proxy). */
  readonly publicUrl?: string;
  /** The machine's host name, for a wildcard bind's base URL and certificate; default `os.hostname()`. */
  readonly hostname?: string;
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
  /** The file of the self-signed certificate (`tls` only), for clients to trust: CHAINFORM_CA_FILE, `ca_file`. */
  readonly caFile: string | undefined;
  /** What the operator must hear on every start (plain HTTP off loopback). */
  readonly warnings: readonly string[];
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
 * The whole service, not listening: the API, then the RPC URLs (whose transport answers ahead of the API's routes)
 * and the web UI, each a plugin of the one app.
 *
 * @example
 * const app = await buildService({ dataDir: null });
 */
export async function buildService(options: ServiceOptions = {}): Promise<FastifyInstance> {
  const app = await buildApp(options);
  try {
    await registerRpc(app, options.rpcLimits);
    const { limiter, rateLimits } = app.service;
    limitConnections(app.server, rpcLimits(options.rpcLimits), (address) =>
      limiter.take(`ip:${address}`, rateLimits.unauthenticatedLimit, rateLimits.burstLimit, false),
    );
    await registerWeb(app, serviceForWeb(app.service.store, app.service.engine));
    app.service.verifier = app.web.verifier;
  } catch (error) {
    await app.close();
    throw error;
  }
  return app;
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
  const host = options.host ?? DEFAULT_HOST;
  const tls = options.tls === true || options.certificate !== undefined;
  const publicUrl = options.publicUrl === undefined ? undefined : checkPublicUrl(options.publicUrl);
  checkBind(host, tls, options.insecureHttp === true);
  const store = options.store ?? openStore(options);
  const certificate: ServiceCertificate | undefined = options.certificate
    ? { ...options.certificate, caFile: undefined }
    : options.tls
      ? selfSignedCertificate(certificateNames({ host, publicUrl, hostname: options.hostname }), store.dataDir)
      : undefined;
  const app = await buildService({
    ...options,
    store,
    ...(certificate && { https: { key: certificate.keyPem, cert: certificate.certPem } }),
  }).catch((error: unknown) => {
    if (!options.store) store.close(); // releases the data dir's lock
    throw error;
  });
  try {
    await app.listen({ host, port: options.port ?? DEFAULT_PORT });
  } catch (error) {
    await app.close();
    throw error;
  }
  const address = app.server.address();
  const port = typeof address === "object" && address ? address.port : (options.port ?? DEFAULT_PORT);
  const baseUrl = options.baseUrl ?? baseUrlFor({ host, port, tls, publicUrl, hostname: options.hostname });
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
    caFile: certificate?.caFile,
    warnings: !tls && !isLoopbackHost(host) ? [insecureHttpWarning(host)] : [],
    app,
    token: (username, ttlSeconds) => signToken({ sub: userId(username), ttlSeconds }, tokenSecret),
    async close() {
      await app.close();
      if (certificate?.temporaryDir) rmSync(certificate.temporaryDir, { recursive: true, force: true });
    },
  };
}
