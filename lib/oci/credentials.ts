/**
 * The credentials chainform presents to a registry, found where a CI job already keeps them (docs/oci-store.md):
 * 1. `CHAINFORM_OCI_USERNAME` and `CHAINFORM_OCI_PASSWORD` (a token works as the password);
 * 2. for GitHub's registry (`ghcr.io`), `GITHUB_TOKEN`, with `GITHUB_ACTOR` as the user;
 * 3. the Docker config (`$DOCKER_CONFIG/config.json`, else `~/.docker/config.json`), as `docker login` writes it:
 *    `auths[registry].auth` (base64 of `user:password`) or `username`/`password`, or an `identitytoken`.
 * Credential helpers (`credsStore`, `credHelpers`) run other programs and are not consulted: the first of the three
 * sources above that has an entry is used, and a registry with none is asked anonymously.
 */
import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

/** A user name and a secret (a password or a token). */
export interface RegistryCredentials {
  readonly username: string;
  readonly password: string;
  /** Where they came from, for messages (never the secret itself). */
  readonly source: string;
}

/** The variables and files consulted; tests pass their own. */
export interface CredentialSources {
  readonly env?: NodeJS.ProcessEnv;
  readonly home?: string;
}

/**
 * The credentials for `registry` (`host[:port]`), or undefined when none is configured.
 * @example
 * const credentials = credentialsFor("ghcr.io"); // GITHUB_TOKEN in a GitHub Actions job
 */
export function credentialsFor(registry: string, sources: CredentialSources = {}): RegistryCredentials | undefined {
  const env = sources.env ?? process.env;
  if (env.CHAINFORM_OCI_USERNAME && env.CHAINFORM_OCI_PASSWORD) {
    return { username: env.CHAINFORM_OCI_USERNAME, password: env.CHAINFORM_OCI_PASSWORD, source: "CHAINFORM_OCI_USERNAME" };
  }
  if (registry === "ghcr.io" && env.GITHUB_TOKEN) {
    return { username: env.GITHUB_ACTOR || "github-actions", password: env.GITHUB_TOKEN, source: "GITHUB_TOKEN" };
  }
  return fromDockerConfig(registry, env, sources.home ?? homedir());
}

interface DockerAuth {
  readonly auth?: unknown;
  readonly username?: unknown;
  readonly password?: unknown;
  readonly identitytoken?: unknown;
}

function fromDockerConfig(registry: string, env: NodeJS.ProcessEnv, home: string): RegistryCredentials | undefined {
  const path = join(env.DOCKER_CONFIG || join(home, ".docker"), "config.json");
  let auths: Record<string, DockerAuth>;
  try {
    const config = JSON.parse(readFileSync(path, "utf8")) as { auths?: unknown };
    if (typeof config.auths !== "object" || config.auths === null) return undefined;
    auths = config.auths as Record<string, DockerAuth>;
  } catch {
    return undefined; // no config, or one that is not JSON: anonymous, as docker itself would be
  }
  // docker login keys an entry by the host, or by a URL of it (Docker Hub's historic form).
  const entry = [registry, `https://${registry}`, `http://${registry}`, `https://${registry}/v1/`, `https://${registry}/v2/`]
    .map((key) => (Object.hasOwn(auths, key) ? auths[key] : undefined))
    .find((value) => typeof value === "object" && value !== null);
  if (!entry) return undefined;
  const source = `${path} auths[${registry}]`;
  if (typeof entry.identitytoken === "string" && entry.identitytoken !== "") {
    // An OAuth2 refresh token: the token endpoint takes it as the password of the special user below.
    return { username: "<token>", password: entry.identitytoken, source };
  }
  if (typeof entry.auth === "string" && entry.auth !== "") {
    const decoded = Buffer.from(entry.auth, "base64").toString("utf8");
    const colon = decoded.indexOf(":");
    if (colon > 0) return { username: decoded.slice(0, colon), password: decoded.slice(colon + 1), source };
  }
  if (typeof entry.username === "string" && typeof entry.password === "string") {
    return { username: entry.username, password: entry.password, source };
  }
  return undefined;
}
