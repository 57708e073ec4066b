# The provider's functions (Terraform 1.8 or later): amounts, block numbers, address checksums and slugs, exact at
# any size. They need no service: `terraform apply` here only computes outputs.
terraform {
  required_version = ">= 1.8"
  required_providers {
    chainform = {
      source = "chainform/chainform"
    }
  }
}

provider "chainform" {}

output "amounts" {
  value = {
    # Wei in 1.5 ether, for an account balance or an 18-decimal token amount.
    one_and_a_half_ether = provider::chainform::ether("1.5")
    # 250 USDC (6 decimals) in its smallest unit, for chainform_erc20_balance.amount.
    usdc = provider::chainform::parse_units("250", 6)
    # And back: 1.5.
    formatted = provider::chainform::format_units("1500000000000000000", 18)
  }
}

output "block_numbers" {
  value = {
    # For network_config.block_number, which takes hex.
    fork_block = provider::chainform::block_number_to_hex(19000000)
    decimal    = provider::chainform::block_number_from_hex("0x121eac0")
  }
}

output "checksummed" {
  # EIP-55; a mixed-case address with a wrong checksum is an error naming the argument.
  value = provider::chainform::checksum_address("0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed")
}

output "slug" {
  # The slug chainform_environment derives from this display name, known before anything exists.
  value = provider::chainform::slug("CI run 42")
}
