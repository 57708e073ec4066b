# Seeds a Virtual Environment (a token and a balance), then snapshots it. A test suite reverts to the snapshot
# before each test by sending revert_request to the Admin RPC; a new token (or any trigger) takes a new snapshot.
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
  display_name = "Snapshot example"
  slug         = "snapshot-example"
  network_config {
    network_id = "1"
    chain_id   = 73593
  }
}

resource "chainform_contract" "token" {
  environment_id   = chainform_environment.this.id
  vnet_id          = chainform_environment.this.vnets[0].id
  artifact_path    = var.artifact_path
  constructor_args = ["Example Token", "EXT", 18, 0]
}

resource "chainform_erc20_balance" "alice" {
  environment_id = chainform_environment.this.id
  vnet_id        = chainform_environment.this.vnets[0].id
  token          = chainform_contract.token.address
  holder         = "0x00000000000000000000000000000000000a11ce"
  amount         = "5000000000000000000000"
}

resource "chainform_snapshot" "seeded" {
  environment_id = chainform_environment.this.id
  vnet_id        = chainform_environment.this.vnets[0].id
  triggers       = { token = chainform_contract.token.id }
  depends_on     = [chainform_erc20_balance.alice]
}

output "snapshot_id" {
  value = chainform_snapshot.seeded.id
}

output "revert_request" {
  value = chainform_snapshot.seeded.revert_request
}
