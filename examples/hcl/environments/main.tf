# Looks up the project's environments whose slug starts with a prefix.
terraform {
  required_providers {
    chainform = {
      source = "chainform/chainform"
    }
  }
}

provider "chainform" {}

data "chainform_environments" "ci" {
  slug_prefix = "pr-"
}

output "pull_request_environments" {
  value = [for e in data.chainform_environments.ci.environments : e.slug]
}
