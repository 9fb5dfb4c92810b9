# A first Cairn configuration. It needs no cloud account: terraform_data
# is built in, as in Terraform, and stores values in state.

variable "environment" {
  type    = string
  default = "dev"
}

variable "services" {
  type    = map(number)
  default = { web = 2, api = 1 }
}

locals {
  prefix = "cairn-${var.environment}"
}

# One object per service, keyed by name.
resource "terraform_data" "service" {
  for_each = var.services
  input = {
    name     = "${local.prefix}-${each.key}"
    replicas = each.value
  }
}

# Replaced whenever the set of services changes.
resource "terraform_data" "release" {
  input            = [for s in terraform_data.service : s.output.name]
  triggers_replace = keys(var.services)
}

output "service_names" {
  value = terraform_data.release.output
}

output "release_id" {
  value = terraform_data.release.id
}
