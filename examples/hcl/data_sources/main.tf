# Looks things up: networks that support Virtual Environments, the project, its environments.
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

data "chainform_project" "current" {
  slug = "demo"
}

data "chainform_environments" "ci" {
  slug_prefix = "pr-"
}

data "chainform_delivery_channels" "email" {
  type = "email"
}

output "virtual_testnet_chain_ids" {
  value = [for n in data.chainform_supported_networks.vnets.networks : n.chain_id]
}

output "project_id" {
  value = data.chainform_project.current.id
}

output "pull_request_environments" {
  value = [for e in data.chainform_environments.ci.environments : e.slug]
}
