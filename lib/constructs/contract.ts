import { resolve } from "node:path";
import { Fn, Token, type ITerraformDependable } from "cdktf";
import { Construct } from "constructs";
import type { Abi, ContractConstructorArgs, ContractFunctionArgs, ContractFunctionName } from "viem" with { "resolution-mode": "import" };
import * as contract from "./generated/contract";
import * as dataContractCall from "./generated/data-chainform-contract-call";
import type { IEnvironment } from "./environment-base";
import { terraformProvider, type ProviderRef } from "./provider";
import { checkRules, isToken, throwIfProblems, type Rule } from "./validation";

/** Constructor arguments: typed on the ABI when `abi` is given `as const`, any values otherwise. */
export type ConstructorArgs<TAbi extends Abi | readonly unknown[]> = TAbi extends Abi
  ? Abi extends TAbi
    ? readonly unknown[]
    : ContractConstructorArgs<TAbi>
  : readonly unknown[];

/** Properties of a {@link Contract}, as `env.deployContract(id, props)` takes them. */
export interface DeployContractProps<TAbi extends Abi | readonly unknown[] = Abi> {
  /** The network (its id, e.g. `Network.MAINNET`) whose Virtual Environment the contract is deployed into. */
  readonly networkId: string;
  /**
   * A Foundry or Hardhat artifact file. Resolved to an absolute path at synth (Terraform runs in cdktf.out).
   * @default - none: give `bytecode` and `abi` instead
   */
  readonly artifactPath?: string;
  /**
   * Creation bytecode, 0x hex, instead of an artifact.
   * @default - none: `artifactPath` is used
   */
  readonly bytecode?: string;
  /**
   * The ABI. Needed with `bytecode`; with `artifactPath` it only types `constructorArgs` and {@link Contract.call}
   * (give it `as const`) and is not sent.
   * @default - none
   */
  readonly abi?: TAbi;
  /**
   * Constructor arguments; bigints, numbers and bools are written as strings, arrays and tuples as JSON.
   * @default []
   */
  readonly constructorArgs?: ConstructorArgs<TAbi>;
  /**
   * Sender of the deployment.
   * @default - the provider's funded deployer, 0x0000000000000000000000000000000000c4a1f0
   */
  readonly from?: string;
  /**
   * Submit the contract to the explorer's verification API.
   * @default false
   */
  readonly verify?: boolean;
  /**
   * The provider configuration to use.
   * @default - the stack's default chainform provider
   */
  readonly provider?: ProviderRef;
}

/** Properties of a {@link Contract} created directly rather than with `env.deployContract`. */
export interface ContractProps<TAbi extends Abi | readonly unknown[] = Abi> extends DeployContractProps<TAbi> {
  /** The environment to deploy into. */
  readonly environment: IEnvironment;
}

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

const CONTRACT_RULES: readonly Rule<ContractProps<readonly unknown[]>>[] = [
  {
    reads: (p) => [p.artifactPath, p.bytecode],
    check: (p) =>
      (p.artifactPath === undefined) === (p.bytecode === undefined)
        ? "give artifactPath (a Foundry or Hardhat artifact) or bytecode with abi, exactly one of them"
        : undefined,
  },
  { reads: (p) => [p.bytecode, p.abi], check: (p) => (p.bytecode !== undefined && p.abi === undefined ? "bytecode needs abi" : undefined) },
  {
    reads: (p) => [p.bytecode],
    check: (p) =>
      p.bytecode !== undefined && !/^0x([0-9a-fA-F]{2})+$/.test(p.bytecode)
        ? `bytecode must be 0x-prefixed hex bytes, got ${JSON.stringify(p.bytecode.slice(0, 20))}`
        : undefined,
  },
  {
    reads: (p) => [p.from],
    check: (p) =>
      p.from !== undefined && !ADDRESS.test(p.from)
        ? `from must be an address (0x and 40 hex digits), got ${JSON.stringify(p.from)}`
        : undefined,
  },
];

/** A value as the provider takes it: strings as they are, numbers and bools as text, the rest as JSON. */
export function toTerraformArg(value: unknown): string {
  if (typeof value === "string") return value;
  if (typeof value === "bigint" || typeof value === "number" || typeof value === "boolean") return String(value);
  return JSON.stringify(value, (_key, v: unknown) => (typeof v === "bigint" ? v.toString() : v));
}

/**
 * `chainform_contract`: a contract deployed into one Virtual Environment of an environment. Usually made with
 * `env.deployContract(...)`.
 * @example
 * const token = env.deployContract("token", {
 *   networkId: Network.MAINNET,
 *   artifactPath: "out/Token.sol/Token.json",
 *   constructorArgs: ["Token", "TKN", 18, 1_000_000n],
 * });
 * new TerraformOutput(this, "token", { value: token.address });
 */
