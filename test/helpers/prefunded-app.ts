/**
 * A Terraform configuration whose prefunded account pays gas, and what a team's tests do with it: the account
 * deploys a contract from a Foundry-style artifact in the same apply, then sends transactions of its own through
 * the Public RPC. `chainform deploy` and `up` must stay green after that (issue 26, item 1), and must still fail for
 * an account whose funding did not happen. Used by the CLI test and by the packed-package journey.
 */
import { createPublicClient, createWalletClient, http, parseEther, privateKeyToAccount } from "./viem";

/** anvil's well-known development account #3 (never funded on a fresh chain unless the environment funds it). */
export const FUNDED_ACCOUNT = {
  address: "0x90F79bf6EB2c4f870365E785982E1f101E93b906",
  privateKey: "0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6",
} as const;

/** The funded amount, as the configuration spells it and in wei. */
export const FUNDING = { spelled: "250ether", wei: 250n * 10n ** 18n } as const;

/**
 * main.tf: an environment (one network, chain id `chainId`) funding {@link FUNDED_ACCOUNT}, and with `contract` a
 * `chainform_contract` deployed from that account (so the first apply already spends its gas).
 */
export function prefundedConfiguration(options: { slug: string; chainId: number; artifactPath: string; contract: boolean }): string {
  return `terraform {
  required_providers {
    chainform = { source = "chainform/chainform" }
  }
}

provider "chainform" {}

resource "chainform_environment" "ci" {
  display_name = "${options.slug}"
  slug         = "${options.slug}"
  network_config {
    network_id = "1"
    chain_id   = "${options.chainId}"
    account {
      address = "${FUNDED_ACCOUNT.address}"
      balance = "${FUNDING.spelled}"
    }
  }
}
${
  options.contract
    ? `
resource "chainform_contract" "token" {
  environment_id   = chainform_environment.ci.id
  vnet_id          = chainform_environment.ci.vnets[0].id
  artifact_path    = ${JSON.stringify(options.artifactPath)}
  constructor_args = ["Team Token", "TEAM", 18, 1000000]
  from             = "${FUNDED_ACCOUNT.address}"
}

output "token" { value = chainform_contract.token.address }
`
    : ""
}
output "rpc_url" { value = chainform_environment.ci.public_rpc_urls["1"] }
output "admin_rpc_url" {
  value     = chainform_environment.ci.admin_rpc_urls["1"]
  sensitive = true
}
`;
}

/** What the team's tests do: `count` ether transfers signed by the funded account, sent to the Public RPC. */
export async function spendFromFundedAccount(publicRpcUrl: string, chainId: number, count = 2): Promise<void> {
  const chain = {
    id: chainId,
    name: "vnet",
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [publicRpcUrl] } },
  };
  const account = privateKeyToAccount(FUNDED_ACCOUNT.privateKey);
  const wallet = createWalletClient({ account, chain, transport: http(publicRpcUrl) });
  const reader = createPublicClient({ chain, transport: http(publicRpcUrl) });
  for (let i = 0; i < count; i++) {
    const hash = await wallet.sendTransaction({ to: "0x000000000000000000000000000000000000dEaD", value: parseEther("1") });
    const receipt = await reader.waitForTransactionReceipt({ hash, pollingInterval: 50 });
    if (receipt.status !== "success") throw new Error(`transfer ${hash} failed`);
  }
}

/** The Admin RPC's `tenderly_setBalance`: stands for a funding that never happened when set to 0. */
export async function setBalance(adminRpcUrl: string, address: string, wei: bigint): Promise<void> {
  const response = await fetch(adminRpcUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tenderly_setBalance", params: [address, `0x${wei.toString(16)}`] }),
  });
  const body = (await response.json()) as { error?: { message: string } };
  if (body.error) throw new Error(`tenderly_setBalance: ${body.error.message}`);
}
