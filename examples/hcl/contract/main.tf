# Deploys an ERC-20 token from a compiled artifact into each network of an environment. The constructor's
# arguments are Terraform values; the provider ABI-encodes them. A new artifact (other bytecode) replaces the
# contracts; so does a re-created environment.
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
  display_name = "Contract example"
  slug         = "contract-example"
  network_config {
    network_id = "1"
    chain_id   = 73591
  }
  network_config {
    network_id = "8453"
    chain_id   = 84591
  }
}

resource "chainform_contract" "token" {
  count            = 2
  environment_id   = chainform_environment.this.id
  vnet_id          = chainform_environment.this.vnets[count.index].id
  artifact_path    = var.artifact_path
  constructor_args = ["Example Token", "EXT", 6, 1000000000000]
}

output "token_addresses" {
  value = { for i, v in chainform_environment.this.vnets : v.network_id => chainform_contract.token[i].address }
}
