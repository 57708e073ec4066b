# Uses an environment's Admin RPC without keeping it anywhere (docs/secrets.md). The provider keeps no Admin RPC URL
# in state (admin_rpc_urls_in_state = false); the ephemeral chainform_admin_rpc opens the URL at plan and apply only,
# and hands it to a provisioner that funds an account with Foundry's cast. Neither the state file nor a saved plan
# holds the URL. Needs Terraform 1.10 or later (ephemeral resources) and Foundry's native `cast` (foundryup, or the
# binary of npm's platform package: node_modules/@foundry-rs/cast-linux-amd64/bin/cast). Not the npm wrapper
# (node_modules/.bin/cast of @foundry-rs/cast 1.7): it exits 0 when cast fails, so a failed send would pass here.
terraform {
  required_version = ">= 1.10"
  required_providers {
    chainform = {
      source = "chainform/chainform"
    }
  }
}

# Configured by environment variables: CHAINFORM_BASE_URL, CHAINFORM_ACCESS_KEY, CHAINFORM_ACCOUNT, CHAINFORM_PROJECT.
provider "chainform" {
  admin_rpc_urls_in_state = false
}

variable "cast" {
  description = "Foundry's native cast binary (not the npm wrapper, which exits 0 when cast fails)."
  type        = string
  default     = "cast"
}

locals {
  alice = "0x00000000000000000000000000000000000a11ce"
  bob   = "0x0000000000000000000000000000000000000b0b"
}

resource "chainform_environment" "this" {
  display_name = "Admin RPC example"
  slug         = "admin-rpc-example"
  network_config {
    network_id = "1"
    account {
      address = local.alice
      balance = provider::chainform::ether("100")
    }
  }
}

# Opened at plan (once the environment exists) and at apply; never stored.
ephemeral "chainform_admin_rpc" "mainnet" {
  environment_id = chainform_environment.this.id
  network_id     = "1"
}

# The Admin RPC may send as any address: Alice pays Bob 1 ether, once per environment.
resource "terraform_data" "pay_bob" {
  triggers_replace = [chainform_environment.this.id]

  provisioner "local-exec" {
    command     = "${var.cast} send --unlocked --from ${local.alice} ${local.bob} --value 1ether --rpc-url \"$ADMIN_RPC_URL\""
    environment = { ADMIN_RPC_URL = ephemeral.chainform_admin_rpc.mainnet.url }
  }
}

# Public RPC URLs are no secret: they stay in state and work as outputs.
output "public_rpc_url" {
  value = chainform_environment.this.public_rpc_urls["1"]
}
