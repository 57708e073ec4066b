# Gives two holders a token balance on a Virtual Environment. A balance changed out of band (a test spent it) is
# set again by the next apply; destroy sets it to 0.
terraform {
  required_providers {
    chainform = {
      source = "chainform/chainform"
    }
  }
}

# Configured by environment variables: CHAINFORM_BASE_URL, CHAINFORM_ACCESS_KEY, CHAINFORM_ACCOUNT, CHAINFORM_PROJECT.
provider "chainform" {}

variable "artifact_path" {
  description = "A Foundry or Hardhat artifact; this one is built by `npm run build` from contracts/ChainformToken.sol."
  type        = string
  default     = "../../../dist/contracts/ChainformToken.json"
}

resource "chainform_environment" "this" {
  display_name = "ERC-20 balance example"
  slug         = "erc20-balance-example"
  network_config {
    network_id = "1"
    chain_id   = 73592
  }
}

resource "chainform_contract" "token" {
  environment_id   = chainform_environment.this.id
  vnet_id          = chainform_environment.this.vnets[0].id
  artifact_path    = var.artifact_path
  constructor_args = ["Example Dollar", "EXD", 6, 0]
}

resource "chainform_erc20_balance" "holders" {
  for_each = {
    "0x00000000000000000000000000000000000a11ce" = "1000000000" # 1000 EXD (6 decimals)
    "0x0000000000000000000000000000000000000b0b" = "250000000"  # 250 EXD
  }
  environment_id = chainform_environment.this.id
  vnet_id        = chainform_environment.this.vnets[0].id
  token          = chainform_contract.token.address
  holder         = each.key
  amount         = each.value
}

output "token" {
  value = chainform_contract.token.address
}
