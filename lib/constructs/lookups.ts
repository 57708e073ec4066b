import { FOR_EXPRESSION_VALUE, Token, forExpression, propertyAccess } from "cdktf";
import { Construct } from "constructs";
import { SUPPORTED_FEATURES, type SupportedFeature } from "../domain/constants";
import * as dataProject from "./generated/data-chainform-project";
import * as dataSupportedNetworks from "./generated/data-chainform-supported-networks";
import { terraformProvider, type ProviderRef } from "./provider";
import { checkRules, throwIfProblems, type Rule } from "./validation";

/** Properties of {@link SupportedNetworks}. */
export interface SupportedNetworksProps {
  /**
   * Only networks that support this feature.
   * @default - every supported network
   */
  readonly feature?: SupportedFeature;
  /**
   * The provider configuration to use.
   * @default - the stack's default chainform provider
   */
  readonly provider?: ProviderRef;
}

const FEATURE_RULES: readonly Rule<SupportedNetworksProps>[] = [
  {
    reads: (p) => [p.feature],
    check: (p) =>
      p.feature === undefined || (SUPPORTED_FEATURES as readonly string[]).includes(p.feature)
        ? undefined
        : `feature ${JSON.stringify(p.feature)} must be one of ${SUPPORTED_FEATURES.map((f) => JSON.stringify(f)).join(", ")}`,
  },
];

/**
 * The networks chainform supports, read by Terraform (`chainform_supported_networks`).
 * @example
 * const forkable = SupportedNetworks.withFeature(this, "forkable", "virtual_testnet");
 * new TerraformOutput(this, "forkable_ids", { value: forkable.networkIds });
 */
export class SupportedNetworks extends Construct {
  /** The networks supporting `feature`. */
  public static withFeature(scope: Construct, id: string, feature: SupportedFeature): SupportedNetworks {
    return new SupportedNetworks(scope, id, { feature });
  }

  /** The generated `chainform_supported_networks` binding. */
  public readonly resource: dataSupportedNetworks.DataChainformSupportedNetworks;

  public constructor(scope: Construct, id: string, props: SupportedNetworksProps = {}) {
    super(scope, id);
    throwIfProblems(this, checkRules(FEATURE_RULES, props));
    this.resource = new dataSupportedNetworks.DataChainformSupportedNetworks(this, "Resource", {
      feature: props.feature,
      provider: terraformProvider(props.provider),
    });
  }

  /** The networks, as a list whose elements have token getters (`.get(0).networkName`). */
  public get networks(): dataSupportedNetworks.DataChainformSupportedNetworksNetworksList {
    return this.resource.networks;
  }

  /** The ids (chain ids) of the networks, usable as `networkId` (a token list). */
  public get networkIds(): string[] {
    return Token.asList(
      forExpression(this.resource.interpolationForAttribute("networks"), propertyAccess(FOR_EXPRESSION_VALUE, ["chain_id"])),
    );
  }
}

/** Properties of {@link Project}. */
export interface ProjectProps {
  /** The project's slug. */
  readonly slug: string;
  /**
   * The account the project belongs to.
   * @default - the provider's account
   */
  readonly accountSlug?: string;
  /**
   * The provider configuration to use.
   * @default - the stack's default chainform provider
   */
  readonly provider?: ProviderRef;
}

/**
 * An existing project, read by Terraform (`chainform_project`).
 * @example
 * const demo = Project.fromSlug(this, "demo", "demo", { accountSlug: "acme" });
 * new TerraformOutput(this, "owner", { value: demo.ownerId });
 */
export class Project extends Construct {
  /** The project `slug` of the provider's account, or of `options.accountSlug`. */
  public static fromSlug(scope: Construct, id: string, slug: string, options: Omit<ProjectProps, "slug"> = {}): Project {
    return new Project(scope, id, { ...options, slug });
  }

  /** The generated `chainform_project` binding. */
  public readonly resource: dataProject.DataChainformProject;

  public constructor(scope: Construct, id: string, props: ProjectProps) {
    super(scope, id);
    this.resource = new dataProject.DataChainformProject(this, "Resource", {
      slug: props.slug,
      accountSlug: props.accountSlug,
      provider: terraformProvider(props.provider),
    });
  }

  /** The project's id (a token). */
  public get projectId(): string {
    return this.resource.id;
  }

  /** The project's name (a token). */
  public get projectName(): string {
    return this.resource.name;
  }

  /** The id of the project's owner (a token). */
  public get ownerId(): string {
    return this.resource.ownerId;
  }

  /** When the project was created, ISO 8601 (a token). */
  public get createdAt(): string {
    return this.resource.createdAt;
  }

  /** How many users the project has (a token). */
  public get numberOfUsers(): number {
    return this.resource.numberOfUsers;
  }
}