export class Contract<TAbi extends Abi | readonly unknown[] = Abi> extends Construct {
  /** The generated `chainform_contract` binding. */
  public readonly resource: contract.Contract;
  private readonly environment: IEnvironment;
  private readonly networkId: string;
  private readonly provider?: ProviderRef;

  public constructor(scope: Construct, id: string, props: ContractProps<TAbi>) {
    super(scope, id);
    throwIfProblems(this, checkRules(CONTRACT_RULES, props as ContractProps<readonly unknown[]>));
    this.environment = props.environment;
    this.networkId = props.networkId;
    this.provider = props.provider;
    const artifactPath = props.artifactPath === undefined || isToken(props.artifactPath) ? props.artifactPath : resolve(props.artifactPath);
    this.resource = new contract.Contract(this, "Resource", {
      environmentId: props.environment.environmentId,
      vnetId: props.environment.vnet(props.networkId).id,
      artifactPath,
      bytecode: props.bytecode,
      abi: props.bytecode !== undefined && props.abi !== undefined ? JSON.stringify(props.abi) : undefined,
      constructorArgs: props.constructorArgs ? (props.constructorArgs as readonly unknown[]).map(toTerraformArg) : undefined,
      from: props.from,
      verify: props.verify,
      provider: terraformProvider(props.provider),
    });
  }

  /** The contract's address (a token). */
  public get address(): string {
    return this.resource.address;
  }

  /** The deployer's address (a token): `from` as given, else the provider's default deployer. */
  public get from(): string {
    return this.resource.from;
  }

  /** The hash of the deployment transaction (a token). */
  public get transactionHash(): string {
    return this.resource.transactionHash;
  }

  /** The block the contract was deployed in (a token). */
  public get blockNumber(): number {
    return this.resource.blockNumber;
  }

  /** The ABI as JSON text (a token), from the artifact or as given. */
  public get abiJson(): string {
    return this.resource.abi;
  }

  /**
   * A view call of this contract (`chainform_contract_call`), read by Terraform: use its `result` in outputs and
   * check blocks.
   * @example
   * const supply = token.call("supply", "totalSupply");
   * new TerraformOutput(this, "supply", { value: supply.result(0) });
   */
  public call<const TName extends (TAbi extends Abi ? ContractFunctionName<TAbi, "view" | "pure"> : string)>(
    id: string,
    functionName: TName,
    args?: TAbi extends Abi
      ? ContractFunctionArgs<TAbi, "view" | "pure", TName & ContractFunctionName<TAbi, "view" | "pure">>
      : readonly unknown[],
    after?: readonly (Construct & { resource?: ITerraformDependable })[],
  ): ContractCall {
    return new ContractCall(this, id, {
      environment: this.environment,
      networkId: this.networkId,
      address: this.address,
      abiJson: this.abiJson,
      functionName,
      args: args as readonly unknown[] | undefined,
      after,
      provider: this.provider,
    });
  }
}

/** Properties of a {@link ContractCall}. */
export interface ContractCallProps {
  /** The environment of the contract. */
  readonly environment: IEnvironment;
  /** The network whose Virtual Environment holds the contract. */
  readonly networkId: string;
  /** The contract's address. */
  readonly address: string;
  /**
   * The function: its name with `abiJson`, else its signature with outputs (`"owner() view returns (address)"`).
   */
  readonly functionName: string;
  /**
   * The ABI as JSON text.
   * @default - none: `functionName` is a full signature
   */
  readonly abiJson?: string;
  /**
   * Arguments.
   * @default []
   */
  readonly args?: readonly unknown[];
  /**
   * What must be in place before the call is read (e.g. the balances it checks).
   * @default []
   */
  readonly after?: readonly (Construct & { resource?: ITerraformDependable })[];
  /**
   * The provider configuration to use.
   * @default - the stack's default chainform provider
   */
  readonly provider?: ProviderRef;
}

/** `chainform_contract_call` (data source): a view call with its decoded result. */
export class ContractCall extends Construct {
  /** The generated data source binding. */
  public readonly dataSource: dataContractCall.DataChainformContractCall;

  public constructor(scope: Construct, id: string, props: ContractCallProps) {
    super(scope, id);
    this.dataSource = new dataContractCall.DataChainformContractCall(this, "Resource", {
      environmentId: props.environment.environmentId,
      vnetId: props.environment.vnet(props.networkId).id,
      address: props.address,
      function: props.functionName,
      abi: props.abiJson,
      args: props.args?.map(toTerraformArg),
      dependsOn: props.after?.map((c) => c.resource ?? (c as unknown as ITerraformDependable)),
      provider: terraformProvider(props.provider),
    });
  }

  /** Output `index` of the result, as text (a token). */
  public result(index = 0): string {
    return Token.asString(Fn.element(this.dataSource.result, index));
  }
}
