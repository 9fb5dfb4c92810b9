resource "terraform_data" "a" {
  input = "a"
}

resource "terraform_data" "k" {
  input = "k"
}

resource "terraform_data" "c" {
  count = 2
  input = "c${count.index}"
}

resource "terraform_data" "e" {
  for_each = toset(["p", "q"])
  input    = each.key
}

resource "terraform_data" "z" {
  input = "z"
}
