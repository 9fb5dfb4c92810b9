variable "prefix" {
  type = string
}

variable "replicas" {
  type    = number
  default = 2
}

variable "secret" {
  type      = string
  default   = "s3cr3t"
  sensitive = true
}

resource "terraform_data" "base" {
  input = "${var.prefix}-base"
}

resource "terraform_data" "replica" {
  count = var.replicas
  input = "${terraform_data.base.output}-${count.index}"
}

resource "terraform_data" "last" {
  input      = "last"
  depends_on = [terraform_data.replica]
}

output "base" {
  value = terraform_data.base.output
}

output "token" {
  value     = "${var.secret}-${terraform_data.last.id}"
  sensitive = true
}
