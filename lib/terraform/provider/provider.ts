/**
 * The chainform provider: its `provider "chainform" {}` block, configured from arguments or environment variables
 * (docs/service.md), and the resources and data sources it serves. Every service call goes through the typed client.
 */
import { createClient, DEFAULT_BASE_URL, InsecureUrlError, ClientConfigError } from "../../client";
import { at, attr, defineProvider, defineSchema, isUnknown, validator } from "../framework";
import { actionStop } from "./resources/action-stop";
import { environment } from "./resources/environment";
import { contract } from "./resources/contract";
import { erc20Balance } from "./resources/erc20-balance";
import { snapshot } from "./resources/snapshot";
import { contractCallDataSource } from "./data-sources/contract-call";
import { deliveryChannelsDataSource } from "./data-sources/delivery-channels";
import { environmentDataSource } from "./data-sources/environment";
import { environmentsDataSource } from "./data-sources/environments";
import { projectDataSource } from "./data-sources/project";
import { projectsDataSource } from "./data-sources/projects";
import { supportedNetworksDataSource } from "./data-sources/supported-networks";
import { adminRpc } from "./ephemeral-resources/admin-rpc";
import { chainformFunctions } from "./functions";
import type { ChainformProviderData } from "./provider-data";
import { planLookups } from "./plan-lookups";

export type { ChainformProviderData } from "./provider-data";
export { requireProject } from "./provider-data";

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
    ca_file: attr.string({
      description:
        "A PEM file of certificates to trust besides the system's, e.g. the tls-cert.pem of a service started with `chainform serve --tls`. Environment variable: CHAINFORM_CA_FILE.",
      optional: true,
    }),
    adopt_existing: attr.bool({
      description:
        "When a chainform_environment's create finds its slug taken (e.g. the service committed a create but died before answering), adopt that environment instead of failing, if its display name, slug and networks (with fork blocks) match the configuration. Accounts, chain-id overrides, explorer and bridge settings are not in the service's answer and are trusted. Environment variable: CHAINFORM_ADOPT_EXISTING (true/false); default false.",
      optional: true,
    }),
    admin_rpc_urls_in_state: attr.bool({
      description:
        "Whether chainform_environment (resource and data source) keeps Admin RPC URLs in state (admin_rpc_urls, vnets[*].admin_rpc_url). Default true, for configurations that output them. Set false to keep these credentials out of state and plan files: the attributes are then empty and null, the chain-state resources keep working (they reach the chain through the service), and the ephemeral chainform_admin_rpc (Terraform 1.10 and later) gives the URL during a run without storing it. See docs/secrets.md. Environment variable: CHAINFORM_ADMIN_RPC_URLS_IN_STATE (true/false).",
      optional: true,
    }),
    max_retries: attr.number({
      description:
        "How many times a failed request that is safe to repeat is retried (0 to 100; a 429 does not count, the 60 s retry deadline bounds it). Default 8.",
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
    const caFile = setting(c.ca_file, "CHAINFORM_CA_FILE", env);
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
        caFile: caFile.value,
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
        adoptExisting: typeof c.adopt_existing === "boolean" ? c.adopt_existing : env["CHAINFORM_ADOPT_EXISTING"] === "true",
        adminRpcUrlsInState:
          typeof c.admin_rpc_urls_in_state === "boolean" ? c.admin_rpc_urls_in_state : env["CHAINFORM_ADMIN_RPC_URLS_IN_STATE"] !== "false",
        caFile: caFile.value,
        lookups: planLookups(client),
        configUnknown: [c.base_url, c.access_key, c.bearer_token, c.account_slug, c.project_slug].some((value) => isUnknown(value)),
      };
    } catch (error) {
      if (!(error instanceof InsecureUrlError || error instanceof ClientConfigError)) throw error;
      if (error instanceof ClientConfigError && error.option === "caFile") {
        diagnostics.error(
          "Invalid CA file",
          `${error.shortMessage} (from ${sourceName(caFile.source, "ca_file")}) ${error.details}`,
          caFile.source === "CHAINFORM_CA_FILE" ? undefined : at("ca_file"),
        );
        return undefined as never;
      }
      diagnostics.error(
        "Invalid provider configuration",
        `${error.shortMessage} Use https://, or a loopback host (127.0.0.1, localhost) for a local service.`,
        base.source === "CHAINFORM_BASE_URL" ? undefined : at("base_url"),
      );
      return undefined as never;
    }
  },
  resources: [environment, actionStop, contract, erc20Balance, snapshot],
  dataSources: [
    supportedNetworksDataSource,
    projectsDataSource,
    projectDataSource,
    deliveryChannelsDataSource,
    environmentDataSource,
    environmentsDataSource,
    contractCallDataSource,
  ],
  ephemeralResources: [adminRpc],
  functions: chainformFunctions,
});

function sourceName(source: string, argument: string): string {
  return source === "the provider configuration" ? `the provider's ${argument} argument` : source;
}

function createUserAgentSuffix(): string {
  return `node ${process.version}`;
}
