/**
 * What every environment of a stack offers, created here or looked up (aws-cdk's `QueueBase` pattern): the
 * `IEnvironment` interface that other constructs (contracts, balances, snapshots) take, and `EnvironmentBase`, which
 * implements it over any construct with the provider's environment attributes. It lives apart from ./environment.ts
 * so that the constructs that take an environment need not import the one that makes them (./contract.ts is both
 * taken by and made from `Environment`).
 */
import { FOR_EXPRESSION_VALUE, Fn, Token, forExpression, propertyAccess, type IResolvable } from "cdktf";
import { Construct } from "constructs";

/** The Virtual Environment of one network of an environment, as tokens resolved by Terraform. */
export interface VnetAttributes {
  /** Identifier of the Virtual Environment. */
  readonly id: string;
  /** Slug of the Virtual Environment. */
  readonly slug: string;
  /** Status, e.g. `running`. */
  readonly status: string;
  /** The chain id it answers with, as a decimal string (exact at any size; the provider's `vnets[*].chain_id`). */
  readonly chainId: string;
  /** Public RPC URL. */
  readonly publicRpcUrl: string;
  /** Admin RPC URL: a secret, so outputs of it need `sensitive: true`. */
  readonly adminRpcUrl: string;
}

/** What an environment, created here or looked up, gives the rest of a stack. */
export interface IEnvironment {
  /** The environment's id (a token). */
  readonly environmentId: string;
  /** The environment's slug (a token). */
  readonly environmentSlug: string;
  /** The id of its active instance (a token). */
  readonly instanceId: string;
  /** The Public RPC URL of the Virtual Environment forking `networkId`. */
  publicRpcUrl(networkId: string): string;
  /** The Admin RPC URL of the Virtual Environment forking `networkId`: a secret. */
  adminRpcUrl(networkId: string): string;
  /** Every attribute of the Virtual Environment forking `networkId`. */
  vnet(networkId: string): VnetAttributes;
}

/** What an environment resource and the environment data source share: `vnets` and the RPC URL maps. */
export interface EnvironmentState extends Construct {
  interpolationForAttribute(attribute: string): IResolvable;
}

/** `vnets` keyed by network id: `{ for key, val in <vnets> : val.network_id => val }`. */
function vnetsByNetwork(state: EnvironmentState): IResolvable {
  return forExpression(
    state.interpolationForAttribute("vnets"),
    FOR_EXPRESSION_VALUE,
    propertyAccess(FOR_EXPRESSION_VALUE, ["network_id"]),
  );
}

/**
 * Only the Admin RPC URL of a Virtual Environment is a secret. The provider may mark all of `vnets` sensitive (a
 * list-of-objects attribute can only be sensitive as a whole), so the other attributes are declared non-sensitive
 * here: outputs of them then need no `sensitive: true`.
 */
function vnetOf(state: EnvironmentState, networkId: string): VnetAttributes {
  const attribute = (name: string) => Fn.nonsensitive(propertyAccess(vnetsByNetwork(state), [networkId, name]));
  return {
    id: Token.asString(attribute("id")),
    slug: Token.asString(attribute("slug")),
    status: Token.asString(attribute("status")),
    chainId: Token.asString(attribute("chain_id")),
    publicRpcUrl: rpcUrl(state, "public_rpc_urls", networkId),
    adminRpcUrl: rpcUrl(state, "admin_rpc_urls", networkId),
  };
}

/**
 * `<state>.<map>["<networkId>"]`. Not `StringMap.lookup`: that quotes a token key as text (`["var.x"]`), where
 * `propertyAccess` writes the reference (`[var.x]`).
 */
function rpcUrl(state: EnvironmentState, map: "public_rpc_urls" | "admin_rpc_urls", networkId: string): string {
  return Token.asString(propertyAccess(state.interpolationForAttribute(map), [networkId]));
}

/**
 * An environment's attributes over its Terraform resource or data source: the id, slug and instance, and the RPC
 * URLs and vnet attributes of each network, as tokens.
 */
export abstract class EnvironmentBase extends Construct implements IEnvironment {
  /** The resource or data source whose attributes these are. */
  public abstract readonly resource: EnvironmentState & { readonly id: string; readonly slug: string; readonly instanceId: string };

  /** The environment's id (a token). */
  public get environmentId(): string {
    return this.resource.id;
  }

  /** The environment's slug (a token). */
  public get environmentSlug(): string {
    return this.resource.slug;
  }

  /** The id of the environment's active instance (a token). */
  public get instanceId(): string {
    return this.resource.instanceId;
  }

  /**
   * The Public RPC URL of the Virtual Environment forking `networkId` (a token).
   * @example
   * new TerraformOutput(this, "mainnet_rpc", { value: env.publicRpcUrl(Network.MAINNET) });
   */
  public publicRpcUrl(networkId: string): string {
    this.reference(networkId);
    return rpcUrl(this.resource, "public_rpc_urls", networkId);
  }

  /**
   * The Admin RPC URL of the Virtual Environment forking `networkId` (a token). It is a secret: Terraform requires
   * outputs of it to be `sensitive: true`.
   */
  public adminRpcUrl(networkId: string): string {
    this.reference(networkId);
    return rpcUrl(this.resource, "admin_rpc_urls", networkId);
  }

  /** Every attribute of the Virtual Environment forking `networkId`, as tokens. */
  public vnet(networkId: string): VnetAttributes {
    this.reference(networkId);
    return vnetOf(this.resource, networkId);
  }

  /** Called with each network whose attributes are used (an environment made here checks them at synth). */
  protected reference(networkId: string): void {
    void networkId;
  }
}
