/**
 * The chainform provider: its `provider "chainform" {}` block, configured from arguments or environment variables
 * (docs/service.md), and the resources and data sources it serves. Every service call goes through the typed client.
 */
import { createClient, DEFAULT_BASE_URL, InsecureUrlError, ClientConfigError, type Client } from "../../client";
import { at, attr, defineProvider, defineSchema, isUnknown, validator } from "../framework";
import { actionStop } from "./resources/action-stop";
import { environment } from "./resources/environment";
import { deliveryChannelsDataSource } from "./data-sources/delivery-channels";
import { environmentDataSource } from "./data-sources/environment";
import { environmentsDataSource } from "./data-sources/environments";
import { projectDataSource } from "./data-sources/project";
import { projectsDataSource } from "./data-sources/projects";
import { supportedNetworksDataSource } from "./data-sources/supported-networks";

/** What every resource and data source receives: the client and what it was configured with. */
export interface ChainformProviderData {
  /** The API client. */
  readonly client: Client;
  /** The service's base URL (never contains credentials). */
  readonly baseUrl: string;
  /** Which credential is used, for diagnostics; null when none is configured. */
  readonly credential: "access key" | "bearer token" | null;
  /** Where that credential came from ("the provider's access_key", "CHAINFORM_ACCESS_KEY"). */
  readonly credentialSource: string;
  /** The account of project-scoped calls. */
  readonly accountSlug: string | undefined;
  /** The project of project-scoped calls. */
  readonly projectSlug: string | undefined;
}

const positive = validator("a number greater than 0", (n: number) => (n > 0 ? undefined : `${n} is not greater than 0`));
const count = validator("a whole number from 0 to 100", (n: number) =>
  Number.isInteger(n) && n >= 0 && n <= 100 ? undefined : `${n} is not a whole number from 0 to 100`,
);
const httpUrl = validator("an http:// or https:// URL without credentials, e.g. http://127.0.0.1:8787", (text: string) => {
  const problem = urlProblem(text);
  return problem ? `${JSON.stringify(text)} ${problem}` : undefined;
});

function urlProblem(text: string): string | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return "is not a URL";
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return `has scheme ${url.protocol}`;
  if (url.username || url.password) return "contains credentials";
  return undefined;
}

/** The `provider "chainform"` block. */
export const providerSchema = defineSchema({
  description:
    "The chainform provider: throw-away blockchain environments (forks of real networks as Virtual Environments) as Terraform resources. Every argument may come from an environment variable instead.",
  attributes: {
    // Optional
    base_url: attr.string({
      description: `Base URL of the chainform API. Environment variable: CHAINFORM_BASE_URL; default ${DEFAULT_BASE_URL}. Plain http:// only for loopback hosts.`,
      optional: true,
      validators: [httpUrl],
    }),
    access_key: attr.string({
      description: "Access key (X-Access-Key). Environment variable: CHAINFORM_ACCESS_KEY.",
      optional: true,
      sensitive: true,
    }),
    bearer_token: attr.string({
      description: "Bearer token, instead of an access key. Environment variable: CHAINFORM_BEARER_TOKEN.",
      optional: true,
      sensitive: true,
    }),
    account_slug: attr.string({ description: "Account slug of the project. Environment variable: CHAINFORM_ACCOUNT.", optional: true }),
    project_slug: attr.string({ description: "Project slug. Environment variable: CHAINFORM_PROJECT.", optional: true }),
    request_timeout_seconds: attr.number({
      description: "Timeout of one API request attempt, in seconds. Default 30.",
      optional: true,
      validators: [positive],
    }),
    max_retries: attr.number({
      description: "How many times a failed request that is safe to repeat is retried (0 to 100). Default 4.",
      optional: true,
      validators: [count],
    }),
  },
});

type ProviderConfig = { [K in keyof typeof providerSchema.attributes]: unknown };

/** A configured string, or the environment variable's value; unknown and empty count as unset. */
function setting(value: unknown, variable: string, env: NodeJS.ProcessEnv): { value: string | undefined; source: string } {
  if (typeof value === "string" && value !== "" && !isUnknown(value)) return { value, source: "the provider configuration" };
  const fromEnv = env[variable];
  return fromEnv ? { value: fromEnv, source: variable } : { value: undefined, source: "" };
}

