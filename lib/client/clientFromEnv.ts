import type { ClientOptions } from "./client";
import { createClient, type Client } from "./createClient";

/** The base URL used when neither the overrides nor CHAINFORM_BASE_URL give one: the local service. */
export const DEFAULT_BASE_URL = "http://127.0.0.1:8787";

/**
 * Reads the client settings from the environment (docs/service.md): `CHAINFORM_BASE_URL` (default
 * `http://127.0.0.1:8787`), `CHAINFORM_ACCESS_KEY`, `CHAINFORM_BEARER_TOKEN`, `CHAINFORM_ACCOUNT`,
 * `CHAINFORM_PROJECT`, `CHAINFORM_CA_FILE` (a PEM file of certificates to trust, e.g. that of `chainform serve
 * --tls`). Empty variables count as unset. `overrides` win over the environment.
 */
export function optionsFromEnv(overrides: Partial<ClientOptions> = {}, env: NodeJS.ProcessEnv = process.env): ClientOptions {
  const read = (name: string) => (env[name] ? env[name] : undefined);
  return {
    baseUrl: read("CHAINFORM_BASE_URL") ?? DEFAULT_BASE_URL,
    accessKey: read("CHAINFORM_ACCESS_KEY"),
    bearerToken: read("CHAINFORM_BEARER_TOKEN"),
    accountSlug: read("CHAINFORM_ACCOUNT"),
    projectSlug: read("CHAINFORM_PROJECT"),
    caFile: read("CHAINFORM_CA_FILE"),
    ...Object.fromEntries(Object.entries(overrides).filter(([, value]) => value !== undefined)),
  };
}

/**
 * Creates a client configured from the CHAINFORM_* environment variables, with `overrides` on top.
 *
 * @example
 * // CHAINFORM_ACCESS_KEY=... CHAINFORM_ACCOUNT=acme CHAINFORM_PROJECT=demo node script.js
 * const client = clientFromEnv({ timeoutMs: 10_000 })
 * console.log(await client.listEnvironments())
 */
export function clientFromEnv(overrides: Partial<ClientOptions> = {}, env: NodeJS.ProcessEnv = process.env): Client {
  return createClient(optionsFromEnv(overrides, env));
}
