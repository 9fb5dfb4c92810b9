resource "terraform_data" "a" {
  input = "x"
  bogus = 1
}

resource "terraform_data" "b" {
  input = terraform_data.missing.output
}

resource "terraform_data" "c" {
  input = {
    a = 1
    b = [
      "x" + 1,
    ]
  }
}
