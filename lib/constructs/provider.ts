import { Annotations, type TerraformProvider } from "cdktf";
import { Construct } from "constructs";
import * as provider from "./generated/provider";
import { checkRules, isToken, throwIfProblems, type Rule } from "./validation";

/**
 * Settings of the chainform provider. Every one is optional: what is left out, the provider itself reads from
 * its environment variables when Terraform runs (`CHAINFORM_BASE_URL`, `CHAINFORM_ACCESS_KEY`,
 * `CHAINFORM_BEARER_TOKEN`, `CHAINFORM_ACCOUNT`, `CHAINFORM_PROJECT`, `CHAINFORM_CA_FILE`). This construct never reads them at synth, so
 * no credential ends up in `cdktf.out`.
 */
export interface ChainformProviderProps {
  /**
   * Base URL of the chainform API.
   * @default - `CHAINFORM_BASE_URL`, else `http://127.0.0.1:8787`
   */
  readonly baseUrl?: string;
  /**
   * Access key. A literal is written in clear to the synthesized JSON: prefer the environment variable, or a
   * `TerraformVariable` marked `sensitive`.
   * @default - `CHAINFORM_ACCESS_KEY`
   */
  readonly accessKey?: string;
  /**
   * Bearer token, instead of an access key. Same caution as `accessKey`.
   * @default - `CHAINFORM_BEARER_TOKEN`
   */
  readonly bearerToken?: string;
  /**
   * Account slug of the project.
   * @default - `CHAINFORM_ACCOUNT`
   */
  readonly accountSlug?: string;
  /**
   * Project slug.
   * @default - `CHAINFORM_PROJECT`
   */
  readonly projectSlug?: string;
  /**
   * Timeout of one API request, in seconds.
   * @default - the provider's default
   */
  readonly requestTimeoutSeconds?: number;
  /**
   * A PEM file of certificates to trust besides the system's, e.g. the `tls-cert.pem` of `chainform serve --tls`.
   * @default - `CHAINFORM_CA_FILE`
   */
  readonly caFile?: string;
  /**
   * When an Environment's create finds its slug taken (for example, the service committed a create but died
   * before answering), adopt that environment if its display name, slug and networks match, instead of failing.
   * The provider's `adopt_existing`.
   * @default - `CHAINFORM_ADOPT_EXISTING`, else false
   */
  readonly adoptExisting?: boolean;
  /**
   * How many times a failed idempotent request is retried.
   * @default - the provider's default
   */
  readonly maxRetries?: number;
  /**
   * Whether `chainform_environment` keeps Admin RPC URLs in Terraform state. `false` keeps these secrets out of state
   * and plan files; `adminRpcUrl()` of the environment constructs then resolves to nothing, and tests read the URL
   * from the API instead (docs/secrets.md).
   * @default - `CHAINFORM_ADMIN_RPC_URLS_IN_STATE`, else true
   */
  readonly adminRpcUrlsInState?: boolean;
  /**
   * Alias of this provider configuration, to use several in one stack (pass it as `provider` to the constructs).
   * @default - the default configuration
   */
  readonly alias?: string;
}

const RULES: readonly Rule<ChainformProviderProps>[] = [
  {
    reads: (p) => [p.baseUrl],
    check: (p) => {
      if (p.baseUrl === undefined) return undefined;
      const ok = URL.canParse(p.baseUrl) && ["http:", "https:"].includes(new URL(p.baseUrl).protocol);
      return ok ? undefined : `baseUrl ${JSON.stringify(p.baseUrl)} is not an http(s) URL, e.g. "http://127.0.0.1:8787"`;
    },
  },
  {
    reads: (p) => [p.requestTimeoutSeconds],
    check: (p) =>
      p.requestTimeoutSeconds !== undefined && !(p.requestTimeoutSeconds > 0)
        ? `requestTimeoutSeconds must be a positive number of seconds, got ${p.requestTimeoutSeconds}`
        : undefined,
  },
  {
    reads: (p) => [p.maxRetries],
    check: (p) =>
      p.maxRetries !== undefined && !(Number.isInteger(p.maxRetries) && p.maxRetries >= 0)
        ? `maxRetries must be a whole number of retries (0 or more), got ${p.maxRetries}`
        : undefined,
  },
];

/**
 * The chainform provider configuration of a stack.
 * @example
 * new ChainformProvider(this, "chainform"); // configured from the CHAINFORM_* environment variables
 */
export class ChainformProvider extends Construct {
  /** The generated provider binding this construct configures. */
  public readonly resource: provider.ChainformProvider;

  public constructor(scope: Construct, id: string, props: ChainformProviderProps = {}) {
    super(scope, id);
    throwIfProblems(this, checkRules(RULES, props));
    for (const secret of ["accessKey", "bearerToken"] as const) {
      const value = props[secret];
      if (value !== undefined && !isToken(value)) {
        Annotations.of(this).addWarning(
          `${secret} is a literal: it is written in clear to cdktf.out. Leave it out to use the provider's environment variable, or pass a sensitive TerraformVariable.`,
        );
      }
    }
    this.resource = new provider.ChainformProvider(this, "Resource", { ...props });
  }
}

/** A provider for the `provider` prop of the constructs: this construct's binding, or any Terraform provider. */
export type ProviderRef = ChainformProvider | TerraformProvider;

/** The Terraform provider behind a {@link ProviderRef}. */
export function terraformProvider(ref: ProviderRef | undefined): TerraformProvider | undefined {
  return ref instanceof ChainformProvider ? ref.resource : ref;
}
