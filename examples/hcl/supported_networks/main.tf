# Looks up the networks that support Virtual Environments.
terraform {
  required_providers {
    chainform = {
      source = "chainform/chainform"
    }
  }
}

provider "chainform" {}

data "chainform_supported_networks" "vnets" {
  feature = "virtual_testnet"
}

output "virtual_testnet_chain_ids" {
  value = [for n in data.chainform_supported_networks.vnets.networks : n.chain_id]
}
