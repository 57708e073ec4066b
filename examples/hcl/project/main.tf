# Looks up a project of the account by its slug.
terraform {
  required_providers {
    chainform = {
      source = "chainform/chainform"
    }
  }
}

provider "chainform" {}

data "chainform_project" "current" {
  slug = "demo"
}

output "project_id" {
  value = data.chainform_project.current.id
}
