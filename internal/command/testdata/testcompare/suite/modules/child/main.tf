variable "prefix" {
  type = string
}

resource "terraform_data" "c" {
  input = "${var.prefix}-child"
}

output "value" {
  value = terraform_data.c.output
}
