import type { Abi } from "viem" with { "resolution-mode": "import" };
import { parseTokenAmount } from "../domain/amounts";
import { Construct } from "constructs";
import * as erc20Balance from "./generated/erc20-balance";
import type { Contract } from "./contract";
import type { IEnvironment } from "./environment-base";
import { terraformProvider, type ProviderRef } from "./provider";
import { checkRules, throwIfProblems, type Rule } from "./validation";

/** Properties of an {@link Erc20Balance}. */
export interface Erc20BalanceProps {
  /** The environment. */
  readonly environment: IEnvironment;
  /** The network whose Virtual Environment holds the token. */
  readonly networkId: string;
  /** The token: a {@link Contract} of this stack, or an address. */
  readonly token: Contract<Abi | readonly unknown[]> | string;
  /** The address whose balance is set. */
  readonly holder: string;
  /** The balance in the token's smallest unit (a bigint, a whole number, or decimal / 0x hex text). */
  readonly amount: bigint | number | string;
  /**
   * The provider configuration to use.
   * @default - the stack's default chainform provider
   */
  readonly provider?: ProviderRef;
}

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const BALANCE_RULES: readonly Rule<Erc20BalanceProps>[] = [
  {
    reads: (p) => [p.holder],
    check: (p) =>
      ADDRESS.test(p.holder) ? undefined : `holder must be an address (0x and 40 hex digits), got ${JSON.stringify(p.holder)}`,
  },
  {
    reads: (p) => [p.token],
    check: (p) =>
      typeof p.token !== "string" || ADDRESS.test(p.token)
        ? undefined
        : `token must be a Contract or an address, got ${JSON.stringify(p.token)}`,
  },
  {
    reads: (p) => [p.amount],
    check: (p) =>
      amountText(p.amount) === null ? `amount must be a whole number from 0 to 2^256 - 1, got ${String(p.amount)}` : undefined,
  },
];

function amountText(amount: bigint | number | string): string | null {
  const text =
    typeof amount === "string" ? amount : typeof amount === "bigint" || Number.isSafeInteger(amount) ? BigInt(amount).toString() : "";
  return parseTokenAmount(text) === null ? null : text;
}

/**
 * `chainform_erc20_balance`: a holder's token balance on one Virtual Environment, set through the Admin RPC and set
 * again when it drifts.
 * @example
 * new Erc20Balance(this, "alice", { environment: env, networkId: Network.MAINNET, token, holder: ALICE, amount: 1000n * 10n ** 18n });
 */
export class Erc20Balance extends Construct {
  /** The generated `chainform_erc20_balance` binding. */
  public readonly resource: erc20Balance.Erc20Balance;

  public constructor(scope: Construct, id: string, props: Erc20BalanceProps) {
    super(scope, id);
    throwIfProblems(this, checkRules(BALANCE_RULES, props));
    this.resource = new erc20Balance.Erc20Balance(this, "Resource", {
      environmentId: props.environment.environmentId,
      vnetId: props.environment.vnet(props.networkId).id,
      token: typeof props.token === "string" ? props.token : props.token.address,
      holder: props.holder,
      amount: amountText(props.amount) ?? String(props.amount),
      provider: terraformProvider(props.provider),
    });
  }
}
