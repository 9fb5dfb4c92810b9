variable "name" {
  type    = string
  default = "app"
  validation {
    condition     = length(var.name) <= 12
    error_message = "The name must be at most 12 characters."
  }
}

variable "replicas" {
  type    = number
  default = 2
}

resource "terraform_data" "app" {
  input = var.name
  lifecycle {
    postcondition {
      condition     = self.output != "broken"
      error_message = "The app is broken."
    }
  }
}

resource "terraform_data" "replica" {
  count = var.replicas
  input = "${var.name}-${count.index}"
}

module "child" {
  source = "./modules/child"
  prefix = var.name
}

output "app" {
  value = terraform_data.app.output
  precondition {
    condition     = var.name != "forbidden"
    error_message = "That name is forbidden."
  }
}

output "replicas" {
  value = [for r in terraform_data.replica : r.output]
}

output "child" {
  value = module.child.value
}

check "health" {
  assert {
    condition     = var.replicas < 5
    error_message = "Too many replicas."
  }
}