/**
 * The provider. `configure` builds the client; a missing credential is not an error here (the supported-networks
 * lookup needs none), calls that need one fail with a diagnostic saying what to set.
 */
export const chainformProvider = defineProvider<typeof providerSchema, ChainformProviderData>({
  typeName: "chainform",
  schema: providerSchema,
  validate({ config, diagnostics }) {
    if (typeof config.access_key === "string" && typeof config.bearer_token === "string") {
      diagnostics.error("Conflicting credentials", "Set either access_key or bearer_token, not both.", at("bearer_token"));
    }
  },
  configure({ config, diagnostics }) {
    const c = config as ProviderConfig;
    const env = process.env;
    const base = setting(c.base_url, "CHAINFORM_BASE_URL", env);
    const baseUrl = (base.value ?? DEFAULT_BASE_URL).replace(/\/+$/, "");
    const key = setting(c.access_key, "CHAINFORM_ACCESS_KEY", env);
    const token = setting(c.bearer_token, "CHAINFORM_BEARER_TOKEN", env);
    const account = setting(c.account_slug, "CHAINFORM_ACCOUNT", env);
    const project = setting(c.project_slug, "CHAINFORM_PROJECT", env);
    const problem = base.value ? urlProblem(base.value) : undefined;
    if (problem) {
      diagnostics.error(
        "Invalid base URL",
        `The base URL from ${base.source} ${problem}: expected an http:// or https:// URL such as ${DEFAULT_BASE_URL}.`,
        base.source === "CHAINFORM_BASE_URL" ? undefined : at("base_url"),
      );
      return undefined as never;
    }
    const credential = key.value ? "access key" : token.value ? "bearer token" : null;
    try {
      const client = createClient({
        baseUrl,
        accessKey: key.value,
        bearerToken: key.value ? undefined : token.value,
        accountSlug: account.value,
        projectSlug: project.value,
        ...(typeof c.request_timeout_seconds === "number" ? { timeoutMs: Math.round(c.request_timeout_seconds * 1000) } : {}),
        ...(typeof c.max_retries === "number" ? { maxRetries: c.max_retries } : {}),
        userAgent: `terraform-provider-chainform (${createUserAgentSuffix()})`,
      });
      return {
        client,
        baseUrl,
        credential,
        credentialSource: credential === "access key" ? sourceName(key.source, "access_key") : sourceName(token.source, "bearer_token"),
        accountSlug: account.value,
        projectSlug: project.value,
      };
    } catch (error) {
      if (!(error instanceof InsecureUrlError || error instanceof ClientConfigError)) throw error;
      diagnostics.error(
        "Invalid provider configuration",
        `${error.shortMessage} Use https://, or a loopback host (127.0.0.1, localhost) for a local service.`,
        base.source === "CHAINFORM_BASE_URL" ? undefined : at("base_url"),
      );
      return undefined as never;
    }
  },
  resources: [environment, actionStop],
  dataSources: [
    supportedNetworksDataSource,
    projectsDataSource,
    projectDataSource,
    deliveryChannelsDataSource,
    environmentDataSource,
    environmentsDataSource,
  ],
});

function sourceName(source: string, argument: string): string {
  return source === "the provider configuration" ? `the provider's ${argument} argument` : source;
}

function createUserAgentSuffix(): string {
  return `node ${process.version}`;
}

/**
 * The account and project of project-scoped calls, or a diagnostic saying what to set.
 * @returns false (after adding the error) when either is missing
 */
export function requireProject(data: ChainformProviderData, diagnostics: import("../framework").Diagnostics, action: string): boolean {
  const missing = [
    data.accountSlug ? undefined : "account_slug (or CHAINFORM_ACCOUNT)",
    data.projectSlug ? undefined : "project_slug (or CHAINFORM_PROJECT)",
  ].filter(Boolean);
  if (missing.length === 0) return true;
  diagnostics.error(`Could not ${action}: no project selected`, `Set ${missing.join(" and ")} in the provider block or the environment.`);
  return false;
}
