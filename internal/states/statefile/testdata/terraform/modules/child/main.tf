variable "n" {
  type = number
}

resource "terraform_data" "r" {
  input = var.n
}

output "id" {
  value = terraform_data.r.id
}
