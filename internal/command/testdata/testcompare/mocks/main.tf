provider "terraform" {
  alias = "x"
}

resource "terraform_data" "real" {
  input = "r"
}

resource "terraform_data" "mocked" {
  provider = terraform.x
  input    = "m"
}
