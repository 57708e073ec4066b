/** The `Snapshot` construct: an `evm_snapshot` of one Virtual Environment, taken once what it names is in place. */
import type { ITerraformDependable } from "cdktf";
import { Construct } from "constructs";
import * as snapshot from "./generated/snapshot";
import type { IEnvironment } from "./environment-base";
import { terraformProvider, type ProviderRef } from "./provider";

/** Properties of a {@link Snapshot}. */
export interface SnapshotProps {
  /** The environment. */
  readonly environment: IEnvironment;
  /** The network whose Virtual Environment is snapshotted. */
  readonly networkId: string;
  /**
   * What must be in place before the snapshot is taken (contracts, balances).
   * @default []
   */
  readonly after?: readonly (Construct & { resource?: ITerraformDependable })[];
  /**
   * Values whose change takes a new snapshot.
   * @default - none
   */
  readonly triggers?: Readonly<Record<string, string>>;
  /**
   * The provider configuration to use.
   * @default - the stack's default chainform provider
   */
  readonly provider?: ProviderRef;
}

/**
 * `chainform_snapshot`: an `evm_snapshot` of one Virtual Environment taken after `after`; test suites revert to it
 * with `revertRequest` through the Admin RPC.
 * @example
 * const seeded = new Snapshot(this, "seeded", { environment: env, networkId: Network.MAINNET, after: [token, alice] });
 * new TerraformOutput(this, "revert", { value: seeded.revertRequest });
 */
export class Snapshot extends Construct {
  /** The generated `chainform_snapshot` binding. */
  public readonly resource: snapshot.Snapshot;

  public constructor(scope: Construct, id: string, props: SnapshotProps) {
    super(scope, id);
    this.resource = new snapshot.Snapshot(this, "Resource", {
      environmentId: props.environment.environmentId,
      vnetId: props.environment.vnet(props.networkId).id,
      triggers: props.triggers,
      dependsOn: (props.after ?? []).map((c) => c.resource ?? (c as unknown as ITerraformDependable)),
      provider: terraformProvider(props.provider),
    });
  }

  /** The snapshot id (a token). */
  public get snapshotId(): string {
    return this.resource.id;
  }

  /** The JSON-RPC request that reverts to the snapshot (a token). */
  public get revertRequest(): string {
    return this.resource.revertRequest;
  }
}
