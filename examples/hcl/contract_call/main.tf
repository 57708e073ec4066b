# Calls view functions of a deployed contract: in a check block (a failed assertion is a warning on every plan and
# apply) and in a postcondition (which fails the apply).
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
  display_name = "Contract call example"
  slug         = "contract-call-example"
  network_config {
    network_id = "1"
    chain_id   = 73594
  }
}

resource "chainform_contract" "token" {
  environment_id   = chainform_environment.this.id
  vnet_id          = chainform_environment.this.vnets[0].id
  artifact_path    = var.artifact_path
  constructor_args = ["Example Token", "EXT", 18, 1000]
}

# With the contract's ABI: the function by name.
data "chainform_contract_call" "supply" {
  environment_id = chainform_environment.this.id
  vnet_id        = chainform_environment.this.vnets[0].id
  address        = chainform_contract.token.address
  abi            = chainform_contract.token.abi
  function       = "totalSupply"

  lifecycle {
    postcondition {
      condition     = self.result[0] == "1000"
      error_message = "The token's total supply is not 1000."
    }
  }
}

# Without an ABI: the function's signature, outputs included.
data "chainform_contract_call" "owner" {
  environment_id = chainform_environment.this.id
  vnet_id        = chainform_environment.this.vnets[0].id
  address        = chainform_contract.token.address
  function       = "owner() view returns (address)"
}

check "owner" {
  assert {
    condition     = data.chainform_contract_call.owner.result[0] == chainform_contract.token.from
    error_message = "The token's owner is not its deployer."
  }
}

output "owner" {
  value = data.chainform_contract_call.owner.result[0]
}
