# Ensures a Web3 Action is stopped. Destroying the resource does not start the action again.
terraform {
  required_providers {
    chainform = {
      source = "chainform/chainform"
    }
  }
}

provider "chainform" {}

variable "action_id" {
  description = "Id of the Web3 Action to stop."
  type        = string
}

resource "chainform_action_stop" "this" {
  action_id = var.action_id
}

output "status" {
  value = chainform_action_stop.this.status
}
