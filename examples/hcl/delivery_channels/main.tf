# Looks up the account's delivery channels of one type.
terraform {
  required_providers {
    chainform = {
      source = "chainform/chainform"
    }
  }
}

provider "chainform" {}

data "chainform_delivery_channels" "email" {
  type = "email"
}

output "email_channel_ids" {
  value = [for c in data.chainform_delivery_channels.email.channels : c.id]
}
