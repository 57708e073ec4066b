# A three-network environment with a delayed bridge and a funded deployer.
#   export TF_CLI_CONFIG_FILE=$(npx --no-install chainform terraformrc)
#   terraform init && terraform apply
# The provider reads CHAINFORM_BASE_URL, CHAINFORM_ACCESS_KEY, CHAINFORM_ACCOUNT and CHAINFORM_PROJECT.
# Chain ids are decimal strings: exact at any size (see lib/terraform/provider/README.md).
# To replace it with create_before_destroy, use slug_prefix instead of slug (see replaceable.tf.example).
terraform {
  required_providers {
    chainform = {
      source = "chainform/chainform"
    }
  }
}

provider "chainform" {}

variable "deployer" {
  description = "Address funded on every network."
  type        = string
  default     = "0x1111111111111111111111111111111111111111"
}

resource "chainform_environment" "ci" {
  display_name = "CI environment"
  slug         = "ci-example"

  network_config {
    network_id = "1"
    chain_id   = "73571"
    explorer {
      enabled                 = true
      verification_visibility = "abi"
    }
    account {
      address = var.deployer
      balance = "100ether"
    }
  }

  network_config {
    network_id = "8453"
    chain_id   = "84530"
    account {
      address = var.deployer
      balance = "0x56bc75e2d63100000"
    }
  }

  network_config {
    network_id = "42161"
  }

  bridge {
    enabled       = true
    relay_mode    = "delayedRelay"
    delay_seconds = 30
  }
}

output "public_rpc_urls" {
  description = "Public RPC URL of each network, keyed by network id."
  value       = chainform_environment.ci.public_rpc_urls
}

output "admin_rpc_urls" {
  description = "Admin RPC URLs (full cheatcode access): secrets."
  value       = chainform_environment.ci.admin_rpc_urls
  sensitive   = true
}

output "chain_ids" {
  description = "Chain id each Virtual Environment answers with, keyed by network id."
  value       = { for vnet in chainform_environment.ci.vnets : vnet.network_id => vnet.chain_id }
}

output "bridge_address" {
  description = "Address of the bridge contract, the same on every network of the environment."
  value       = chainform_environment.ci.vnets[0].bridge_address
}
