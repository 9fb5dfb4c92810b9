# Applied, then destroyed: what is left is a state with no resources and no
# outputs.

resource "terraform_data" "a" {
  input = "x"
}

output "o" {
  value = terraform_data.a.output
}
