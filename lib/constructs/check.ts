import { TerraformElement, Token, type IResolvable } from "cdktf";
import type { Construct } from "constructs";
import { checkRules, throwIfProblems, type Rule } from "./validation";

/** One `assert` of a {@link Check}. */
export interface CheckAssertion {
  /**
   * What must hold: an expression token such as `Op.eq(call.result(0), token.from)`, or a boolean.
   */
  readonly condition: IResolvable | boolean;
  /** What Terraform shows when the condition is false. */
  readonly errorMessage: string;
}

/** Props of {@link Check}. */
export interface CheckProps {
  /** The assertions, at least one. */
  readonly assertions: readonly CheckAssertion[];
}

const RULES: readonly Rule<CheckProps>[] = [
  {
    reads: () => [],
    check: (p) => (p.assertions.length === 0 ? "assertions must hold at least one assertion" : undefined),
  },
  {
    reads: () => [],
    check: (p) => {
      const index = p.assertions.findIndex(
        (a) => typeof a.errorMessage !== "string" || (!Token.isUnresolved(a.errorMessage) && a.errorMessage.trim() === ""),
      );
      return index < 0 ? undefined : `assertions[${index}].errorMessage must say what failed`;
    },
  },
];

/**
 * A Terraform `check` block: assertions that Terraform evaluates at the end of every plan and apply, reporting a
 * failed one as a warning without stopping anything (Terraform 1.5+). The usual companion of
 * `Contract.call(...)` (`chainform_contract_call`): keep the data source outside the check, as here, so that a
 * plan with nothing to do stays empty. Synthesizes to Terraform JSON (the default); HCL output has no `check`.
 * @example
 * const owner = token.call("owner", "owner");
 * new Check(this, "token-owner", {
 *   assertions: [{ condition: Op.eq(owner.result(0), token.from), errorMessage: "The token's owner is not its deployer." }],
 * });
 */
export class Check extends TerraformElement {
  /** The assertions, as given. */
  public readonly assertions: readonly CheckAssertion[];

  public constructor(scope: Construct, id: string, props: CheckProps) {
    super(scope, id, "check");
    throwIfProblems(this, checkRules(RULES, props));
    this.assertions = props.assertions;
  }

  /** The `check` block in Terraform JSON. */
  public override toTerraform(): Record<string, unknown> {
    return {
      check: {
        [this.friendlyUniqueId]: {
          assert: this.assertions.map((a) => ({ condition: a.condition, error_message: a.errorMessage })),
        },
      },
    };
  }

  /** HCL synthesis does not know `check` blocks: say so instead of writing something Terraform would misread. */
  public override toHclTerraform(): Record<string, unknown> {
    throw new Error(`${this.node.path}: a Check synthesizes to Terraform JSON only; leave hclOutput off for this stack`);
  }
}
