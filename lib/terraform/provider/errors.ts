/**
 * Turns what the client throws into diagnostics that say what is wrong and what to do, quoting the service's
 * `error.id`. Client errors never contain credentials or Admin RPC secrets, and nothing here adds any.
 */
import {
  ApiError,
  CertificateError,
  ClientConfigError,
  ConnectionError,
  InsecureUrlError,
  InvalidResponseError,
  RateLimitError,
  TimeoutError,
  describeAttempts,
} from "../../client";
import type { Diagnostics, PathStep, ValuePath } from "../framework";
import type { ChainformProviderData } from "./provider-data";

/** Where the failed call came from, for the diagnostic's wording and path. */
export interface ErrorContext {
  /** What was being done, as a verb phrase: "create the environment". */
  readonly action: string;
  /** The attribute the failure is about, when known. */
  readonly path?: ValuePath;
  /** Maps the service's `data.field` JSON pointer (`/network_configs/0/network_id`) to an attribute path. */
  readonly fieldPath?: (pointer: string) => ValuePath | undefined;
}

/**
 * Adds one error diagnostic for `error`. Bugs (anything not from the client) are rethrown.
 * @example
 * try { env = await client.createEnvironment(request); } catch (e) { return void reportError(diagnostics, data, e, { action: "create the environment" }); }
 */
export function reportError(diagnostics: Diagnostics, data: ChainformProviderData, error: unknown, context: ErrorContext): void {
  const { action } = context;
  const where = `the chainform service at ${data.baseUrl}`;
  if (error instanceof RateLimitError) {
    diagnostics.error(
      `Could not ${action}: rate limited`,
      `${where} kept answering 429 Too Many Requests (${describeAttempts(error)}); try again in ${Math.ceil(error.retryAfterMs / 1000)} s, or raise max_retries.${errorIdOf(error)}`,
      context.path,
    );
  } else if (error instanceof ApiError) {
    diagnostics.error(...apiError(error, data, context));
  } else if (error instanceof TimeoutError) {
    diagnostics.error(
      `Could not ${action}: the service did not answer in time`,
      `No answer from ${where} within ${error.timeoutMs / 1000} s per attempt (${describeAttempts(error)}). Check the service, or raise request_timeout_seconds.`,
      context.path,
    );
  } else if (error instanceof CertificateError) {
    diagnostics.error(
      `Could not ${action}: the service's certificate is not trusted`,
      error.code === "ERR_TLS_CERT_ALTNAME_INVALID"
        ? `The TLS certificate of ${where} does not name that host. Use a base_url whose host the certificate names (\`chainform serve\` prints one in its ready line).`
        : `The TLS certificate of ${where} is not trusted (${error.code}). For a service started with \`chainform serve --tls\`, set ca_file (or CHAINFORM_CA_FILE) to the certificate file named in its ready line (caFile).`,
      context.path,
    );
  } else if (error instanceof ConnectionError) {
    diagnostics.error(
      `Could not ${action}: cannot reach the service`,
      `Connecting to ${where} failed (${error.code ?? "connection error"}, ${describeAttempts(error)}). Check base_url (or CHAINFORM_BASE_URL) and that the service is running (\`chainform serve\`).`,
      context.path,
    );
  } else if (error instanceof InsecureUrlError || error instanceof ClientConfigError) {
    diagnostics.error(
      `Could not ${action}: the provider is misconfigured`,
      `${error.shortMessage} ${error.details ?? ""}`.trim(),
      context.path,
    );
  } else if (error instanceof InvalidResponseError) {
    diagnostics.error(
      `Could not ${action}: unexpected answer`,
      `${where} answered ${error.status} with a body this provider does not understand: ${error.shortMessage}. Check that base_url points at a chainform service.`,
      context.path,
    );
  } else {
    throw error;
  }
}

function apiError(error: ApiError, data: ChainformProviderData, context: ErrorContext): [string, string, ValuePath | undefined] {
  const { action } = context;
  const said = `The service said: ${error.serviceMessage || "(no message)"}${errorIdOf(error)}`;
  switch (error.status) {
    case 401:
      return [
        `Could not ${action}: authentication failed (401)`,
        data.credential === null
          ? `No credentials are configured. Set access_key in the provider block or CHAINFORM_ACCESS_KEY (or bearer_token / CHAINFORM_BEARER_TOKEN). ${said}`
          : `The service rejected the ${data.credential} from ${data.credentialSource}. Check that it is current and belongs to this service (${data.baseUrl}); the value is not shown here. ${said}`,
        context.path,
      ];
    case 403:
      return [
        `Could not ${action}: permission denied (403)`,
        `The ${data.credential ?? "credentials"} may not do this in ${data.accountSlug ?? "?"}/${data.projectSlug ?? "?"} (read-only keys cannot create or delete). ${said}`,
        context.path,
      ];
    case 404:
      return [
        `Could not ${action}: not found (404)`,
        `${said}. Check account_slug and project_slug (or CHAINFORM_ACCOUNT / CHAINFORM_PROJECT): now ${data.accountSlug ?? "unset"}/${data.projectSlug ?? "unset"}.`,
        context.path,
      ];
    default: {
      const field = typeof error.data?.["field"] === "string" ? (error.data["field"] as string) : undefined;
      const path = (field && context.fieldPath?.(field)) || context.path;
      const hint =
        error.status >= 500
          ? ` This is a problem of the service; retry later.${error.attempts > 1 ? ` The provider gave up after ${describeAttempts(error)}.` : ""}`
          : " Fix the configuration and plan again.";
      return [`Could not ${action}: the service answered ${error.status}${error.slug ? ` ${error.slug}` : ""}`, `${said}.${hint}`, path];
    }
  }
}

function errorIdOf(error: ApiError): string {
  return error.errorId ? ` (error id ${error.errorId})` : "";
}

/**
 * Maps a JSON pointer into a create-environment request to the attribute path of the resource:
 * `/network_configs/1/accounts/0/balance` → `network_config[1].account[0].balance`.
 */
export function environmentFieldPath(pointer: string): ValuePath | undefined {
  const names: Record<string, string> = {
    network_configs: "network_config",
    accounts: "account",
    bridge_config: "bridge",
    explorer_config: "explorer",
    chain_config_overrides: "",
  };
  const path: PathStep[] = [];
  for (const part of pointer.split("/").filter(Boolean)) {
    if (/^\d+$/.test(part)) path.push({ index: Number(part) });
    else if (part in names) {
      if (names[part]) path.push({ attribute: names[part]! });
      // Single blocks are lists of one in this schema.
      if (part === "bridge_config" || part === "explorer_config") path.push({ index: 0 });
    } else path.push({ attribute: part });
  }
  return path.length > 0 ? path : undefined;
}
