/**
 * Starts the local service in-process for tests: loopback, a free port, in memory, the default seed.
 *
 * @example
 * const service = await startTestService();
 * const response = await fetch(`${service.baseUrl}/v1/account/acme/projects`, {
 *   headers: { "X-Access-Key": service.keys.alice },
 * });
 * await service.close();
 */
import { startServer, type RunningService, type ServerOptions } from "../../lib/service/listen";
import type { RateLimitSettings } from "../../lib/service/rate-limit";
import { createClient, type Client } from "../../lib/client";

/** Limits high enough that no test trips them by accident; pass `rateLimits` to test limiting. */
export const TEST_RATE_LIMITS: RateLimitSettings = {
  windowMs: 60_000,
  rateLimit: 1_000_000,
  burstLimit: 1_000_000,
  unauthenticatedLimit: 1_000_000,
  rpcLimit: 1_000_000,
};

/** Options of a test service: any service option; rate limits default to `TEST_RATE_LIMITS`. */
export type TestServiceOptions = Omit<ServerOptions, "rateLimits" | "host" | "port"> & {
  readonly rateLimits?: Partial<RateLimitSettings>;
};

/** A running test service: base URL, the default account/project, a key per seeded user, `token()`, `close()`. */
export interface TestService extends RunningService {
  /** Keys of the default seed's principals: alice (owner), bob (read-only member), carol (pending), outsider. */
  readonly keys: Readonly<Record<"alice" | "bob" | "carol" | "outsider", string>> & Readonly<Record<string, string>>;
  /** `{ "X-Access-Key": key }` of a principal, for fetch/undici headers. */
  headersOf(username: string): Record<string, string>;
}

/**
 * Starts the service on 127.0.0.1, port 0, in memory (unless `dataDir` is given). Close it in `afterAll`.
 */
export async function startTestService(options: TestServiceOptions = {}): Promise<TestService> {
  const service = await startServer({
    dataDir: null,
    ...options,
    host: "127.0.0.1",
    port: 0,
    rateLimits: { ...TEST_RATE_LIMITS, ...options.rateLimits },
  });
  return {
    ...service,
    keys: service.keys as TestService["keys"],
    headersOf(username) {
      const key = service.keys[username];
      if (!key) throw new Error(`no seeded user named ${username}`);
      return { "X-Access-Key": key };
    },
  };
}

/** A client of a test service as its first user (alice), on the default account and project. Close it after use. */
export function clientFor(service: Pick<RunningService, "baseUrl" | "accessKey" | "accountSlug" | "projectSlug">): Client {
  return createClient({
    baseUrl: service.baseUrl,
    accessKey: service.accessKey,
    accountSlug: service.accountSlug,
    projectSlug: service.projectSlug,
  });
}

/** The environments path of a service's default account and project (a test service, or one run as a process). */
export function environmentsPath(service: Pick<RunningService, "accountSlug" | "projectSlug">): string {
  return `/public/v1/account/${service.accountSlug}/project/${service.projectSlug}/environments`;
}

/** Services a test starts and stops in turn (runs on one data dir); closeAll() in afterAll closes those still up. */
export interface ServiceRuns {
  /** Starts a test service and keeps it until stop() or closeAll(). */
  start(options: TestServiceOptions): Promise<TestService>;
  /** Closes a service start() gave. */
  stop(service: TestService): Promise<void>;
  /** Closes every service still up, one after the other. */
  closeAll(): Promise<void>;
}

/** Keeps the services of a test that restarts the service, so that afterAll closes whatever a failing test left up. */
export function serviceRuns(): ServiceRuns {
  const running: TestService[] = [];
  return {
    async start(options) {
      const service = await startTestService(options);
      running.push(service);
      return service;
    },
    async stop(service) {
      running.splice(running.indexOf(service), 1);
      await service.close();
    },
    async closeAll() {
      for (const service of [...running]) await service.close();
    },
  };
}
