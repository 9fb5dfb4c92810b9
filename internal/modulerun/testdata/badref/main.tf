resource "terraform_data" "a" {
  input = "a"
}

output "missing" {
  value = terraform_data.nope.id
}
