variable "n" {
  type = number
}

variable "tag" {
  type    = string
  default = "a"
}

resource "terraform_data" "item" {
  count = var.n
  input = "${var.tag}-${count.index}"
}

output "first" {
  value = terraform_data.item[0].output
}
